/* SPDX-License-Identifier: MIT */
/*
 * Golden byte layouts, written out by hand from the wire-format description
 * (little-endian, 4-byte padding, int32 length prefixes, 24-byte flat
 * objects, interface-token and stability dialects, AIDL status headers).
 */
#include <stdlib.h>
#include <unistd.h>

#include "ut.h"

#define BYTES(...) ((const unsigned char[]){ __VA_ARGS__ }), sizeof((const unsigned char[]){ __VA_ARGS__ })

static void expect(bc_parcel *p, const unsigned char *b, size_t n)
{
	ut_expect_bytes(p, b, n);
	bc_parcel_unref(p);
}

Test(golden, int32) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_int32(p, 0x12345678); expect(p, BYTES(0x78, 0x56, 0x34, 0x12)); }
Test(golden, int32_negative) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_int32(p, -2); expect(p, BYTES(0xfe, 0xff, 0xff, 0xff)); }
Test(golden, uint32) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_uint32(p, 0xdeadbeef); expect(p, BYTES(0xef, 0xbe, 0xad, 0xde)); }
Test(golden, int64)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_int32(p, 1); /* int64 is only 4-aligned: no gap */
	bc_parcel_write_int64(p, 0x0102030405060708ll);
	expect(p, BYTES(1, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1));
}
Test(golden, uint64) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_uint64(p, UINT64_MAX - 1); expect(p, BYTES(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)); }
Test(golden, bool) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_bool(p, true); bc_parcel_write_bool(p, false); expect(p, BYTES(1, 0, 0, 0, 0, 0, 0, 0)); }
Test(golden, char) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_char(p, 0x20ac); expect(p, BYTES(0xac, 0x20, 0, 0)); }
Test(golden, byte) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_byte(p, -1); bc_parcel_write_byte(p, 0x7f); expect(p, BYTES(0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0)); }
Test(golden, float) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_float(p, 1.0f); expect(p, BYTES(0, 0, 0x80, 0x3f)); }
Test(golden, double) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_double(p, -2.0); expect(p, BYTES(0, 0, 0, 0, 0, 0, 0, 0xc0)); }

Test(golden, string16)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_string16(p, "hi");
	/* len 2, 'h' 'i', NUL, 2 bytes padding */
	expect(p, BYTES(2, 0, 0, 0, 'h', 0, 'i', 0, 0, 0, 0, 0));
}
Test(golden, string16_odd)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_string16(p, "abc");
	expect(p, BYTES(3, 0, 0, 0, 'a', 0, 'b', 0, 'c', 0, 0, 0));
}
Test(golden, string16_empty) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_string16(p, ""); expect(p, BYTES(0, 0, 0, 0, 0, 0, 0, 0)); }
Test(golden, string16_null) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_string16(p, NULL); expect(p, BYTES(0xff, 0xff, 0xff, 0xff)); }
Test(golden, string16_surrogates)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_string16(p, "\xf0\x9f\x98\x80"); /* U+1F600 = D83D DE00 */
	expect(p, BYTES(2, 0, 0, 0, 0x3d, 0xd8, 0x00, 0xde, 0, 0, 0, 0));
}
Test(golden, string8)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_string8(p, "abc");
	bc_parcel_write_string8(p, "abcd");
	expect(p, BYTES(3, 0, 0, 0, 'a', 'b', 'c', 0, 4, 0, 0, 0, 'a', 'b', 'c', 'd', 0, 0, 0, 0));
}
Test(golden, string8_null) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_string8(p, NULL); expect(p, BYTES(0xff, 0xff, 0xff, 0xff)); }
Test(golden, byte_array)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_byte_array(p, "\x01\x02\x03", 3);
	bc_parcel_write_byte_array(p, NULL, 0);
	bc_parcel_write_byte_array(p, "", 0);
	expect(p, BYTES(3, 0, 0, 0, 1, 2, 3, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0));
}
Test(golden, int32_array)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_int32_array(p, (const int32_t[]){ 1, -1 }, 2);
	expect(p, BYTES(2, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff));
}
Test(golden, int64_array)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_int64_array(p, (const int64_t[]){ 5 }, 1);
	expect(p, BYTES(1, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0));
}
Test(golden, bool_char_arrays_widened)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_bool_array(p, (const bool[]){ true, false }, 2);
	bc_parcel_write_char_array(p, (const uint16_t[]){ 'A' }, 1);
	expect(p, BYTES(2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 'A', 0, 0, 0));
}
Test(golden, null_array) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_double_array(p, NULL, 0); expect(p, BYTES(0xff, 0xff, 0xff, 0xff)); }
Test(golden, string16_array)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_parcel_write_string16_array(p, (const char *const[]){ "a", NULL }, 2);
	expect(p, BYTES(2, 0, 0, 0, 1, 0, 0, 0, 'a', 0, 0, 0, 0xff, 0xff, 0xff, 0xff));
}

/* 'sb*' + 0x85 = 0x73622a85; little-endian 85 2a 62 73. */
#define T_BINDER 0x85, 0x2a, 0x62, 0x73
#define T_WEAK_BINDER 0x85, 0x2a, 0x62, 0x77
#define T_FD 0x85, 0x2a, 0x64, 0x66
#define Z8 0, 0, 0, 0, 0, 0, 0, 0

static void expect_no_offsets(const bc_parcel *p)
{
	size_t n;

	bc_parcel_offsets(p, &n);
	cr_assert_eq(n, 0);
}

Test(golden, null_binder_android9)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_9);
	bc_parcel_write_binder(p, NULL);
	expect_no_offsets(p);
	expect(p, BYTES(T_BINDER, 0, 0, 0, 0, Z8, Z8));
}
Test(golden, null_binder_android10) { bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_10); bc_parcel_write_binder(p, NULL); expect(p, BYTES(T_BINDER, 0, 0, 0, 0, Z8, Z8)); }
Test(golden, null_binder_android11)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_11);
	bc_parcel_write_binder(p, NULL);
	expect_no_offsets(p);
	expect(p, BYTES(T_BINDER, 0, 0, 0, 0, Z8, Z8, 0, 0, 0, 0)); /* stability UNDECLARED */
}
Test(golden, null_binder_android12)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_12);
	bc_parcel_write_binder(p, NULL);
	/* Category {version 1, reserved, level UNDECLARED} */
	expect(p, BYTES(T_BINDER, 0, 0, 0, 0, Z8, Z8, 1, 0, 0, 0));
}
Test(golden, null_weak_binder) { bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_13); bc_parcel_write_weak_binder(p, NULL); expect(p, BYTES(T_WEAK_BINDER, 0, 0, 0, 0, Z8, Z8, 0, 0, 0, 0)); }


/* Expected layout of a local object at the start of @p. */
static void expect_local(bc_parcel *p, bc_binder *b, bool weak, const unsigned char *tail, size_t tail_n)
{
	unsigned char exp[64];
	uint64_t ptr = (uintptr_t)b;
	const unsigned char head[] = { 0x85, 0x2a, 0x62, weak ? 0x77 : 0x73, 0x13, 0x01, 0, 0 };
	size_t n;
	const uint64_t *o = bc_parcel_offsets(p, &n);

	cr_assert_eq(n, 1);
	cr_assert_eq(o[0], 0);
	memcpy(exp, head, 8);
	memcpy(exp + 8, &ptr, 8);  /* binder = object pointer */
	memcpy(exp + 16, &ptr, 8); /* cookie = object pointer */
	memcpy(exp + 24, tail, tail_n);
	ut_expect_bytes(p, exp, 24 + tail_n);
}

Test(golden, local_binder_each_dialect)
{
	static const struct {
		int wire, partition, stability;
		unsigned char tail[4];
		size_t n;
	} cases[] = {
		{ BINDERC_WIRE_ANDROID_9, BINDERC_PARTITION_SYSTEM, 0, { 0 }, 0 },
		{ BINDERC_WIRE_ANDROID_10, BINDERC_PARTITION_SYSTEM, 0, { 0 }, 0 },
		{ BINDERC_WIRE_ANDROID_11, BINDERC_PARTITION_SYSTEM, 0, { 0x0c, 0, 0, 0 }, 4 },
		{ BINDERC_WIRE_ANDROID_11, BINDERC_PARTITION_VENDOR, 0, { 0x03, 0, 0, 0 }, 4 },
		{ BINDERC_WIRE_ANDROID_12, BINDERC_PARTITION_SYSTEM, 0, { 0x01, 0, 0, 0x0c }, 4 },
		{ BINDERC_WIRE_ANDROID_12, BINDERC_PARTITION_SYSTEM, BINDERC_STABILITY_VINTF, { 0x01, 0, 0, 0x3f }, 4 },
		{ BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_SYSTEM, BINDERC_STABILITY_VINTF, { 0x3f, 0, 0, 0 }, 4 },
		{ BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_SYSTEM, 0, { 0x0c, 0, 0, 0 }, 4 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bc_binder *b = ut_new_local("golden.IX");
		bc_parcel *p = NULL;

		cr_assert_eq(bc_parcel_new(&p), 0);
		cr_assert_eq(bc_parcel_set_wire(p, cases[i].wire, cases[i].partition), 0);
		cr_assert_eq(bc_binder_set_stability(b, cases[i].stability), 0);
		cr_assert_eq(bc_parcel_write_binder(p, b), 0);
		expect_local(p, b, false, cases[i].tail, cases[i].n);
		bc_parcel_unref(p);
		cr_assert_eq(bc_parcel_new(&p), 0);
		cr_assert_eq(bc_parcel_set_wire(p, cases[i].wire, cases[i].partition), 0);
		cr_assert_eq(bc_parcel_write_weak_binder(p, b), 0);
		expect_local(p, b, true, cases[i].tail, cases[i].n);
		bc_parcel_unref(p);
		bc_binder_unref(b);
	}
}

Test(golden, fd_objects)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	int fd = dup(0);
	size_t n;
	const uint64_t *o;

	cr_assert_geq(fd, 0);
	bc_parcel_write_int32(p, 9);
	bc_parcel_write_fd(p, 0, false);
	bc_parcel_write_fd(p, fd, true);
	o = bc_parcel_offsets(p, &n);
	cr_assert_eq(n, 2);
	cr_assert_eq(o[0], 4);
	cr_assert_eq(o[1], 28);
	unsigned char exp[52] = { 9, 0, 0, 0, T_FD, 0x7f, 0x01, 0, 0, Z8, Z8, T_FD, 0x7f, 0x01, 0, 0 };
	uint32_t f = (uint32_t)fd;
	memcpy(exp + 36, &f, 4);
	exp[44] = 1; /* cookie 1: owned */
	expect(p, exp, sizeof(exp));
}

#define POLICY_OLD 0x00, 0x00, 0x40, 0x00
#define POLICY_NEW 0x00, 0x00, 0x00, 0x80
#define WORKSRC 0xff, 0xff, 0xff, 0xff
#define SYST 0x54, 0x53, 0x59, 0x53
#define VNDR 0x52, 0x44, 0x4e, 0x56
#define DESC_A_B 3, 0, 0, 0, 'a', 0, '.', 0, 'B', 0, 0, 0

static bc_parcel *token(int wire, int part)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, wire, part), 0);
	cr_assert_eq(bc_parcel_write_interface_token(p, "a.B"), 0);
	return p;
}

Test(golden, token_android9) { expect(token(BINDERC_WIRE_ANDROID_9, 0), BYTES(POLICY_OLD, DESC_A_B)); }
Test(golden, token_android10) { expect(token(BINDERC_WIRE_ANDROID_10, 0), BYTES(POLICY_OLD, WORKSRC, DESC_A_B)); }
Test(golden, token_android11_syst) { expect(token(BINDERC_WIRE_ANDROID_11, BINDERC_PARTITION_SYSTEM), BYTES(POLICY_OLD, WORKSRC, SYST, DESC_A_B)); }
Test(golden, token_android11_vndr) { expect(token(BINDERC_WIRE_ANDROID_11, BINDERC_PARTITION_VENDOR), BYTES(POLICY_OLD, WORKSRC, VNDR, DESC_A_B)); }
Test(golden, token_android12) { expect(token(BINDERC_WIRE_ANDROID_12, BINDERC_PARTITION_SYSTEM), BYTES(POLICY_NEW, WORKSRC, SYST, DESC_A_B)); }
Test(golden, token_android13_vndr) { expect(token(BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_VENDOR), BYTES(POLICY_NEW, WORKSRC, VNDR, DESC_A_B)); }

Test(golden, parcelable)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	size_t t;

	bc_parcel_write_int32(p, 1);
	bc_parcel_begin_parcelable(p, &t);
	bc_parcel_write_int32(p, 7);
	bc_parcel_write_int64(p, 2);
	bc_parcel_end_parcelable(p, t);
	/* marker 1, size 16 (counts itself), fields */
	expect(p, BYTES(1, 0, 0, 0, 16, 0, 0, 0, 7, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0));
}

Test(golden, status_ok) { bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT); bc_parcel_write_status(p, NULL); expect(p, BYTES(0, 0, 0, 0)); }
Test(golden, status_service_specific)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_status st = BINDERC_STATUS_INIT;

	bc_status_set_service_error(&st, 42, "x");
	bc_parcel_write_status(p, &st);
	bc_status_clear(&st);
	/* EX_SERVICE_SPECIFIC (-8), message "x", stack trace size 0, error 42 */
	expect(p, BYTES(0xf8, 0xff, 0xff, 0xff, 1, 0, 0, 0, 'x', 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0));
}
Test(golden, status_exception)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_status st = BINDERC_STATUS_INIT;

	bc_status_set_exception(&st, BINDERC_EX_SECURITY, NULL);
	bc_parcel_write_status(p, &st);
	expect(p, BYTES(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
}

/* ---- reading hand-written bytes ---------------------------------------- */

static bc_parcel *from(const unsigned char *b, size_t n)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new_from_data(b, n, NULL, 0, &p), 0);
	return p;
}

Test(golden, read_reply_header_skipped)
{
	/* EX_HAS_REPLY_HEADER, header size 12 (counts itself), 8 bytes, then 5 */
	bc_parcel *p = from(BYTES(0x80, 0xff, 0xff, 0xff, 12, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 5, 0, 0, 0));
	bc_status st = BINDERC_STATUS_INIT;
	int32_t v;

	cr_assert_eq(bc_parcel_read_status(p, &st), 0);
	cr_assert_eq(st.exception, BINDERC_EX_NONE);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 5);
	bc_parcel_unref(p);
}

Test(golden, read_status_stack_trace_skipped)
{
	/* EX_ILLEGAL_STATE (-5), "no", trace of 8 bytes, then 6 */
	bc_parcel *p = from(BYTES(0xfb, 0xff, 0xff, 0xff, 2, 0, 0, 0, 'n', 0, 'o', 0, 0, 0, 0, 0, 8, 0, 0, 0, 't', 'r',
				  'a', 'c', 'e', '.', '.', '.', 6, 0, 0, 0));
	bc_status st = BINDERC_STATUS_INIT;
	int32_t v;

	cr_assert_eq(bc_parcel_read_status(p, &st), 0);
	cr_assert_eq(st.exception, BINDERC_EX_ILLEGAL_STATE);
	cr_assert_str_eq(st.message, "no");
	bc_status_clear(&st);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 6);
	bc_parcel_unref(p);
}

Test(golden, read_status_parcelable_skipped)
{
	/* EX_PARCELABLE (-9), "", trace 0, blob of size 8 (counts itself), then 7 */
	bc_parcel *p = from(BYTES(0xf7, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 9, 9, 9, 9,
				  7, 0, 0, 0));
	bc_status st = BINDERC_STATUS_INIT;
	int32_t v;

	cr_assert_eq(bc_parcel_read_status(p, &st), 0);
	cr_assert_eq(st.exception, BINDERC_EX_PARCELABLE);
	bc_status_clear(&st);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 7);
	bc_parcel_unref(p);
}

Test(golden, read_category_stability_and_null)
{
	/* A null binder followed by a Category word, read in the raw dialect too. */
	bc_parcel *p = from(BYTES(T_BINDER, 0, 0, 0, 0, Z8, Z8, 1, 0, 0, 0, 0x2a, 0, 0, 0));
	bc_binder *b = (bc_binder *)1;
	int32_t v;

	cr_assert_eq(bc_parcel_read_binder(p, &b), 0);
	cr_assert_null(b);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 42);
	bc_parcel_unref(p);
}

/* The addService request of the worked example (Android 16 layout): the
 * same bytes come out of our writer, object pointer aside. */
Test(golden, add_service_request)
{
	bc_binder *b = ut_new_local("golden.IX");
	bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_13);
	unsigned char *exp = calloc(1, 132);
	const char *d = "android.os.IServiceManager", *n = "my.hello";
	uint64_t ptr = (uintptr_t)b;
	size_t off = 0, no;

	bc_parcel_write_interface_token(p, d);
	bc_parcel_write_string16(p, n);
	bc_parcel_write_binder(p, b);
	bc_parcel_write_bool(p, false);
	bc_parcel_write_int32(p, 8);

	memcpy(exp, (unsigned char[]){ POLICY_NEW, WORKSRC, SYST, 26, 0, 0, 0 }, 16);
	for (off = 0; d[off]; off++)
		exp[16 + 2 * off] = (unsigned char)d[off];
	exp[0x48] = 8;
	for (off = 0; n[off]; off++)
		exp[0x4c + 2 * off] = (unsigned char)n[off];
	memcpy(exp + 0x60, (unsigned char[]){ T_BINDER, 0x13, 0x01, 0, 0 }, 8);
	memcpy(exp + 0x68, &ptr, 8);
	memcpy(exp + 0x70, &ptr, 8);
	exp[0x78] = 0x0c;
	exp[0x80] = 8;
	ut_expect_bytes(p, exp, 132);
	cr_assert_eq(bc_parcel_offsets(p, &no)[0], 0x60);
	cr_assert_eq(no, 1);
	free(exp);
	bc_parcel_unref(p);
	bc_binder_unref(b);
}
