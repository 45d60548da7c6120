// SPDX-License-Identifier: MIT
/*
 * Signatures: parsing the mini-language of binderc/iface.h and moving one
 * value of each type between C and a parcel.
 *
 * What the code knows about a type is one row of sig_types[], indexed by
 * its signature character: the parser, libffi's parameter types, the
 * parcel reads and writes, release, and the C parameters all look it up
 * there, so a type is added as a row and not as a case in every switch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iface_internal.h"

_Static_assert(sizeof(bool) == 1, "bool is passed to libffi as uint8");

struct sig_type {
	unsigned char csize; /* bytes of the C value, copied to and from parameters ('[': the pointer) */
	bool elem;           /* may be an array element */
	bool nullable;       /* may follow '?' */
	bool fd;             /* an fd: -1 when empty, and the parcel may take it */
	ffi_type *ffi;       /* as an input parameter ('[': the pointer; its count is a size_t) */
	int (*write)(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd);
	int (*read)(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own);
	/* Release what read() gave; NULL when there is nothing to release. */
	void (*release)(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds);
	/* Take the value from bc_call()'s variable arguments. */
	void (*from_va)(va_list *ap, union bc__val *v);
	/* Elements only: a whole array, and how to free what read_array gave. */
	int (*write_array)(bc_parcel *p, const void *v, size_t n);
	int (*read_array)(bc_parcel *p, void **ret, size_t *ret_n, bool own);
	void (*free_array)(void *v, size_t n, bool own);
};

static const struct sig_type sig_types[128];

/* The row of @c, or NULL when @c is not a type. */
static const struct sig_type *sig_type(char c)
{
	const struct sig_type *t;

	if ((unsigned char)c >= sizeof(sig_types) / sizeof(sig_types[0]))
		return NULL;
	t = &sig_types[(unsigned char)c];
	return t->write ? t : NULL;
}

/* ---- fixed-size values -------------------------------------------------- */

/* Value ops of a fixed-size type: bc_parcel_write_NAME/bc_parcel_read_NAME
 * on union member M of C type T, which variable arguments promote to P. */
#define SCALAR_OPS(NAME, M, T, P)                                                                           \
	static int write_##NAME(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd) \
	{                                                                                                    \
		(void)a, (void)give_fd;                                                                      \
		return bc_parcel_write_##NAME(p, v->M);                                                      \
	}                                                                                                    \
	static int read_##NAME(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)            \
	{                                                                                                    \
		(void)a, (void)own;                                                                          \
		return bc_parcel_read_##NAME(p, &v->M);                                                      \
	}                                                                                                    \
	static void va_##NAME(va_list *ap, union bc__val *v)                                                 \
	{                                                                                                    \
		v->M = (T)va_arg(*ap, P);                                                                    \
	}

/* Array ops of a fixed-size element type T (bc_parcel_*_NAME_array). */
#define ARRAY_OPS(NAME, T)                                                                  \
	static int write_##NAME##_array(bc_parcel *p, const void *v, size_t n)              \
	{                                                                                   \
		return bc_parcel_write_##NAME##_array(p, v, n);                             \
	}                                                                                   \
	static int read_##NAME##_array(bc_parcel *p, void **ret, size_t *ret_n, bool own) \
	{                                                                                   \
		T *v = NULL;                                                                \
		int r = bc_parcel_read_##NAME##_array(p, &v, ret_n);                        \
                                                                                            \
		(void)own;                                                                  \
		*ret = v;                                                                   \
		return r;                                                                   \
	}

SCALAR_OPS(int32, i, int32_t, int)
SCALAR_OPS(uint32, u, uint32_t, unsigned)
SCALAR_OPS(int64, x, int64_t, int64_t)
SCALAR_OPS(uint64, t, uint64_t, uint64_t)
SCALAR_OPS(bool, b, bool, int)
SCALAR_OPS(byte, y, int8_t, int)
SCALAR_OPS(char, c, uint16_t, int)
SCALAR_OPS(float, f, float, double)
SCALAR_OPS(double, d, double, double)

ARRAY_OPS(int32, int32_t)
ARRAY_OPS(uint32, uint32_t)
ARRAY_OPS(int64, int64_t)
ARRAY_OPS(uint64, uint64_t)
ARRAY_OPS(bool, bool)
ARRAY_OPS(char, uint16_t)
ARRAY_OPS(float, float)
ARRAY_OPS(double, double)

static void free_plain_array(void *v, size_t n, bool own)
{
	(void)n, (void)own;
	free(v);
}

/* byte[]: read in place (it stays in the parcel) unless @own asks for a
 * copy. */
static int read_byte_array(bc_parcel *p, void **ret, size_t *ret_n, bool own)
{
	const void *in = NULL;
	int r = bc_parcel_read_byte_array(p, &in, ret_n);

	*ret = NULL;
	if (r < 0 || !in)
		return r;
	if (!own) {
		*ret = (void *)in;
		return 0;
	}
	*ret = malloc(*ret_n ? *ret_n : 1);
	if (!*ret)
		return -ENOMEM;
	memcpy(*ret, in, *ret_n);
	return 0;
}

static void free_byte_array(void *v, size_t n, bool own)
{
	(void)n;
	if (own)
		free(v);
}

/* ---- strings ------------------------------------------------------------ */

static int write_string(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	(void)give_fd;
	if (!v->s && !a->nullable)
		return -EINVAL;
	return bc_parcel_write_string16(p, v->s);
}

static int read_string(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	int r = bc_parcel_read_string16(p, &v->ms, NULL);

	(void)own;
	if (r == 0 && !v->ms && !a->nullable)
		r = -EBADMSG;
	return r;
}

static void release_string(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds)
{
	(void)a, (void)own, (void)close_fds;
	free(v->ms);
}

static void va_string(va_list *ap, union bc__val *v)
{
	v->s = va_arg(*ap, const char *);
}

/* Strings inside a String[] are not nullable in AIDL, either way. */
static int write_string_array(bc_parcel *p, const void *v, size_t n)
{
	const char *const *sv = v;

	for (size_t k = 0; sv && k < n; k++)
		if (!sv[k])
			return -EINVAL;
	return bc_parcel_write_string16_array(p, sv, n);
}

static int read_string_array(bc_parcel *p, void **ret, size_t *ret_n, bool own)
{
	char **sv = NULL;
	int r = bc_parcel_read_string16_array(p, &sv, ret_n);

	(void)own;
	*ret = NULL;
	if (r < 0)
		return r;
	for (size_t k = 0; sv && k < *ret_n; k++) {
		if (!sv[k]) {
			bc_strv_free(sv, *ret_n);
			return -EBADMSG;
		}
	}
	*ret = sv;
	return 0;
}

static void free_string_array(void *v, size_t n, bool own)
{
	(void)own;
	bc_strv_free(v, n);
}

/* ---- binders ------------------------------------------------------------ */

static int write_binder(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	(void)give_fd;
	if (!v->o && !a->nullable)
		return -EINVAL;
	return bc_parcel_write_binder(p, v->o);
}

static int read_binder(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	int r = bc_parcel_read_binder(p, &v->o);

	(void)own;
	if (r == 0 && !v->o && !a->nullable)
		r = -EBADMSG;
	return r;
}

static void release_binder(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds)
{
	(void)a, (void)own, (void)close_fds;
	bc_binder_unref(v->o);
}

static void va_binder(va_list *ap, union bc__val *v)
{
	v->o = va_arg(*ap, bc_binder *);
}

/* ---- file descriptors --------------------------------------------------- */

static int write_fd(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	(void)a;
	if (v->h < 0)
		return -EINVAL;
	return bc_parcel_write_fd(p, v->h, give_fd);
}

/* An fd object: in place (the parcel keeps it) or dup'ed when @own. */
static int read_fd_object(bc_parcel *p, int *fd, bool own)
{
	int r = own ? bc_parcel_read_dup_fd(p, fd) : bc_parcel_read_fd(p, fd);

	if (r < 0)
		*fd = -1;
	return r;
}

static int read_fd(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	(void)a;
	return read_fd_object(p, &v->h, own);
}

/* ParcelFileDescriptor as AIDL writes it: int32 1 (not null), int32 0 (no
 * comm fd), fd object; null: int32 0. */
static int write_pfd(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	int r;

	if (v->h < 0)
		return a->nullable && v->h == -1 ? bc_parcel_write_int32(p, 0) : -EINVAL;
	r = bc_parcel_write_int32(p, 1);
	if (r == 0)
		r = bc_parcel_write_int32(p, 0);
	if (r == 0)
		r = bc_parcel_write_fd(p, v->h, give_fd);
	return r; /* on failure the caller drops the parcel */
}

static int read_pfd(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	int32_t present, has_comm;
	int r = bc_parcel_read_int32(p, &present);

	if (r < 0)
		return r;
	if (!present)
		return a->nullable ? 0 : -EBADMSG;
	r = bc_parcel_read_int32(p, &has_comm);
	if (r == 0)
		r = read_fd_object(p, &v->h, own);
	if (r < 0 || !has_comm)
		return r;
	/* the comm fd (a detached-signal channel) is skipped */
	r = bc_parcel_read_fd(p, NULL);
	if (r < 0) {
		if (own)
			close(v->h);
		v->h = -1;
	}
	return r;
}

static void release_fd(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds)
{
	(void)a;
	if (own && close_fds && v->h >= 0)
		close(v->h);
}

static void va_fd(va_list *ap, union bc__val *v)
{
	v->h = va_arg(*ap, int);
}

/* ---- arrays: a pointer and a count, elements as their own row says ------ */

static int write_array(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	static const uint64_t dummy; /* a non-NULL pointer for empty arrays */
	const void *ptr = v[0].cp;
	size_t n = v[1].n;

	(void)give_fd;
	if (!ptr) {
		if (n)
			return -EINVAL;
		if (!a->nullable)
			ptr = &dummy; /* (NULL, 0): the empty array */
	}
	if (n > INT32_MAX)
		return -EINVAL;
	return sig_type(a->elem)->write_array(p, ptr, n);
}

static int read_array(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	void *ptr = NULL;
	size_t n = 0;
	int r = sig_type(a->elem)->read_array(p, &ptr, &n, own);

	if (r < 0)
		return r;
	if (!ptr && !a->nullable)
		return -EBADMSG;
	v[0].p = ptr;
	v[1].n = n;
	return 0;
}

static void release_array(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds)
{
	(void)close_fds;
	sig_type(a->elem)->free_array(v[0].p, v[1].n, own);
}

static void va_array(va_list *ap, union bc__val *v)
{
	v[0].cp = va_arg(*ap, const void *);
	v[1].n = va_arg(*ap, size_t);
}

/* ---- the table ---------------------------------------------------------- */

#define SCALAR(NAME, T, FFI)                                                                                  \
	{ .csize = sizeof(T), .elem = true, .ffi = &FFI, .write = write_##NAME, .read = read_##NAME,          \
	  .from_va = va_##NAME, .write_array = write_##NAME##_array, .read_array = read_##NAME##_array, \
	  .free_array = free_plain_array }

static const struct sig_type sig_types[128] = {
	['i'] = SCALAR(int32, int32_t, ffi_type_sint32),
	['u'] = SCALAR(uint32, uint32_t, ffi_type_uint32),
	['x'] = SCALAR(int64, int64_t, ffi_type_sint64),
	['t'] = SCALAR(uint64, uint64_t, ffi_type_uint64),
	['b'] = SCALAR(bool, bool, ffi_type_uint8),
	['c'] = SCALAR(char, uint16_t, ffi_type_uint16),
	['f'] = SCALAR(float, float, ffi_type_float),
	['d'] = SCALAR(double, double, ffi_type_double),
	/* byte[] is a byte array on the wire, not an array of int32 bytes */
	['y'] = { .csize = sizeof(int8_t), .elem = true, .ffi = &ffi_type_sint8, .write = write_byte,
		  .read = read_byte, .from_va = va_byte, .write_array = bc_parcel_write_byte_array,
		  .read_array = read_byte_array, .free_array = free_byte_array },
	['s'] = { .csize = sizeof(char *), .elem = true, .nullable = true, .ffi = &ffi_type_pointer,
		  .write = write_string, .read = read_string, .release = release_string, .from_va = va_string,
		  .write_array = write_string_array, .read_array = read_string_array,
		  .free_array = free_string_array },
	['o'] = { .csize = sizeof(bc_binder *), .nullable = true, .ffi = &ffi_type_pointer, .write = write_binder,
		  .read = read_binder, .release = release_binder, .from_va = va_binder },
	['h'] = { .csize = sizeof(int), .fd = true, .ffi = &ffi_type_sint, .write = write_fd, .read = read_fd,
		  .release = release_fd, .from_va = va_fd },
	['H'] = { .csize = sizeof(int), .nullable = true, .fd = true, .ffi = &ffi_type_sint, .write = write_pfd,
		  .read = read_pfd, .release = release_fd, .from_va = va_fd },
	['['] = { .csize = sizeof(void *), .nullable = true, .ffi = &ffi_type_pointer, .write = write_array,
		  .read = read_array, .release = release_array, .from_va = va_array },
};

/* ---- parsing ------------------------------------------------------------ */

int bc__sig_parse(const char *sig, struct bc__arg **ret_args, size_t *ret_n, size_t *ret_bad, const char **ret_why)
{
	struct bc__arg *args = NULL;
	size_t len, n = 0, i = 0, bad = 0;
	const char *why = NULL;

	if (!sig)
		sig = "";
	len = strlen(sig);
	if (len) {
		args = calloc(len, sizeof(*args));
		if (!args)
			return -ENOMEM;
	}
	while (i < len) {
		struct bc__arg a = { 0, 0, false };
		const struct sig_type *t;

		if (sig[i] == '?') {
			a.nullable = true;
			i++;
			if (i == len) {
				bad = i, why = "'?' without a type";
				goto fail;
			}
			t = sig_type(sig[i]);
			if (!t || !t->nullable) {
				bad = i, why = sig[i] == '?' ? "repeated '?'" : "type cannot be nullable";
				goto fail;
			}
		}
		a.type = sig[i];
		if (a.type == '[') {
			i++;
			if (i == len) {
				bad = i, why = "'[' without an element type";
				goto fail;
			}
			t = sig_type(sig[i]);
			if (!t || !t->elem) {
				bad = i, why = sig[i] == '[' ? "nested array" : "bad array element type";
				goto fail;
			}
			a.elem = sig[i];
		} else if (!sig_type(a.type)) {
			bad = i, why = "unknown type";
			goto fail;
		}
		i++;
		args[n++] = a;
	}
	*ret_args = args;
	*ret_n = n;
	return 0;
fail:
	free(args);
	if (ret_bad)
		*ret_bad = bad;
	if (ret_why)
		*ret_why = why;
	return -EINVAL;
}

int bc_iface_sig_check(const char *sig, size_t *ret_bad)
{
	struct bc__arg *args;
	size_t n, k, width = 0;
	int r;

	r = bc__sig_parse(sig, &args, &n, ret_bad, NULL);
	if (r < 0)
		return r;
	for (k = 0; k < n; k++)
		width += bc__arg_width(&args[k]);
	free(args);
	if (width > BINDERC_IFACE_MAX_PARAMS) {
		if (ret_bad)
			*ret_bad = strlen(sig);
		return -EINVAL;
	}
	return (int)width;
}

/* ---- values ------------------------------------------------------------- */

void bc__arg_ffi_types(const struct bc__arg *a, bool out, ffi_type **types)
{
	/* Outputs are pointers; an input array is (pointer, size_t count). */
	types[0] = out ? &ffi_type_pointer : sig_type(a->type)->ffi;
	if (bc__arg_width(a) == 2)
		types[1] = out ? &ffi_type_pointer : sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32;
}

bool bc__arg_is_fd(const struct bc__arg *a)
{
	return sig_type(a->type)->fd;
}

void bc__val_init(const struct bc__arg *a, union bc__val *v)
{
	memset(v, 0, bc__arg_width(a) * sizeof(*v));
	if (bc__arg_is_fd(a))
		v->h = -1;
}

int bc__val_write(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	return sig_type(a->type)->write(p, a, v, give_fd);
}

int bc__val_read(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	bc__val_init(a, v);
	return sig_type(a->type)->read(p, a, v, own);
}

void bc__val_free(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds)
{
	const struct sig_type *t = sig_type(a->type);

	if (t->release)
		t->release(a, v, own, close_fds);
	bc__val_init(a, v);
}

/* ---- C parameters -------------------------------------------------------
 * Every member of union bc__val starts at its first byte, so a value of
 * csize bytes is copied as it is; an array's count is the second value. */

/* memcpy() of one value; the sizes spelt out turn it into one load and
 * store, where a variable size would be a library call per argument. */
static void copy_value(void *dst, const void *src, size_t size)
{
	switch (size) {
	case 1:
		memcpy(dst, src, 1);
		break;
	case 2:
		memcpy(dst, src, 2);
		break;
	case 4:
		memcpy(dst, src, 4);
		break;
	case 8:
		memcpy(dst, src, 8);
		break;
	default:
		memcpy(dst, src, size);
		break;
	}
}

void bc__val_load(const struct bc__arg *a, void *const *src, union bc__val *v)
{
	copy_value(&v[0], src[0], sig_type(a->type)->csize);
	if (bc__arg_width(a) == 2)
		memcpy(&v[1].n, src[1], sizeof(v[1].n));
}

void bc__val_store(const struct bc__arg *a, union bc__val *v, void *const *dst)
{
	if (!dst[0]) {
		bc__val_free(a, v, true, true);
		return;
	}
	copy_value(dst[0], &v[0], sig_type(a->type)->csize);
	if (bc__arg_width(a) == 2 && dst[1])
		memcpy(dst[1], &v[1].n, sizeof(v[1].n));
	bc__val_init(a, v); /* ownership moved to the caller */
}

void bc__val_from_va(const struct bc__arg *a, va_list *ap, union bc__val *v)
{
	sig_type(a->type)->from_va(ap, v);
}
