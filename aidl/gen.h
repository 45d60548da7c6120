/* SPDX-License-Identifier: MIT */
/*
 * The C generator's shared pieces: how each AIDL type maps to C (the
 * parameter types on each side, the storage of a received value) and the
 * statements that write, read and free it on libbinder-c's public API.
 */
#ifndef BCAIDL_GEN_H
#define BCAIDL_GEN_H

#include "aidl.h"

enum gkind {
	G_SCALAR, /* boolean byte char int long float double */
	G_ENUM,
	G_STRING,
	G_BINDER, /* IBinder and interface types */
	G_PARCEL,
	G_ARRAY,  /* boolean[] char[] int[] long[] float[] double[] */
	G_BYTES,  /* byte[]: packed */
	G_STRV,	  /* String[] */
	G_FD,	  /* FileDescriptor */
	G_PFD,	  /* ParcelFileDescriptor */
	G_PARRAY, /* an array of parcelables */
	G_BINDERV, /* IBinder[] and arrays of interfaces */
	G_NPARCEL, /* a @nullable parcelable: a heap pointer, NULL for null */
	G_NPARRAY, /* a @nullable array of parcelables: heap pointers, NULL for null */
	G_PFDV,	   /* ParcelFileDescriptor[]: owned fds, -1 for a null element */
	G_HOLDER,  /* ParcelableHolder: bcaidl_parcelable_holder (raw bytes) */
};

struct gtype {
	enum gkind k;
	const char *ctype; /* scalar / element / struct C type */
	const char *fn;	   /* bc_parcel_{write,read}_<fn>[_array] */
	const struct aidl_decl *decl;
};

struct gen {
	struct aidl_ctx *ctx;
	const struct aidl_decl *d; /* the type being written now */
	/* Every type of the file, nested ones included, in the order C
	 * needs them (a struct before the struct holding it by value). */
	const struct aidl_decl **all;
	size_t n_all;
	FILE *h, *c;
};

struct gtype gen_type(const struct aidl_type *t);
/* A parameter in the generated prototypes: "int32_t a", "const char *s",
 * "const int32_t *v, size_t v_len", "P *p", "int32_t **v, size_t *v_len". */
const char *gen_param(struct aidl_ctx *ctx, const struct aidl_type *t, enum aidl_dir dir, const char *name);
/* The return value as an output parameter named _ret (NULL for void). */
const char *gen_ret_param(struct aidl_ctx *ctx, const struct aidl_type *t);
/* Declaration of a local holding a received value named @name (zeroed). */
void gen_local(struct gen *g, const struct aidl_type *t, const char *name, const char *ind);
/* Statements: r = <write @val (@len for arrays)>; if (r < 0) goto out; */
void gen_write(struct gen *g, FILE *f, const struct aidl_type *t, const char *parcel, const char *val,
	       const char *len, const char *ind);
/* Statement: r = <read into lvalue @lv (and @lvlen)>; (no goto) */
void gen_read(struct gen *g, FILE *f, const struct aidl_type *t, const char *parcel, const char *lv,
	      const char *lvlen, const char *ind);
/* Statement freeing the value in @lv (and @lvlen). */
void gen_free(struct gen *g, FILE *f, const struct aidl_type *t, const char *lv, const char *lvlen,
	      const char *ind);
/* The static helpers every generated source starts with. */
void gen_helpers(FILE *f);

void gen_header(struct gen *g, const char *srcname);
void gen_source_parcelable(struct gen *g);
void gen_source_enum(struct gen *g);
void gen_source_interface(struct gen *g);
/* A C literal for an evaluated constant of type @t. */
const char *gen_literal(struct aidl_ctx *ctx, const struct aidl_type *t, const struct aidl_value *v);

#endif
