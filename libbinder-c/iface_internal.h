// SPDX-License-Identifier: MIT
/* Declarations shared by the iface*.c files (signature interfaces). */
#ifndef BINDERC_IFACE_INTERNAL_H
#define BINDERC_IFACE_INTERNAL_H

#include <ffi.h>
#include <stdarg.h>
#include <stdatomic.h>

#include <binderc/iface.h>

#include "refcount.h"

/* ---- iface_sig.c: one signature item and its values -------------------- */

/* One parsed item: type char, element char for arrays ('[' items), and
 * whether '?' preceded it. */
struct bc__arg {
	char type;
	char elem;
	bool nullable;
};

/* Storage for one C parameter. */
union bc__val {
	int32_t i;
	uint32_t u;
	int64_t x;
	uint64_t t;
	bool b;
	int8_t y;
	uint16_t c;
	float f;
	double d;
	const char *s;
	char *ms;
	void *p;
	const void *cp;
	bc_binder *o;
	int h;
	size_t n;
};

/* Parse @sig into a new array of items (*@ret_args, *@ret_n; free()).
 * -EINVAL with *@ret_bad and *@ret_why (static text) on a bad one. */
int bc__sig_parse(const char *sig, struct bc__arg **ret_args, size_t *ret_n, size_t *ret_bad, const char **ret_why);
/* C parameters an item takes (1, or 2 for arrays). */
static inline size_t bc__arg_width(const struct bc__arg *a)
{
	return a->type == '[' ? 2 : 1;
}
/* The ffi type(s) of an item as an input (@out false) or an output
 * (pointers).  Fills @width entries of @types. */
void bc__arg_ffi_types(const struct bc__arg *a, bool out, ffi_type **types);
/* Whether the item is an fd ('h', 'H'): empty is -1, and a parcel written
 * with give_fd takes it. */
bool bc__arg_is_fd(const struct bc__arg *a);

/* Write the value in @v[0..width) (C input representation).  An fd is
 * given to the parcel (closed with it) when @give_fd. */
int bc__val_write(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd);

/*
 * Read a value into @v[0..width).
 *  @own false (a stub's inputs): byte arrays and fds stay in the parcel,
 *             strings, typed arrays and binder references are the
 *             reader's; release with bc__val_free(own=false).
 *  @own true  (a proxy's outputs): everything is the reader's (byte arrays
 *             copied, fds dup'ed); release with bc__val_free(own=true).
 * A null where the item is not nullable is -EBADMSG.
 */
int bc__val_read(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own);
/* Release what bc__val_read() gave (or an implementation's output when
 * @own; @close_fds false keeps fds open).  Resets the value. */
void bc__val_free(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds);
/* Empty value (NULL / 0 / fd -1). */
void bc__val_init(const struct bc__arg *a, union bc__val *v);
/* Load a C input of item @a from @src[0..width): the addresses of its C
 * parameters, as libffi gives them to a closure. */
void bc__val_load(const struct bc__arg *a, void *const *src, union bc__val *v);
/* Store an output value through the caller's pointers @dst[0..width) (the
 * values of the C output parameters); a NULL pointer discards (frees) it. */
void bc__val_store(const struct bc__arg *a, union bc__val *v, void *const *dst);
/* Load a C input of item @a from bc_call()'s variable arguments (as the
 * default argument promotions left it). */
void bc__val_from_va(const struct bc__arg *a, va_list *ap, union bc__val *v);

/* ---- iface.c: compiled descriptions ------------------------------------ */

struct bc__method {
	struct bc_iface_method pub; /* strings owned */
	struct bc__arg *in, *out;
	size_t n_in, n_out;
	size_t n_cin, n_cout; /* C parameters of inputs / outputs */
	ffi_type *types[1 + BINDERC_IFACE_MAX_PARAMS];
	ffi_cif cif; /* int fn(void *self, inputs..., outputs...) */
};

struct bc_iface {
	atomic_int refs;
	char *descriptor;
	struct bc__method *methods;
	size_t n_methods;
	bc_class *cls; /* for stubs */
};

/* Per-thread status: what bc_iface_throw() set (stub side) and what the
 * last proxy call received. */
bc_status *bc__iface_pending(void);
bool *bc__iface_pending_set(void);
bc_status *bc__iface_last(void);

/* Write @iface's description (the answer to BINDERC_IFACE_DESCRIBE_TRANSACTION). */
int bc__iface_describe(const bc_iface *iface, bc_parcel *reply);

#endif
