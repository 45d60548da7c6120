/* SPDX-License-Identifier: MIT */
/* Reading parcels: every read is bounds-checked and may not cross an
 * object; on error the position is left where it was. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parcel_internal.h"

/* Check that [pos, pos+len) is inside the data and holds no object. */
static int check_plain(const bc_parcel *p, size_t pos, size_t len)
{
	size_t i;

	if (pos > p->size || len > p->size - pos)
		return -ENODATA;
	if (len == 0)
		return 0;
	i = first_obj_after(p, pos);
	if (i < p->n_offs && p->offs[i] < pos + len)
		return -EBADMSG;
	return 0;
}

/* Plain read of @len bytes (padded) at the position; advances. */
static int take(bc_parcel *p, size_t len, const uint8_t **ret)
{
	size_t padded;
	int r;

	if (!p)
		return -EINVAL;
	if (len > MAX_LEN)
		return -ENODATA;
	padded = PAD4(len);
	r = check_plain(p, p->pos, padded);
	if (r < 0)
		return r;
	*ret = p->data + p->pos;
	p->pos += padded;
	return 0;
}

static int get(bc_parcel *p, void *out, size_t len)
{
	const uint8_t *d;
	int r = take(p, len, &d);

	if (r < 0)
		return r;
	if (out)
		memcpy(out, d, len);
	return 0;
}

int bc_parcel_read_int32(bc_parcel *p, int32_t *ret) { return get(p, ret, 4); }
int bc_parcel_read_uint32(bc_parcel *p, uint32_t *ret) { return get(p, ret, 4); }
int bc_parcel_read_int64(bc_parcel *p, int64_t *ret) { return get(p, ret, 8); }
int bc_parcel_read_uint64(bc_parcel *p, uint64_t *ret) { return get(p, ret, 8); }
int bc_parcel_read_float(bc_parcel *p, float *ret) { return get(p, ret, 4); }
int bc_parcel_read_double(bc_parcel *p, double *ret) { return get(p, ret, 8); }

int bc_parcel_read_bool(bc_parcel *p, bool *ret)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r == 0 && ret)
		*ret = v != 0;
	return r;
}

int bc_parcel_read_char(bc_parcel *p, uint16_t *ret)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r == 0 && ret)
		*ret = (uint16_t)v;
	return r;
}

int bc_parcel_read_byte(bc_parcel *p, int8_t *ret)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r == 0 && ret)
		*ret = (int8_t)v;
	return r;
}

int bc_parcel_read_raw(bc_parcel *p, size_t len, const void **ret)
{
	const uint8_t *d;
	int r = take(p, len, &d);

	if (r == 0 && ret)
		*ret = d;
	return r;
}

/* Read a length prefix: -1 = null (returns 1), else 0 with *n. */
static int read_len(bc_parcel *p, size_t *n)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r < 0)
		return r;
	if (v == -1)
		return 1;
	if (v < 0) {
		p->pos -= 4;
		return -EBADMSG;
	}
	*n = (size_t)v;
	return 0;
}

/* A length-prefixed run of @n units of @unit bytes (1 or 2), followed by
 * one zero unit when @nul, read in place; length -1 is null (*@ret = NULL,
 * *@ret_len = 0).  On error the position is left where it was. */
static int read_counted(bc_parcel *p, size_t unit, bool nul, const uint8_t **ret, size_t *ret_len)
{
	size_t start, n = 0;
	const uint8_t *d = NULL;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r < 0)
		return r;
	if (r == 0) {
		r = n >= MAX_LEN / unit ? -ENODATA : take(p, (n + nul) * unit, &d);
		/* (not memcmp: the unit is 1 or 2, and this is every string read) */
		if (r == 0 && nul && (d[n * unit] || (unit == 2 && d[n * unit + 1])))
			r = -EBADMSG;
		if (r < 0) {
			p->pos = start;
			return r;
		}
	}
	if (ret)
		*ret = d;
	if (ret_len)
		*ret_len = n;
	return 0;
}

int bc_parcel_read_string16_utf16(bc_parcel *p, const uint16_t **ret, size_t *ret_len)
{
	const uint8_t *d = NULL;
	int r = read_counted(p, 2, true, &d, ret_len);

	if (r == 0 && ret)
		*ret = (const uint16_t *)(const void *)d;
	return r;
}

int bc_parcel_read_string16(bc_parcel *p, char **ret, size_t *ret_len)
{
	const uint16_t *s = NULL;
	uint16_t *tmp;
	size_t n, start;
	ssize_t m;
	char *out;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = bc_parcel_read_string16_utf16(p, &s, &n);
	if (r < 0)
		return r;
	if (!s) {
		if (ret)
			*ret = NULL;
		if (ret_len)
			*ret_len = 0;
		return 0;
	}
	/* The data may not be 2-aligned for the compiler's taste: copy. */
	tmp = malloc(n * 2 + 2);
	if (!tmp) {
		p->pos = start;
		return -ENOMEM;
	}
	memcpy(tmp, s, n * 2);
	m = bc__utf16_to_utf8(tmp, n, NULL);
	if (m < 0) {
		free(tmp);
		p->pos = start;
		return (int)m;
	}
	out = malloc((size_t)m + 1);
	if (!out) {
		free(tmp);
		p->pos = start;
		return -ENOMEM;
	}
	bc__utf16_to_utf8(tmp, n, out);
	out[m] = 0;
	free(tmp);
	if (ret)
		*ret = out;
	else
		free(out);
	if (ret_len)
		*ret_len = (size_t)m;
	return 0;
}

int bc_parcel_read_string8(bc_parcel *p, const char **ret, size_t *ret_len)
{
	const uint8_t *d = NULL;
	int r = read_counted(p, 1, true, &d, ret_len);

	if (r == 0 && ret)
		*ret = (const char *)d;
	return r;
}

int bc_parcel_read_byte_array(bc_parcel *p, const void **ret, size_t *ret_len)
{
	const uint8_t *d = NULL;
	int r = read_counted(p, 1, false, &d, ret_len);

	if (r == 0 && ret)
		*ret = d;
	return r;
}

/* The @n elements of a typed array at the position, into a new allocation
 * (*@ret).  Every element has a fixed wire size, so the whole array is
 * checked before allocating. */
static int read_elems(bc_parcel *p, size_t n, size_t csize, enum elem_kind kind, uint8_t **ret)
{
	size_t wsize = elem_wire_size(kind, csize);
	const uint8_t *d;
	uint8_t *v;
	int r;

	r = n > MAX_LEN / wsize ? -ENODATA : check_plain(p, p->pos, n * wsize);
	if (r < 0)
		return r;
	v = malloc(n ? n * csize : 1);
	if (!v)
		return -ENOMEM;
	d = p->data + p->pos;
	p->pos += n * wsize;
	if (kind == ELEM_RAW && n) {
		memcpy(v, d, n * wsize);
	} else {
		for (size_t i = 0; i < n; i++) {
			int32_t w;

			memcpy(&w, d + i * 4, 4);
			if (kind == ELEM_BOOL)
				((bool *)(void *)v)[i] = w != 0;
			else
				((uint16_t *)(void *)v)[i] = (uint16_t)w;
		}
	}
	*ret = v;
	return 0;
}

/* A typed array into a new allocation (*@ret, or freed when @ret is NULL);
 * a null array is NULL with no elements. */
static int read_array(bc_parcel *p, void **ret, size_t *ret_n, size_t csize, enum elem_kind kind)
{
	size_t start, n = 0;
	uint8_t *v = NULL;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r == 0)
		r = read_elems(p, n, csize, kind, &v);
	if (r < 0) {
		p->pos = start;
		return r;
	}
	if (ret)
		*ret = v;
	else
		free(v);
	if (ret_n)
		*ret_n = n;
	return 0;
}

#define READ_ARRAY(name, T, kind)                                                 \
	int bc_parcel_read_##name##_array(bc_parcel *p, T **ret, size_t *ret_n)  \
	{                                                                        \
		void *v = NULL;                                                  \
		int r = read_array(p, ret ? &v : NULL, ret_n, sizeof(T), kind); \
		if (r == 0 && ret)                                               \
			*ret = v;                                                \
		return r;                                                        \
	}

READ_ARRAY(int32, int32_t, ELEM_RAW)
READ_ARRAY(uint32, uint32_t, ELEM_RAW)
READ_ARRAY(int64, int64_t, ELEM_RAW)
READ_ARRAY(uint64, uint64_t, ELEM_RAW)
READ_ARRAY(float, float, ELEM_RAW)
READ_ARRAY(double, double, ELEM_RAW)
READ_ARRAY(bool, bool, ELEM_BOOL)
READ_ARRAY(char, uint16_t, ELEM_CHAR)

void bc_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The @n strings of a String[] at the position, into a new vector. */
static int read_strings(bc_parcel *p, size_t n, char ***ret)
{
	char **v;
	int r;

	/* Each element takes at least 4 bytes: bound n before allocating. */
	if (n > bc_parcel_remaining(p) / 4)
		return -ENODATA;
	v = calloc(n ? n : 1, sizeof(char *));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r = bc_parcel_read_string16(p, &v[i], NULL);
		if (r < 0) {
			bc_strv_free(v, i);
			return r;
		}
	}
	*ret = v;
	return 0;
}

int bc_parcel_read_string16_array(bc_parcel *p, char ***ret, size_t *ret_n)
{
	size_t start, n = 0;
	char **v = NULL;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r == 0)
		r = read_strings(p, n, &v);
	if (r < 0) {
		p->pos = start;
		return r;
	}
	if (ret)
		*ret = v;
	else
		bc_strv_free(v, n);
	if (ret_n)
		*ret_n = n;
	return 0;
}

int bc_parcel_enter_parcelable(bc_parcel *p, size_t *ret_end)
{
	size_t start;
	int32_t size;
	int r;

	if (!p || !ret_end)
		return -EINVAL;
	start = p->pos;
	r = bc_parcel_read_int32(p, &size);
	if (r < 0)
		return r;
	if (size < 4 || (size & 3) || (size_t)size > p->size - start) {
		p->pos = start;
		return size >= 4 && !(size & 3) ? -ENODATA : -EBADMSG;
	}
	*ret_end = start + (size_t)size;
	return 0;
}

int bc_parcel_exit_parcelable(bc_parcel *p, size_t end)
{
	if (!p || end > p->size || (end & 3))
		return -EINVAL;
	if (p->pos > end)
		return -EBADMSG;
	p->pos = end;
	return 0;
}

/* The words before the descriptor: strict-mode policy, work source uid
 * (Android 10+), vendor header (Android 11+). */
static int read_token_header(bc_parcel *p)
{
	uint32_t w;
	int r;

	if (p->rpc)
		return 0; /* RPC parcels: no header words before the descriptor */
	r = bc_parcel_read_uint32(p, NULL);
	if (r == 0 && p->proto->work_source)
		r = bc_parcel_read_int32(p, NULL);
	if (r == 0 && p->proto->partition_header) {
		r = bc_parcel_read_uint32(p, &w);
		if (r == 0 && w != partition_header(p))
			r = -EPROTO;
	}
	return r;
}

int bc_parcel_read_interface_token(bc_parcel *p, char **ret_descriptor)
{
	size_t start;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_token_header(p);
	if (r == 0) {
		char *d = NULL;

		r = bc_parcel_read_string16(p, &d, NULL);
		if (r == 0 && !d)
			r = -EBADMSG;
		if (r == 0 && ret_descriptor)
			*ret_descriptor = d;
		else
			free(d);
	}
	if (r < 0)
		p->pos = start;
	return r;
}

/* strcmp() of @n UTF-16 units at @u (no alignment) with @s, when every unit
 * is ASCII (its UTF-8 is itself): 0 equal, 1 different, -1 not all ASCII. */
static int ascii16_cmp(const uint8_t *u, size_t n, const char *s)
{
	uint16_t c = 0;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		memcpy(&c, u + i * 2, 2);
		if (c >= 0x80)
			return -1;
		/* strcmp() stops at the first difference or the common NUL. */
		if (c != (unsigned char)s[i] || c == 0)
			break;
	}
	if (i == n)
		return s[n] != 0;
	r = c != (unsigned char)s[i];
	while (++i < n) {
		memcpy(&c, u + i * 2, 2);
		if (c >= 0x80)
			return -1;
	}
	return r;
}

int bc_parcel_enforce_interface(bc_parcel *p, const char *descriptor)
{
	const uint16_t *s = NULL;
	size_t start, n;
	char *d = NULL;
	int r;

	if (!descriptor || !p)
		return -EINVAL;
	/* The usual ASCII descriptor is compared in place, without converting. */
	start = p->pos;
	r = read_token_header(p);
	if (r == 0)
		r = bc_parcel_read_string16_utf16(p, &s, &n);
	if (r == 0 && !s)
		r = -EBADMSG;
	if (r < 0) {
		p->pos = start;
		return r;
	}
	r = ascii16_cmp((const uint8_t *)s, n, descriptor);
	if (r >= 0)
		return r ? -EPERM : 0;
	p->pos = start;
	r = bc_parcel_read_interface_token(p, &d);
	if (r < 0)
		return r;
	if (strcmp(d, descriptor) != 0)
		r = -EPERM;
	free(d);
	return r;
}

/* Skip a size-prefixed blob whose size counts itself. */
static int skip_sized(bc_parcel *p)
{
	size_t start = p->pos;
	int32_t size;
	int r = bc_parcel_read_int32(p, &size);

	if (r < 0)
		return r;
	if (size < 4 || (size_t)size > p->size - start) {
		p->pos = start;
		return -EBADMSG;
	}
	p->pos = start + PAD4((size_t)size);
	if (p->pos > p->size)
		p->pos = p->size;
	return 0;
}

int bc_parcel_read_status(bc_parcel *p, bc_status *ret)
{
	bc_status st = BINDERC_STATUS_INIT;
	size_t start;
	int32_t ex, trace;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = bc_parcel_read_int32(p, &ex);
	if (r < 0)
		return r;
	if (ex == BINDERC_EX_HAS_REPLY_HEADER) {
		r = skip_sized(p);
		if (r < 0)
			goto fail;
		ex = BINDERC_EX_NONE;
	}
	st.exception = ex;
	if (ex != BINDERC_EX_NONE) {
		r = bc_parcel_read_string16(p, &st.message, NULL);
		if (r < 0)
			goto fail;
		r = bc_parcel_read_int32(p, &trace);
		if (r < 0)
			goto fail;
		if (trace < 0 || (size_t)trace > bc_parcel_remaining(p)) {
			r = -EBADMSG;
			goto fail;
		}
		if (PAD4((size_t)trace) <= bc_parcel_remaining(p))
			p->pos += PAD4((size_t)trace);
		else
			p->pos = p->size;
		if (ex == BINDERC_EX_SERVICE_SPECIFIC) {
			r = bc_parcel_read_int32(p, &st.service_error);
			if (r < 0)
				goto fail;
		} else if (ex == BINDERC_EX_PARCELABLE) {
			r = skip_sized(p);
			if (r < 0)
				goto fail;
		}
	}
	if (ret)
		*ret = st;
	else
		bc_status_clear(&st);
	return 0;
fail:
	bc_status_clear(&st);
	p->pos = start;
	return r;
}
