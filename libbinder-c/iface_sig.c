// SPDX-License-Identifier: MIT
/*
 * Signatures: parsing the mini-language of binderc/iface.h and moving one
 * value of each type between C and a parcel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iface_internal.h"

_Static_assert(sizeof(bool) == 1, "bool is passed to libffi as uint8");

static bool is_scalar(char c)
{
	return c && strchr("iuxtbycfd", c);
}

static bool is_elem(char c)
{
	return c && strchr("iuxtbycfds", c);
}

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

		if (sig[i] == '?') {
			a.nullable = true;
			i++;
			if (i == len) {
				bad = i, why = "'?' without a type";
				goto fail;
			}
			if (sig[i] != 's' && sig[i] != 'o' && sig[i] != 'H' && sig[i] != '[') {
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
			if (!is_elem(sig[i])) {
				bad = i, why = sig[i] == '[' ? "nested array" : "bad array element type";
				goto fail;
			}
			a.elem = sig[i];
		} else if (!is_scalar(a.type) && a.type != 's' && a.type != 'o' && a.type != 'h' &&
			   a.type != 'H') {
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

static ffi_type *ffi_size_t(void)
{
	return sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32;
}

static ffi_type *scalar_ffi(char c)
{
	switch (c) {
	case 'i':
		return &ffi_type_sint32;
	case 'u':
		return &ffi_type_uint32;
	case 'x':
		return &ffi_type_sint64;
	case 't':
		return &ffi_type_uint64;
	case 'b':
		return &ffi_type_uint8;
	case 'y':
		return &ffi_type_sint8;
	case 'c':
		return &ffi_type_uint16;
	case 'f':
		return &ffi_type_float;
	case 'd':
		return &ffi_type_double;
	case 'h':
	case 'H':
		return &ffi_type_sint;
	default: /* s, o */
		return &ffi_type_pointer;
	}
}

void bc__arg_ffi_types(const struct bc__arg *a, bool out, ffi_type **types)
{
	if (out) {
		types[0] = &ffi_type_pointer;
		if (a->type == '[')
			types[1] = &ffi_type_pointer;
		return;
	}
	if (a->type == '[') {
		types[0] = &ffi_type_pointer;
		types[1] = ffi_size_t();
		return;
	}
	types[0] = scalar_ffi(a->type);
}

void bc__val_init(const struct bc__arg *a, union bc__val *v)
{
	memset(v, 0, bc__arg_width(a) * sizeof(*v));
	if (a->type == 'h' || a->type == 'H')
		v->h = -1;
}

/* ---- writing ------------------------------------------------------------ */

static int write_array(bc_parcel *p, const struct bc__arg *a, const void *ptr, size_t n)
{
	static const uint64_t dummy; /* a non-NULL pointer for empty arrays */

	if (!ptr) {
		if (n)
			return -EINVAL;
		if (!a->nullable)
			ptr = &dummy; /* (NULL, 0): the empty array */
	}
	if (n > INT32_MAX)
		return -EINVAL;
	switch (a->elem) {
	case 'i':
		return bc_parcel_write_int32_array(p, ptr, n);
	case 'u':
		return bc_parcel_write_uint32_array(p, ptr, n);
	case 'x':
		return bc_parcel_write_int64_array(p, ptr, n);
	case 't':
		return bc_parcel_write_uint64_array(p, ptr, n);
	case 'b':
		return bc_parcel_write_bool_array(p, ptr, n);
	case 'y':
		return bc_parcel_write_byte_array(p, ptr, n);
	case 'c':
		return bc_parcel_write_char_array(p, ptr, n);
	case 'f':
		return bc_parcel_write_float_array(p, ptr, n);
	case 'd':
		return bc_parcel_write_double_array(p, ptr, n);
	case 's': {
		const char *const *sv = ptr;

		/* strings inside a String[] are not nullable in AIDL */
		for (size_t k = 0; sv && k < n; k++)
			if (!sv[k])
				return -EINVAL;
		return bc_parcel_write_string16_array(p, ptr, n);
	}
	}
	return -EINVAL;
}

/* ParcelFileDescriptor as AIDL writes it: int32 1 (not null), int32 0 (no
 * comm fd), fd object; null: int32 0. */
static int write_pfd(bc_parcel *p, const struct bc__arg *a, int fd, bool give_fd)
{
	int r;

	if (fd < 0)
		return a->nullable && fd == -1 ? bc_parcel_write_int32(p, 0) : -EINVAL;
	r = bc_parcel_write_int32(p, 1);
	if (r == 0)
		r = bc_parcel_write_int32(p, 0);
	if (r == 0)
		r = bc_parcel_write_fd(p, fd, give_fd);
	return r; /* on failure the caller drops the parcel */
}

int bc__val_write(bc_parcel *p, const struct bc__arg *a, const union bc__val *v, bool give_fd)
{
	switch (a->type) {
	case 'i':
		return bc_parcel_write_int32(p, v->i);
	case 'u':
		return bc_parcel_write_uint32(p, v->u);
	case 'x':
		return bc_parcel_write_int64(p, v->x);
	case 't':
		return bc_parcel_write_uint64(p, v->t);
	case 'b':
		return bc_parcel_write_bool(p, v->b);
	case 'y':
		return bc_parcel_write_byte(p, v->y);
	case 'c':
		return bc_parcel_write_char(p, v->c);
	case 'f':
		return bc_parcel_write_float(p, v->f);
	case 'd':
		return bc_parcel_write_double(p, v->d);
	case 's':
		if (!v->s && !a->nullable)
			return -EINVAL;
		return bc_parcel_write_string16(p, v->s);
	case 'o':
		if (!v->o && !a->nullable)
			return -EINVAL;
		return bc_parcel_write_binder(p, v->o);
	case 'h':
		if (v->h < 0)
			return -EINVAL;
		return bc_parcel_write_fd(p, v->h, give_fd);
	case 'H':
		return write_pfd(p, a, v->h, give_fd);
	case '[':
		return write_array(p, a, v[0].cp, v[1].n);
	}
	return -EINVAL;
}

/* ---- reading ------------------------------------------------------------ */

static int read_array(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	void *ptr = NULL;
	size_t n = 0;
	int r;

	switch (a->elem) {
	case 'i':
		r = bc_parcel_read_int32_array(p, (int32_t **)&ptr, &n);
		break;
	case 'u':
		r = bc_parcel_read_uint32_array(p, (uint32_t **)&ptr, &n);
		break;
	case 'x':
		r = bc_parcel_read_int64_array(p, (int64_t **)&ptr, &n);
		break;
	case 't':
		r = bc_parcel_read_uint64_array(p, (uint64_t **)&ptr, &n);
		break;
	case 'b':
		r = bc_parcel_read_bool_array(p, (bool **)&ptr, &n);
		break;
	case 'c':
		r = bc_parcel_read_char_array(p, (uint16_t **)&ptr, &n);
		break;
	case 'f':
		r = bc_parcel_read_float_array(p, (float **)&ptr, &n);
		break;
	case 'd':
		r = bc_parcel_read_double_array(p, (double **)&ptr, &n);
		break;
	case 's':
		r = bc_parcel_read_string16_array(p, (char ***)&ptr, &n);
		if (r == 0 && ptr) {
			char **sv = ptr;

			for (size_t k = 0; k < n; k++) {
				if (!sv[k]) {
					bc_strv_free(sv, n);
					return -EBADMSG;
				}
			}
		}
		break;
	case 'y': {
		const void *in = NULL;

		r = bc_parcel_read_byte_array(p, &in, &n);
		if (r < 0 || !in)
			break;
		if (!own) {
			ptr = (void *)in;
			break;
		}
		ptr = malloc(n ? n : 1);
		if (!ptr)
			return -ENOMEM;
		memcpy(ptr, in, n);
		break;
	}
	default:
		return -EINVAL;
	}
	if (r < 0)
		return r;
	if (!ptr && !a->nullable)
		return -EBADMSG;
	v[0].p = ptr;
	v[1].n = n;
	return 0;
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
	if (r < 0)
		return r;
	r = own ? bc_parcel_read_dup_fd(p, &v->h) : bc_parcel_read_fd(p, &v->h);
	if (r < 0) {
		v->h = -1;
		return r;
	}
	if (has_comm) {
		/* the comm fd (a detached-signal channel) is skipped */
		r = bc_parcel_read_fd(p, NULL);
		if (r < 0) {
			if (own)
				close(v->h);
			v->h = -1;
		}
	}
	return r;
}

int bc__val_read(bc_parcel *p, const struct bc__arg *a, union bc__val *v, bool own)
{
	int r;

	bc__val_init(a, v);
	switch (a->type) {
	case 'i':
		return bc_parcel_read_int32(p, &v->i);
	case 'u':
		return bc_parcel_read_uint32(p, &v->u);
	case 'x':
		return bc_parcel_read_int64(p, &v->x);
	case 't':
		return bc_parcel_read_uint64(p, &v->t);
	case 'b':
		return bc_parcel_read_bool(p, &v->b);
	case 'y':
		return bc_parcel_read_byte(p, &v->y);
	case 'c':
		return bc_parcel_read_char(p, &v->c);
	case 'f':
		return bc_parcel_read_float(p, &v->f);
	case 'd':
		return bc_parcel_read_double(p, &v->d);
	case 's':
		r = bc_parcel_read_string16(p, &v->ms, NULL);
		if (r == 0 && !v->ms && !a->nullable)
			r = -EBADMSG;
		return r;
	case 'o':
		r = bc_parcel_read_binder(p, &v->o);
		if (r == 0 && !v->o && !a->nullable)
			r = -EBADMSG;
		return r;
	case 'h':
		r = own ? bc_parcel_read_dup_fd(p, &v->h) : bc_parcel_read_fd(p, &v->h);
		if (r < 0)
			v->h = -1;
		return r;
	case 'H':
		return read_pfd(p, a, v, own);
	case '[':
		return read_array(p, a, v, own);
	}
	return -EINVAL;
}

void bc__val_free(const struct bc__arg *a, union bc__val *v, bool own, bool close_fds)
{
	switch (a->type) {
	case 's':
		free(v->ms);
		break;
	case 'o':
		bc_binder_unref(v->o);
		break;
	case 'h':
	case 'H':
		if (own && close_fds && v->h >= 0)
			close(v->h);
		break;
	case '[':
		if (a->elem == 's')
			bc_strv_free(v[0].p, v[1].n);
		else if (a->elem != 'y' || own)
			free(v[0].p);
		break;
	}
	bc__val_init(a, v);
}

/* ---- C parameters ----------------------------------------------------- */

void bc__val_load(const struct bc__arg *a, void *const *src, union bc__val *v)
{
	switch (a->type) {
	case 'i':
		v->i = *(const int32_t *)src[0];
		break;
	case 'u':
		v->u = *(const uint32_t *)src[0];
		break;
	case 'x':
		v->x = *(const int64_t *)src[0];
		break;
	case 't':
		v->t = *(const uint64_t *)src[0];
		break;
	case 'b':
		v->b = *(const bool *)src[0];
		break;
	case 'y':
		v->y = *(const int8_t *)src[0];
		break;
	case 'c':
		v->c = *(const uint16_t *)src[0];
		break;
	case 'f':
		v->f = *(const float *)src[0];
		break;
	case 'd':
		v->d = *(const double *)src[0];
		break;
	case 's':
		v->s = *(const char *const *)src[0];
		break;
	case 'o':
		v->o = *(bc_binder *const *)src[0];
		break;
	case 'h':
	case 'H':
		v->h = *(const int *)src[0];
		break;
	case '[':
		v[0].cp = *(const void *const *)src[0];
		v[1].n = *(const size_t *)src[1];
		break;
	}
}

void bc__val_store(const struct bc__arg *a, union bc__val *v, void *const *dst)
{
	void *d = dst[0];

	if (!d) {
		bc__val_free(a, v, true, true);
		return;
	}
	switch (a->type) {
	case 'i':
		*(int32_t *)d = v->i;
		break;
	case 'u':
		*(uint32_t *)d = v->u;
		break;
	case 'x':
		*(int64_t *)d = v->x;
		break;
	case 't':
		*(uint64_t *)d = v->t;
		break;
	case 'b':
		*(bool *)d = v->b;
		break;
	case 'y':
		*(int8_t *)d = v->y;
		break;
	case 'c':
		*(uint16_t *)d = v->c;
		break;
	case 'f':
		*(float *)d = v->f;
		break;
	case 'd':
		*(double *)d = v->d;
		break;
	case 's':
		*(char **)d = v->ms;
		break;
	case 'o':
		*(bc_binder **)d = v->o;
		break;
	case 'h':
	case 'H':
		*(int *)d = v->h;
		break;
	case '[':
		*(void **)d = v[0].p;
		if (dst[1])
			*(size_t *)dst[1] = v[1].n;
		break;
	}
	bc__val_init(a, v); /* ownership moved to the caller */
}
