/* SPDX-License-Identifier: MIT */
/* Malformed and truncated parcels are rejected, and the position stays. */
#include <stdlib.h>

#include "ut.h"

#define BYTES(...) ((const unsigned char[]){ __VA_ARGS__ }), sizeof((const unsigned char[]){ __VA_ARGS__ })
#define T_BINDER 0x85, 0x2a, 0x62, 0x73
#define T_HANDLE 0x85, 0x2a, 0x68, 0x73
#define T_FD 0x85, 0x2a, 0x64, 0x66
#define Z8 0, 0, 0, 0, 0, 0, 0, 0

static bc_parcel *from(const unsigned char *b, size_t n)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new_from_data(b, n, NULL, 0, &p), 0);
	bc_parcel_set_wire(p, BINDERC_WIRE_ANDROID_9, BINDERC_PARTITION_SYSTEM);
	return p;
}

static bc_parcel *from_objs(const unsigned char *b, size_t n, const uint64_t *o, size_t no, int wire)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new_from_data(b, n, o, no, &p), 0);
	bc_parcel_set_wire(p, wire, BINDERC_PARTITION_SYSTEM);
	return p;
}

/* One input (Android 9 dialect) that a read must refuse: the error it
 * gives, and the position left where it was. */
struct refusal {
	const char *what;
	const unsigned char *bytes;
	size_t n;
	int (*read)(bc_parcel *p);
	int expect;
};

static void refuse_all(const struct refusal *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bc_parcel *p = from(t[i].bytes, t[i].n);
		int r = t[i].read(p);

		cr_expect_eq(r, t[i].expect, "%s: %d, not %d", t[i].what, r, t[i].expect);
		cr_expect_eq(bc_parcel_get_position(p), 0, "%s: the position moved", t[i].what);
		bc_parcel_unref(p);
	}
}

static int read_string16(bc_parcel *p)
{
	char *s = NULL;
	int r = bc_parcel_read_string16(p, &s, NULL);

	free(s);
	return r;
}

static int read_string8(bc_parcel *p)
{
	const char *s;
	size_t n;

	return bc_parcel_read_string8(p, &s, &n);
}

static int read_int32_array(bc_parcel *p)
{
	int32_t *a = NULL;
	size_t n;
	int r = bc_parcel_read_int32_array(p, &a, &n);

	free(a);
	return r;
}

static int read_string16_array(bc_parcel *p)
{
	char **v = NULL;
	size_t n = 0;
	int r = bc_parcel_read_string16_array(p, &v, &n);

	bc_strv_free(v, n);
	return r;
}

static int enter_parcelable(bc_parcel *p)
{
	size_t end;

	return bc_parcel_enter_parcelable(p, &end);
}

static int read_interface_token(bc_parcel *p)
{
	char *d = NULL;
	int r = bc_parcel_read_interface_token(p, &d);

	free(d);
	return r;
}

/* A refused status must not leave a message behind either. */
static int read_status(bc_parcel *p)
{
	bc_status st = BINDERC_STATUS_INIT;
	int r = bc_parcel_read_status(p, &st);

	if (r < 0)
		cr_expect_null(st.message);
	bc_status_clear(&st);
	return r;
}

static const struct refusal string_inputs[] = {
	{ "string16 of length -2", BYTES(0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0), read_string16, -EBADMSG },
	{ "string8 of length -2", BYTES(0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0), read_string8, -EBADMSG },
	{ "string16 of huge length", BYTES(0xff, 0xff, 0xff, 0x7f, 'a', 0, 0, 0), read_string16, -ENODATA },
	{ "string8 of huge length", BYTES(0xff, 0xff, 0xff, 0x7f, 'a', 0, 0, 0), read_string8, -ENODATA },
	{ "string16 without its NUL", BYTES(1, 0, 0, 0, 'a', 0, 'b', 0), read_string16, -EBADMSG },
	{ "string8 without its NUL", BYTES(3, 0, 0, 0, 'a', 'b', 'c', 'd'), read_string8, -EBADMSG },
	{ "string16 with an unpaired surrogate", BYTES(1, 0, 0, 0, 0x00, 0xd8, 0, 0), read_string16, -EILSEQ },
};

static const struct refusal array_inputs[] = {
	{ "int32[] longer than the parcel", BYTES(0x00, 0x00, 0x00, 0x40, 1, 0, 0, 0), read_int32_array, -ENODATA },
	{ "String[] longer than the parcel", BYTES(0x00, 0x00, 0x00, 0x40, 1, 0, 0, 0), read_string16_array,
	  -ENODATA },
	{ "int32[] of length -3", BYTES(0xfd, 0xff, 0xff, 0xff), read_int32_array, -EBADMSG },
};

static const struct refusal parcelable_inputs[] = {
	{ "parcelable past the end", BYTES(0x40, 0, 0, 0, 1, 0, 0, 0), enter_parcelable, -ENODATA },
	{ "parcelable smaller than its size", BYTES(2, 0, 0, 0, 1, 0, 0, 0), enter_parcelable, -EBADMSG },
	{ "parcelable of negative size", BYTES(0xf0, 0xff, 0xff, 0xff), enter_parcelable, -EBADMSG },
};

static const struct refusal token_inputs[] = {
	{ "token with a null descriptor", BYTES(0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff), read_interface_token, -EBADMSG },
};

static const struct refusal status_inputs[] = {
	{ "status with a negative stack trace size",
	  BYTES(0xfd, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff), read_status, -EBADMSG },
	{ "status with a stack trace past the end",
	  BYTES(0xfd, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0), read_status, -EBADMSG },
	{ "status with a reply header past the end", BYTES(0x80, 0xff, 0xff, 0xff, 0x40, 0, 0, 0), read_status,
	  -EBADMSG },
	{ "status without its service error", BYTES(0xf8, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
	  read_status, -ENODATA },
};

Test(malformed, truncated_scalars)
{
	bc_parcel *p = from(BYTES(1, 2, 3));
	int32_t i;
	int64_t l;
	double d;

	cr_assert_eq(bc_parcel_read_int32(p, &i), -ENODATA);
	cr_assert_eq(bc_parcel_read_int64(p, &l), -ENODATA);
	cr_assert_eq(bc_parcel_read_double(p, &d), -ENODATA);
	cr_assert_eq(bc_parcel_get_position(p), 0);
	bc_parcel_unref(p);
	p = from(BYTES(1, 2, 3, 4, 5, 6, 7));
	cr_assert_eq(bc_parcel_read_int64(p, &l), -ENODATA);
	cr_assert_eq(bc_parcel_read_int32(p, &i), 0);
	cr_assert_eq(bc_parcel_read_int32(p, &i), -ENODATA);
	bc_parcel_unref(p);
}

Test(malformed, every_truncation_of_a_valid_parcel)
{
	bc_parcel *w = ut_parcel(BINDERC_WIRE_DEFAULT);

	bc_parcel_write_string16(w, "hello world");
	bc_parcel_write_string8(w, "eight");
	bc_parcel_write_byte_array(w, "abcdef", 6);
	bc_parcel_write_int64_array(w, (const int64_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_interface_token(w, "x.Y");
	for (size_t cut = 0; cut < bc_parcel_size(w); cut++) {
		bc_parcel *p = NULL;
		char *s = NULL;
		const char *s8;
		const void *ba;
		int64_t *la = NULL;
		size_t n;
		int r;

		cr_assert_eq(bc_parcel_new_from_data(bc_parcel_data(w), cut, NULL, 0, &p), 0);
		r = bc_parcel_read_string16(p, &s, NULL);
		free(s);
		if (r == 0)
			r = bc_parcel_read_string8(p, &s8, &n);
		if (r == 0)
			r = bc_parcel_read_byte_array(p, &ba, &n);
		if (r == 0)
			r = bc_parcel_read_int64_array(p, &la, &n);
		free(la);
		if (r == 0)
			r = bc_parcel_enforce_interface(p, "x.Y");
		cr_assert_eq(r, -ENODATA, "cut at %zu gave %d", cut, r);
		bc_parcel_unref(p);
	}
	bc_parcel_unref(w);
}

Test(malformed, strings)
{
	bc_parcel *p;

	refuse_all(string_inputs, sizeof(string_inputs) / sizeof(string_inputs[0]));
	/* bad UTF-8 is refused on write */
	p = ut_parcel(BINDERC_WIRE_DEFAULT);
	cr_assert_eq(bc_parcel_write_string16(p, "\xc3\x28"), -EILSEQ);
	cr_assert_eq(bc_parcel_write_string16(p, "\xed\xa0\x80"), -EILSEQ); /* encoded surrogate */
	cr_assert_eq(bc_parcel_write_string16(p, "\xe0\x80\xaf"), -EILSEQ); /* overlong */
	cr_assert_eq(bc_parcel_write_string16(p, "\xf0\x9f\x98"), -EILSEQ); /* truncated */
	cr_assert_eq(bc_parcel_size(p), 0);
	bc_parcel_unref(p);
}

Test(malformed, arrays)
{
	refuse_all(array_inputs, sizeof(array_inputs) / sizeof(array_inputs[0]));
}

Test(malformed, bad_offsets_rejected)
{
	unsigned char d[56] = { T_BINDER };
	bc_parcel *p;

	memcpy(d + 24, (unsigned char[]){ T_FD }, 4);
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ 0, 24 }, 2, &p), 0);
	bc_parcel_unref(p);
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ 24, 0 }, 2, &p), -EINVAL, "unsorted");
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ 0, 20 }, 2, &p), -EINVAL, "overlap");
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ 40 }, 1, &p), -EINVAL, "past end");
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ 2 }, 1, &p), -EINVAL, "unaligned");
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ 4 }, 1, &p), -EINVAL, "bad type");
	cr_assert_eq(bc_parcel_new_from_data(d, 56, (const uint64_t[]){ UINT64_MAX - 3 }, 1, &p), -EINVAL);
}

Test(malformed, plain_read_over_object)
{
	unsigned char d[32] = { 1, 0, 0, 0, T_FD, 0x7f, 1, 0, 0, 5 };
	bc_parcel *p = from_objs(d, sizeof(d), (const uint64_t[]){ 4 }, 1, BINDERC_WIRE_ANDROID_9);
	int64_t l;
	int32_t i;
	const void *raw;
	int fd;

	cr_assert_eq(bc_parcel_read_int64(p, &l), -EBADMSG, "int64 overlapping an object");
	cr_assert_eq(bc_parcel_read_int32(p, &i), 0);
	cr_assert_eq(bc_parcel_read_int32(p, &i), -EBADMSG, "reading an object as data");
	cr_assert_eq(bc_parcel_read_raw(p, 8, &raw), -EBADMSG);
	cr_assert_eq(bc_parcel_read_binder(p, NULL), -EBADMSG, "fd read as binder");
	cr_assert_eq(bc_parcel_read_fd(p, &fd), 0);
	cr_assert_eq(fd, 5, "fd %d", fd);
	bc_parcel_unref(p);
}

Test(malformed, objects_only_where_offsets_say)
{
	/* A non-null binder and an fd object with no offsets entry. */
	bc_parcel *p = from(BYTES(T_BINDER, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
	int fd;

	cr_assert_eq(bc_parcel_read_binder(p, NULL), -EBADMSG);
	cr_assert_eq(bc_parcel_read_weak_binder(p, NULL), -EBADMSG);
	bc_parcel_unref(p);
	p = from(BYTES(T_FD, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, Z8));
	cr_assert_eq(bc_parcel_read_fd(p, &fd), -EBADMSG);
	bc_parcel_unref(p);
	/* A "null binder" overlapping a listed object is refused too. */
	unsigned char d[52] = { 0 };
	memcpy(d, (unsigned char[]){ T_BINDER }, 4);
	memcpy(d + 28, (unsigned char[]){ T_FD }, 4);
	p = from_objs(d, sizeof(d), (const uint64_t[]){ 28 }, 1, BINDERC_WIRE_ANDROID_9);
	cr_assert_eq(bc_parcel_set_position(p, 12), 0);
	cr_assert_eq(bc_parcel_read_binder(p, NULL), -EBADMSG);
	bc_parcel_unref(p);
}

Test(malformed, unresolvable_objects)
{
	/* A listed local object pointing nowhere must not be dereferenced. */
	unsigned char d[28] = { T_BINDER, 0x13, 1, 0, 0, 0xef, 0xbe, 0xad, 0xde, 0, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde };
	bc_parcel *p = from_objs(d, sizeof(d), (const uint64_t[]){ 0 }, 1, BINDERC_WIRE_ANDROID_13);
	bc_binder *b;

	cr_assert_eq(bc_parcel_read_binder(p, &b), -EBADMSG);
	bc_parcel_unref(p);
	/* A handle with no process to resolve it. */
	unsigned char h[28] = { T_HANDLE, 0, 0, 0, 0, 7 };
	p = from_objs(h, sizeof(h), (const uint64_t[]){ 0 }, 1, BINDERC_WIRE_ANDROID_13);
	cr_assert_eq(bc_parcel_read_binder(p, &b), -ENODEV);
	cr_assert_eq(bc_parcel_get_position(p), 0);
	bc_parcel_unref(p);
	/* Binder without its stability word (Android 11+) is truncated. */
	unsigned char n[24] = { T_BINDER };
	p = from_objs(n, sizeof(n), NULL, 0, BINDERC_WIRE_ANDROID_11);
	cr_assert_eq(bc_parcel_read_binder(p, &b), -ENODATA);
	bc_parcel_unref(p);
}

/* Android lists no object whose binder field and cookie are 0
 * (Parcel::writeObject): besides a null binder, handle 0, the context
 * manager.  Unlisted, handle 0 is taken (here -ENODEV: no process to
 * resolve it in); any other unlisted handle is refused. */
Test(malformed, unlisted_handle_zero_only)
{
	unsigned char h0[28] = { T_HANDLE, 0x13, 0, 0, 0 }, h7[28] = { T_HANDLE, 0x13, 0, 0, 0, 7 };
	bc_parcel *p;
	bc_binder *b;

	p = from_objs(h0, sizeof(h0), NULL, 0, BINDERC_WIRE_ANDROID_13);
	cr_expect_eq(bc_parcel_read_binder(p, &b), -ENODEV);
	bc_parcel_unref(p);
	p = from_objs(h7, sizeof(h7), NULL, 0, BINDERC_WIRE_ANDROID_13);
	cr_expect_eq(bc_parcel_read_binder(p, &b), -EBADMSG);
	cr_expect_eq(bc_parcel_get_position(p), 0);
	bc_parcel_unref(p);
	/* handle 0 with a cookie is not Android's form either */
	h0[16] = 1;
	p = from_objs(h0, sizeof(h0), NULL, 0, BINDERC_WIRE_ANDROID_13);
	cr_expect_eq(bc_parcel_read_binder(p, &b), -EBADMSG);
	bc_parcel_unref(p);
}

Test(malformed, parcelables)
{
	size_t end;
	bc_parcel *p;

	refuse_all(parcelable_inputs, sizeof(parcelable_inputs) / sizeof(parcelable_inputs[0]));
	p = from(BYTES(4, 0, 0, 0, 1, 0, 0, 0));
	cr_assert_eq(bc_parcel_enter_parcelable(p, &end), 0);
	cr_assert_eq(end, 4);
	cr_assert_eq(bc_parcel_read_int32(p, NULL), 0);
	cr_assert_eq(bc_parcel_exit_parcelable(p, end), -EBADMSG, "read past the parcelable");
	bc_parcel_unref(p);
}

Test(malformed, interface_tokens)
{
	bc_parcel *p = from_objs((const unsigned char[]){ 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff, 'X', 'X', 'X', 'X',
							   0, 0, 0, 0, 0, 0, 0, 0 },
				 20, NULL, 0, BINDERC_WIRE_ANDROID_11);

	cr_assert_eq(read_interface_token(p), -EPROTO, "unknown header word");
	cr_assert_eq(bc_parcel_get_position(p), 0);
	bc_parcel_unref(p);
	refuse_all(token_inputs, sizeof(token_inputs) / sizeof(token_inputs[0]));
}

Test(malformed, statuses)
{
	refuse_all(status_inputs, sizeof(status_inputs) / sizeof(status_inputs[0]));
}
