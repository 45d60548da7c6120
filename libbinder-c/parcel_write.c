/* SPDX-License-Identifier: MIT */
/* Writing parcels: values, strings, typed arrays, parcelables, interface
 * tokens and status headers (objects: parcel_objects.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parcel_internal.h"

/* grow_min() for a sensitive parcel's data: realloc() would leave the old
 * copy in the heap, so copy it and clear it ourselves. */
static int grow_sensitive(bc_parcel *p, size_t need)
{
	void *nb = NULL;
	size_t cap = 0;
	int r;

	if (need <= p->cap)
		return 0;
	r = grow_min(&nb, &cap, need > p->cap * 2 ? need : p->cap * 2, 1, 128);
	if (r < 0)
		return r;
	if (p->size)
		memcpy(nb, p->data, p->size);
	bc__wipe(p->data, p->cap);
	free(p->data);
	p->data = nb;
	p->cap = cap;
	return 0;
}

/* Reserve @len bytes (padded to 4, zeroed padding) at the end. */
static int reserve(bc_parcel *p, size_t len, uint8_t **ret)
{
	size_t padded;
	int r;

	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	if (len > MAX_LEN || p->size + PAD4(len) > MAX_LEN)
		return -ENOMEM;
	padded = PAD4(len);
	/* A typical call's data (interface token, a few values) fits the
	 * first allocation. */
	if (p->flags & BINDERC_PARCEL_SENSITIVE)
		r = grow_sensitive(p, p->size + padded);
	else
		r = grow_min((void **)&p->data, &p->cap, p->size + padded, 1, 128);
	if (r < 0)
		return r;
	/* nothing to write into a parcel with no buffer yet: no pointer
	 * arithmetic on NULL, no memset(NULL, 0, 0) (UBSan's nonnull) */
	*ret = p->data ? p->data + p->size : NULL;
	if (padded > len)
		memset(*ret + len, 0, padded - len);
	p->size += padded;
	return 0;
}

static int put(bc_parcel *p, const void *v, size_t len)
{
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	r = reserve(p, len, &d);
	if (r == 0 && len)
		memcpy(d, v, len);
	return r;
}

int bc_parcel_write_int32(bc_parcel *p, int32_t v) { return put(p, &v, 4); }
int bc_parcel_write_uint32(bc_parcel *p, uint32_t v) { return put(p, &v, 4); }
int bc_parcel_write_int64(bc_parcel *p, int64_t v) { return put(p, &v, 8); }
int bc_parcel_write_uint64(bc_parcel *p, uint64_t v) { return put(p, &v, 8); }
int bc_parcel_write_bool(bc_parcel *p, bool v) { return bc_parcel_write_int32(p, v ? 1 : 0); }
int bc_parcel_write_char(bc_parcel *p, uint16_t v) { return bc_parcel_write_int32(p, v); }
int bc_parcel_write_byte(bc_parcel *p, int8_t v) { return bc_parcel_write_int32(p, v); }
int bc_parcel_write_float(bc_parcel *p, float v) { return put(p, &v, 4); }
int bc_parcel_write_double(bc_parcel *p, double v) { return put(p, &v, 8); }

int bc_parcel_write_raw(bc_parcel *p, const void *data, size_t len)
{
	if (len && !data)
		return -EINVAL;
	return put(p, data, len);
}

/* A counted item: the int32 @count, then room for @len bytes at *@ret
 * (padded).  On failure nothing of it is left written. */
static int put_counted(bc_parcel *p, size_t count, size_t len, uint8_t **ret)
{
	size_t start = p->size;
	int r = bc_parcel_write_int32(p, (int32_t)count);

	if (r == 0)
		r = reserve(p, len, ret);
	if (r < 0)
		truncate_to(p, start);
	return r;
}

int bc_parcel_write_string16_utf16(bc_parcel *p, const uint16_t *s, size_t len)
{
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!s)
		return bc_parcel_write_int32(p, -1);
	if (len >= MAX_LEN / 2)
		return -EINVAL;
	r = put_counted(p, len, (len + 1) * 2, &d);
	if (r < 0)
		return r;
	memcpy(d, s, len * 2);
	memset(d + len * 2, 0, 2);
	return 0;
}

/* Write ASCII @s as String16 units in one pass; false (and nothing
 * written) at the first byte outside ASCII. */
static bool put_ascii16(bc_parcel *p, const char *s, size_t len, int *ret)
{
	size_t start = p->size;
	uint8_t *d;
	int r = put_counted(p, len, (len + 1) * 2, &d);

	if (r < 0) {
		*ret = r;
		return true;
	}
	for (size_t i = 0; i < len; i++) {
		uint16_t u = (unsigned char)s[i];

		if (u >= 0x80) {
			truncate_to(p, start);
			return false;
		}
		memcpy(d + i * 2, &u, 2);
	}
	memset(d + len * 2, 0, 2);
	*ret = 0;
	return true;
}

int bc_parcel_write_string16_len(bc_parcel *p, const char *utf8, size_t len)
{
	uint16_t stack[64], *tmp;
	ssize_t n;
	size_t start;
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!utf8)
		return bc_parcel_write_int32(p, -1);
	if (len >= MAX_LEN / 2)
		return -EINVAL;
	/* ASCII (descriptors, most names) is one unit a byte: no counting pass. */
	if (put_ascii16(p, utf8, len, &r))
		return r;
	n = bc__utf8_to_utf16(utf8, len, NULL);
	if (n < 0)
		return (int)n;
	start = p->size;
	r = put_counted(p, (size_t)n, ((size_t)n + 1) * 2, &d);
	if (r < 0)
		return r;
	/* d may be unaligned for uint16_t in theory; convert via a temp. */
	tmp = (size_t)n < sizeof(stack) / sizeof(stack[0]) ? stack : malloc(((size_t)n + 1) * 2);
	if (!tmp) {
		truncate_to(p, start);
		return -ENOMEM;
	}
	bc__utf8_to_utf16(utf8, len, tmp);
	tmp[n] = 0;
	memcpy(d, tmp, ((size_t)n + 1) * 2);
	if (tmp != stack)
		free(tmp);
	return 0;
}

int bc_parcel_write_string16(bc_parcel *p, const char *utf8)
{
	return bc_parcel_write_string16_len(p, utf8, utf8 ? strlen(utf8) : 0);
}

/* A length-prefixed run of @len bytes of @data and @nul (0 or 1)
 * terminating zero bytes; a null @data is length -1.  What read_counted()
 * reads. */
static int write_counted(bc_parcel *p, const void *data, size_t len, size_t nul)
{
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!data)
		return bc_parcel_write_int32(p, -1);
	if (len > MAX_LEN - nul)
		return -EINVAL;
	r = put_counted(p, len, len + nul, &d);
	if (r < 0)
		return r;
	if (len)
		memcpy(d, data, len);
	if (nul)
		d[len] = 0;
	return 0;
}

int bc_parcel_write_string8_len(bc_parcel *p, const char *s, size_t len)
{
	return write_counted(p, s, len, 1);
}

int bc_parcel_write_string8(bc_parcel *p, const char *s)
{
	return bc_parcel_write_string8_len(p, s, s ? strlen(s) : 0);
}

int bc_parcel_write_byte_array(bc_parcel *p, const void *data, size_t len)
{
	return write_counted(p, data, len, 0);
}

/* ---- typed arrays ------------------------------------------------------- */

/* An array's count: -1 for a null @v (returns 1: nothing follows), else
 * @n; *@start is where the array began, for truncate_to() on failure. */
static int write_array_count(bc_parcel *p, const void *v, size_t n, size_t *start)
{
	int r;

	if (!p)
		return -EINVAL;
	*start = p->size;
	if (!v) {
		r = bc_parcel_write_int32(p, -1);
		return r < 0 ? r : 1;
	}
	if (n > MAX_LEN / 8)
		return -EINVAL;
	return bc_parcel_write_int32(p, (int32_t)n);
}

/* Count, then the @n elements of @v (@csize bytes each in memory). */
static int write_array(bc_parcel *p, const void *v, size_t n, size_t csize, enum elem_kind kind)
{
	size_t start = 0, wsize = elem_wire_size(kind, csize);
	uint8_t *d;
	int r = write_array_count(p, v, n, &start);

	if (r == 1)
		return 0;
	if (r == 0)
		r = reserve(p, n * wsize, &d);
	if (r < 0) {
		truncate_to(p, start);
		return r;
	}
	if (kind == ELEM_RAW) {
		if (n)
			memcpy(d, v, n * wsize);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int32_t w = kind == ELEM_BOOL ? (((const bool *)v)[i] ? 1 : 0) : ((const uint16_t *)v)[i];

		memcpy(d + i * 4, &w, 4);
	}
	return 0;
}

#define WRITE_ARRAY(name, T, kind)                                              \
	int bc_parcel_write_##name##_array(bc_parcel *p, const T *v, size_t n) \
	{                                                                      \
		return write_array(p, v, n, sizeof(T), kind);                  \
	}

WRITE_ARRAY(int32, int32_t, ELEM_RAW)
WRITE_ARRAY(uint32, uint32_t, ELEM_RAW)
WRITE_ARRAY(int64, int64_t, ELEM_RAW)
WRITE_ARRAY(uint64, uint64_t, ELEM_RAW)
WRITE_ARRAY(float, float, ELEM_RAW)
WRITE_ARRAY(double, double, ELEM_RAW)
WRITE_ARRAY(bool, bool, ELEM_BOOL)
WRITE_ARRAY(char, uint16_t, ELEM_CHAR)

int bc_parcel_write_string16_array(bc_parcel *p, const char *const *v, size_t n)
{
	size_t start = 0;
	int r = write_array_count(p, v, n, &start);

	if (r == 1)
		return 0;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = bc_parcel_write_string16(p, v[i]);
	if (r < 0)
		truncate_to(p, start);
	return r;
}

int bc_parcel_begin_parcelable(bc_parcel *p, size_t *ret_token)
{
	size_t start;
	int r;

	if (!p || !ret_token)
		return -EINVAL;
	start = p->size;
	r = bc_parcel_write_int32(p, 0);
	if (r == 0)
		*ret_token = start;
	return r;
}

int bc_parcel_end_parcelable(bc_parcel *p, size_t token)
{
	int32_t size;

	if (!p || token > p->size || p->size - token < 4 || (token & 3))
		return -EINVAL;
	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	size = (int32_t)(p->size - token);
	memcpy(p->data + token, &size, 4);
	return 0;
}

int bc_parcel_write_interface_token(bc_parcel *p, const char *descriptor)
{
	size_t start;
	int r;

	if (!p || !descriptor)
		return -EINVAL;
	/* RPC parcels: the descriptor alone (Parcel::writeInterfaceToken) */
	if (p->rpc)
		return bc_parcel_write_string16(p, descriptor);
	start = p->size;
	r = bc_parcel_write_uint32(p, p->proto->policy);
	if (r == 0 && p->proto->work_source)
		r = bc_parcel_write_int32(p, -1);
	if (r == 0 && p->proto->partition_header)
		r = bc_parcel_write_uint32(p, partition_header(p));
	if (r == 0)
		r = bc_parcel_write_string16(p, descriptor);
	if (r < 0 && !(p->flags & BINDERC_PARCEL_READONLY))
		truncate_to(p, start);
	return r;
}

int bc_parcel_write_status(bc_parcel *p, const bc_status *st)
{
	size_t start;
	int r;

	if (!p)
		return -EINVAL;
	if (!st || st->exception == BINDERC_EX_NONE)
		return bc_parcel_write_int32(p, BINDERC_EX_NONE);
	start = p->size;
	r = bc_parcel_write_int32(p, st->exception);
	if (r == 0)
		r = bc_parcel_write_string16(p, st->message ? st->message : "");
	if (r == 0)
		r = bc_parcel_write_int32(p, 0);
	if (r == 0 && st->exception == BINDERC_EX_SERVICE_SPECIFIC)
		r = bc_parcel_write_int32(p, st->service_error);
	if (r < 0 && !(p->flags & BINDERC_PARCEL_READONLY))
		truncate_to(p, start);
	return r;
}
