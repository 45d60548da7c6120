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
	G_FDV,	   /* FileDescriptor[]: owned fds, each a bare fd object */
	G_NKINDS
};

/* gkind_row.flags */
enum {
	/* a pointer with a size_t NAME_len beside it, as parameter, local,
	 * member and return value */
	GK_LEN = 1u << 0,
	/* a struct with its own TYPE_zero/_init/_clear functions, held by
	 * value and written from its address */
	GK_ADDR = 1u << 1,
	/* init sets _r on failure (goto fail keeps it); otherwise a failed
	 * init is out of memory (goto nomem) */
	GK_INIT_R = 1u << 2,
	/* a field read into a temporary and swapped in, so the value _init()
	 * gave it is freed only once the new one has arrived */
	GK_SWAP = 1u << 3,
};

/*
 * The C of one kind of value (gen_kinds.c).  Templates are C text in
 * which these stand for what the caller gives:
 *   $T the C type (struct gtype.ctype)   $F bc_parcel_*_<F> (gtype.fn)
 *   $V the value, lvalue or name         $v $V without a leading '&'
 *   $L its length                        $P the parcel
 *   $D a default value                   $G the label a failure jumps to
 *   $N "true" when @nullable             $S ParcelableHolder's stability
 *   $M bc_parcel_write_int32($P, 1), or -EINVAL when $V is NULL
 * A template of several lines (\n) is indented as a whole; statements
 * end with their ';'.  NULL: the kind has no such thing (see each field).
 */
struct gkind_row {
	const char *param_in;  /* an in parameter */
	const char *param_out; /* out/inout; NULL: param_in (the resolver refuses them) */
	const char *ret;       /* the return value as out-parameter $V */
	const char *local;     /* a local holding a received value, zeroed (GK_LEN: the _len added) */
	const char *member;    /* a struct member (GK_LEN: likewise) */
	const char *write, *read; /* _r = ...; the non-null form, or with $N */
	/* @nullable, where it takes other calls; NULL: write/read as above */
	const char *write_null, *read_null;
	const char *free;  /* free what it owns; NULL: nothing */
	/* the empty value where it is not all-zero bits; NULL: zero, or NULL
	 * for what free() releases */
	const char *reset;
	/* a parcelable field's start value in _init(): $D its default; NULL:
	 * the declared default (if any) is assigned */
	const char *init;
	/* the value a String (or each element of a fixed-size array) starts
	 * with when zero bits are not it */
	const char *dflt;
	const char *elem_set;  /* element $V = $D; NULL: a plain assignment */
	const char *new_n;     /* $L default elements into $V (an out array in a stub); NULL: calloc */
	const char *fixed_new; /* the elements of a fixed-size field; NULL: calloc, then dflt */
	const char *arg;       /* an in argument of the service's function */
	unsigned flags;	       /* GK_* */
};

extern const struct gkind_row gen_kinds[G_NKINDS];

/* Values for a template's $ letters (NULL: not given). */
struct gvars {
	const char *T, *F, *V, *L, *P, *D, *G, *N, *S, *M;
};

struct gtype {
	const struct gkind_row *row;
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
	const struct aidl_decl *root; /* the file's outermost type */
	FILE *h, *c;
};

struct gtype gen_type(const struct aidl_type *t);
/* @tmpl with @s filled in ($T and $F from @gt). */
const char *gen_expand(struct aidl_ctx *ctx, const struct gtype *gt, const char *tmpl, struct gvars s);
/* The same as lines, each after @ind. */
void gen_emit(struct aidl_ctx *ctx, FILE *f, const char *ind, const struct gtype *gt, const char *tmpl,
	      struct gvars s);
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
/* Instantiations of generic parcelables (gen_instances.c): @d's place in
 * the header's order, its forward typedefs and guard, its weak symbols. */
void gen_place(struct gen *g, const struct aidl_decl *d);
void gen_inst_typedefs(struct gen *g);
void gen_inst_weak(struct gen *g);
void gen_source_parcelable(struct gen *g);
void gen_source_enum(struct gen *g);
void gen_source_interface(struct gen *g);
/* A C literal for an evaluated constant of type @t. */
const char *gen_literal(struct aidl_ctx *ctx, const struct aidl_type *t, const struct aidl_value *v);

#endif
