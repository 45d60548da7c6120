/* SPDX-License-Identifier: MIT */
/* Round trips: everything written can be read back, in every dialect. */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "ut.h"

static const int wires[] = { BINDERC_WIRE_ANDROID_9, BINDERC_WIRE_ANDROID_10, BINDERC_WIRE_ANDROID_11,
		BINDERC_WIRE_ANDROID_12, BINDERC_WIRE_ANDROID_13 };

Test(parcel, scalars)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	int32_t i32;
	uint32_t u32;
	int64_t i64;
	uint64_t u64;
	bool b;
	uint16_t c;
	int8_t y;
	float f;
	double d;

	cr_assert_eq(bc_parcel_write_int32(p, INT32_MIN), 0);
	cr_assert_eq(bc_parcel_write_uint32(p, UINT32_MAX), 0);
	cr_assert_eq(bc_parcel_write_int64(p, INT64_MIN + 7), 0);
	cr_assert_eq(bc_parcel_write_uint64(p, 0x0123456789abcdefull), 0);
	cr_assert_eq(bc_parcel_write_bool(p, true), 0);
	cr_assert_eq(bc_parcel_write_bool(p, false), 0);
	cr_assert_eq(bc_parcel_write_char(p, 0x20ac), 0);
	cr_assert_eq(bc_parcel_write_byte(p, -5), 0);
	cr_assert_eq(bc_parcel_write_float(p, -1.5f), 0);
	cr_assert_eq(bc_parcel_write_double(p, M_PI), 0);
	cr_assert_eq(bc_parcel_write_double(p, INFINITY), 0);
	cr_assert_eq(bc_parcel_size(p), 4 + 4 + 8 + 8 + 4 + 4 + 4 + 4 + 4 + 8 + 8);

	cr_assert_eq(bc_parcel_read_int32(p, &i32), 0);
	cr_assert_eq(i32, INT32_MIN);
	cr_assert_eq(bc_parcel_read_uint32(p, &u32), 0);
	cr_assert_eq(u32, UINT32_MAX);
	cr_assert_eq(bc_parcel_read_int64(p, &i64), 0);
	cr_assert_eq(i64, INT64_MIN + 7);
	cr_assert_eq(bc_parcel_read_uint64(p, &u64), 0);
	cr_assert_eq(u64, 0x0123456789abcdefull);
	cr_assert_eq(bc_parcel_read_bool(p, &b), 0);
	cr_assert(b);
	cr_assert_eq(bc_parcel_read_bool(p, &b), 0);
	cr_assert(!b);
	cr_assert_eq(bc_parcel_read_char(p, &c), 0);
	cr_assert_eq(c, 0x20ac);
	cr_assert_eq(bc_parcel_read_byte(p, &y), 0);
	cr_assert_eq(y, -5);
	cr_assert_eq(bc_parcel_read_float(p, &f), 0);
	cr_assert_eq(f, -1.5f);
	cr_assert_eq(bc_parcel_read_double(p, &d), 0);
	cr_assert_eq(d, M_PI);
	cr_assert_eq(bc_parcel_read_double(p, &d), 0);
	cr_assert(isinf(d));
	cr_assert_eq(bc_parcel_remaining(p), 0);
	cr_assert_eq(bc_parcel_read_int32(p, &i32), -ENODATA);
	bc_parcel_unref(p);
}

Test(parcel, string16)
{
	static const char *const strs[] = { "", "a", "hello", "Grüße", "日本語", "emoji \xf0\x9f\x98\x80 x",
					    "android.os.IServiceManager" };
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	char *s;
	size_t n;

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		cr_assert_eq(bc_parcel_write_string16(p, strs[i]), 0);
	cr_assert_eq(bc_parcel_write_string16(p, NULL), 0);
	cr_assert_eq(bc_parcel_write_string16_len(p, "a\0b", 3), 0);
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++) {
		cr_assert_eq(bc_parcel_read_string16(p, &s, &n), 0);
		cr_assert_str_eq(s, strs[i]);
		cr_assert_eq(n, strlen(strs[i]));
		free(s);
	}
	s = (char *)1;
	cr_assert_eq(bc_parcel_read_string16(p, &s, NULL), 0);
	cr_assert_null(s);
	cr_assert_eq(bc_parcel_read_string16(p, &s, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_eq(memcmp(s, "a\0b", 4), 0);
	free(s);
	cr_assert_eq(bc_parcel_remaining(p), 0);
	bc_parcel_unref(p);
}

Test(parcel, string16_utf16)
{
	static const uint16_t u[] = { 'x', 0xd83d, 0xde00, 'y' };
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	const uint16_t *r;
	size_t n;
	char *s;

	cr_assert_eq(bc_parcel_write_string16_utf16(p, u, 4), 0);
	cr_assert_eq(bc_parcel_write_string16_utf16(p, u, 4), 0);
	cr_assert_eq(bc_parcel_read_string16_utf16(p, &r, &n), 0);
	cr_assert_eq(n, 4);
	cr_assert_eq(memcmp(r, u, sizeof(u)), 0);
	cr_assert_eq(r[4], 0);
	cr_assert_eq(bc_parcel_read_string16(p, &s, NULL), 0);
	cr_assert_str_eq(s, "x\xf0\x9f\x98\x80y");
	free(s);
	bc_parcel_unref(p);
}

Test(parcel, string8)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	const char *s;
	size_t n;

	cr_assert_eq(bc_parcel_write_string8(p, "abc"), 0);
	cr_assert_eq(bc_parcel_write_string8(p, ""), 0);
	cr_assert_eq(bc_parcel_write_string8(p, NULL), 0);
	cr_assert_eq(bc_parcel_write_string8(p, "utf-8 é"), 0);
	cr_assert_eq(bc_parcel_read_string8(p, &s, &n), 0);
	cr_assert_str_eq(s, "abc");
	cr_assert_eq(n, 3);
	cr_assert_eq(bc_parcel_read_string8(p, &s, &n), 0);
	cr_assert_str_eq(s, "");
	cr_assert_eq(bc_parcel_read_string8(p, &s, &n), 0);
	cr_assert_null(s);
	cr_assert_eq(bc_parcel_read_string8(p, &s, &n), 0);
	cr_assert_str_eq(s, "utf-8 é");
	bc_parcel_unref(p);
}

Test(parcel, byte_arrays)
{
	unsigned char data[9];
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	const void *r;
	size_t n;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(0xa0 + i);
	for (size_t len = 0; len <= sizeof(data); len++)
		cr_assert_eq(bc_parcel_write_byte_array(p, data, len), 0);
	cr_assert_eq(bc_parcel_write_byte_array(p, NULL, 0), 0);
	for (size_t len = 0; len <= sizeof(data); len++) {
		cr_assert_eq(bc_parcel_read_byte_array(p, &r, &n), 0);
		cr_assert_eq(n, len);
		cr_assert_not_null(r);
		cr_assert_eq(memcmp(r, data, len), 0);
	}
	cr_assert_eq(bc_parcel_read_byte_array(p, &r, &n), 0);
	cr_assert_null(r);
	cr_assert_eq(bc_parcel_remaining(p), 0);
	bc_parcel_unref(p);
}

#define ARRAY_CASE(name, T, ...)                                                      \
	do {                                                                          \
		const T v[] = { __VA_ARGS__ };                                        \
		size_t cnt = sizeof(v) / sizeof(v[0]);                                \
		T *out = NULL;                                                        \
		size_t n = 99;                                                        \
		bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);                       \
		cr_assert_eq(bc_parcel_write_##name##_array(p, v, cnt), 0);           \
		cr_assert_eq(bc_parcel_write_##name##_array(p, v, 0), 0);             \
		cr_assert_eq(bc_parcel_write_##name##_array(p, NULL, 0), 0);          \
		cr_assert_eq(bc_parcel_read_##name##_array(p, &out, &n), 0);          \
		cr_assert_eq(n, cnt);                                                 \
		cr_assert_eq(memcmp(out, v, sizeof(v)), 0);                           \
		free(out);                                                            \
		cr_assert_eq(bc_parcel_read_##name##_array(p, &out, &n), 0);          \
		cr_assert_not_null(out);                                              \
		cr_assert_eq(n, 0);                                                   \
		free(out);                                                            \
		cr_assert_eq(bc_parcel_read_##name##_array(p, &out, &n), 0);          \
		cr_assert_null(out);                                                  \
		cr_assert_eq(bc_parcel_remaining(p), 0);                              \
		bc_parcel_unref(p);                                                   \
	} while (0)

Test(parcel, typed_arrays)
{
	ARRAY_CASE(int32, int32_t, 1, -2, INT32_MAX, INT32_MIN);
	ARRAY_CASE(uint32, uint32_t, 0, 7, UINT32_MAX);
	ARRAY_CASE(int64, int64_t, -1, INT64_MAX, 3);
	ARRAY_CASE(uint64, uint64_t, UINT64_MAX, 0);
	ARRAY_CASE(float, float, 0.5f, -2.0f);
	ARRAY_CASE(double, double, 1e300, -0.25);
	ARRAY_CASE(bool, bool, true, false, true);
	ARRAY_CASE(char, uint16_t, 'a', 0xffff, 0);
}

Test(parcel, string16_array)
{
	const char *v[] = { "one", NULL, "", "drei" };
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	char **out;
	size_t n;

	cr_assert_eq(bc_parcel_write_string16_array(p, v, 4), 0);
	cr_assert_eq(bc_parcel_write_string16_array(p, NULL, 0), 0);
	cr_assert_eq(bc_parcel_read_string16_array(p, &out, &n), 0);
	cr_assert_eq(n, 4);
	cr_assert_str_eq(out[0], "one");
	cr_assert_null(out[1]);
	cr_assert_str_eq(out[2], "");
	cr_assert_str_eq(out[3], "drei");
	bc_strv_free(out, n);
	cr_assert_eq(bc_parcel_read_string16_array(p, &out, &n), 0);
	cr_assert_null(out);
	bc_parcel_unref(p);
}

static int nop_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

static int destroyed;
static void count_destroy(void *ud)
{
	(void)ud;
	destroyed++;
}

Test(parcel, binders)
{
	for (size_t w = 0; w < sizeof(wires) / sizeof(wires[0]); w++) {
		bc_class *cls;
		bc_binder *a, *b, *r;
		bc_weak *wk;
		bc_parcel *p = ut_parcel(wires[w]);
		size_t n;

		destroyed = 0;
		cr_assert_eq(bc_class_new("test.IFoo", nop_transact, count_destroy, 0, &cls), 0);
		cr_assert_eq(bc_binder_new(cls, NULL, &a), 0);
		cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
		cls = bc_class_unref(cls);
		cr_assert_eq(bc_parcel_write_binder(p, a), 0);
		cr_assert_eq(bc_parcel_write_binder(p, NULL), 0);
		cr_assert_eq(bc_parcel_write_weak_binder(p, b), 0);
		cr_assert_eq(bc_parcel_write_int32(p, 42), 0);
		bc_parcel_offsets(p, &n);
		cr_assert_eq(n, 2, "null binder must not get an offsets entry");
		/* The parcel keeps both objects alive. */
		a = bc_binder_unref(a);
		b = bc_binder_unref(b);
		cr_assert_eq(destroyed, 0);

		cr_assert_eq(bc_parcel_read_binder(p, &r), 0);
		cr_assert_not_null(r);
		cr_assert_not(bc_binder_is_remote(r));
		a = r;
		cr_assert_eq(bc_parcel_read_binder(p, &r), 0);
		cr_assert_null(r);
		cr_assert_eq(bc_parcel_read_binder(p, &r), -EBADMSG, "weak object read as strong");
		cr_assert_eq(bc_parcel_read_weak_binder(p, &wk), 0);
		cr_assert_eq(bc_weak_promote(wk, &r), 0);
		cr_assert_neq(r, a);
		b = r;
		int32_t v;
		cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
		cr_assert_eq(v, 42);
		bc_parcel_unref(p);
		cr_assert_eq(destroyed, 0);
		bc_binder_unref(a);
		cr_assert_eq(destroyed, 1);
		bc_binder_unref(b);
		cr_assert_eq(destroyed, 2);
		cr_assert_eq(bc_weak_promote(wk, &r), -ESRCH);
		bc_weak_unref(wk);
	}
}

Test(parcel, fds)
{
	int fds[2], fd, dupfd;
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);

	cr_assert_eq(pipe2(fds, O_CLOEXEC), 0);
	cr_assert_eq(bc_parcel_write_fd(p, fds[0], false), 0);
	cr_assert_eq(bc_parcel_write_fd(p, fds[1], true), 0);
	cr_assert_eq(bc_parcel_read_fd(p, &fd), 0);
	cr_assert_eq(fd, fds[0]);
	cr_assert_eq(bc_parcel_read_dup_fd(p, &dupfd), 0);
	cr_assert_neq(dupfd, fds[1]);
	bc_parcel_unref(p);
	/* Borrowed stays open, owned was closed. */
	cr_assert_eq(fcntl(fds[0], F_GETFD) >= 0, 1);
	cr_assert_eq(fcntl(fds[1], F_GETFD), -1);
	cr_assert_eq(write(dupfd, "x", 1), 1);
	char c;
	cr_assert_eq(read(fds[0], &c, 1), 1);
	cr_assert_eq(c, 'x');
	close(dupfd);
	close(fds[0]);
}

Test(parcel, parcelables)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	size_t outer, inner, end_o, end_i;
	int32_t v;
	char *s;

	/* A newer writer's parcelable with an extra trailing field. */
	cr_assert_eq(bc_parcel_write_int32(p, 1), 0); /* non-null marker */
	cr_assert_eq(bc_parcel_begin_parcelable(p, &outer), 0);
	cr_assert_eq(bc_parcel_write_int32(p, 10), 0);
	cr_assert_eq(bc_parcel_begin_parcelable(p, &inner), 0);
	cr_assert_eq(bc_parcel_write_string16(p, "in"), 0);
	cr_assert_eq(bc_parcel_end_parcelable(p, inner), 0);
	cr_assert_eq(bc_parcel_write_int64(p, 99), 0); /* unknown to the reader */
	cr_assert_eq(bc_parcel_end_parcelable(p, outer), 0);
	cr_assert_eq(bc_parcel_write_int32(p, 0), 0); /* a null parcelable */
	cr_assert_eq(bc_parcel_write_int32(p, 77), 0);

	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 1);
	cr_assert_eq(bc_parcel_enter_parcelable(p, &end_o), 0);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 10);
	cr_assert_eq(bc_parcel_enter_parcelable(p, &end_i), 0);
	cr_assert_eq(bc_parcel_read_string16(p, &s, NULL), 0);
	cr_assert_str_eq(s, "in");
	free(s);
	cr_assert_eq(bc_parcel_exit_parcelable(p, end_i), 0);
	cr_assert_eq(bc_parcel_exit_parcelable(p, end_o), 0); /* skips the int64 */
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 77);
	bc_parcel_unref(p);
}

Test(parcel, interface_token_all_dialects)
{
	for (size_t w = 0; w < sizeof(wires) / sizeof(wires[0]); w++) {
		for (int part = BINDERC_PARTITION_SYSTEM; part <= BINDERC_PARTITION_VENDOR; part++) {
			bc_parcel *p = NULL, *q;
			char *d;

			cr_assert_eq(bc_parcel_new(&p), 0);
			cr_assert_eq(bc_parcel_set_wire(p, wires[w], part), 0);
			cr_assert_eq(bc_parcel_write_interface_token(p, "org.example.IHello"), 0);
			cr_assert_eq(bc_parcel_write_int32(p, 5), 0);
			cr_assert_eq(bc_parcel_read_interface_token(p, &d), 0);
			cr_assert_str_eq(d, "org.example.IHello");
			free(d);
			cr_assert_eq(bc_parcel_set_position(p, 0), 0);
			cr_assert_eq(bc_parcel_enforce_interface(p, "org.example.IHello"), 0);
			int32_t v;
			cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
			cr_assert_eq(v, 5);
			cr_assert_eq(bc_parcel_set_position(p, 0), 0);
			cr_assert_eq(bc_parcel_enforce_interface(p, "org.example.IOther"), -EPERM);
			/* The other partition rejects the header word from 11 on. */
			q = ut_reopen(p);
			bc_parcel_set_wire(q, wires[w], !part);
			cr_assert_eq(bc_parcel_enforce_interface(q, "org.example.IHello"),
				     wires[w] >= BINDERC_WIRE_ANDROID_11 ? -EPROTO : 0);
			cr_assert_eq(bc_parcel_get_position(q), wires[w] >= BINDERC_WIRE_ANDROID_11 ? 0 : bc_parcel_size(q) - 4);
			bc_parcel_unref(q);
			bc_parcel_unref(p);
		}
	}
}

Test(parcel, status)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	bc_status st = BINDERC_STATUS_INIT, r = BINDERC_STATUS_INIT;

	cr_assert_eq(bc_parcel_write_status(p, NULL), 0);
	cr_assert_eq(bc_status_set_exception(&st, BINDERC_EX_ILLEGAL_ARGUMENT, "bad arg"), 0);
	cr_assert_eq(bc_parcel_write_status(p, &st), 0);
	cr_assert_eq(bc_status_set_service_error(&st, 1234, NULL), 0);
	cr_assert_eq(bc_parcel_write_status(p, &st), 0);
	cr_assert_eq(bc_parcel_write_int32(p, 8), 0);
	bc_status_clear(&st);

	cr_assert_eq(bc_parcel_read_status(p, &r), 0);
	cr_assert(bc_status_is_ok(&r));
	cr_assert_eq(bc_parcel_read_status(p, &r), 0);
	cr_assert_eq(r.exception, BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_assert_str_eq(r.message, "bad arg");
	cr_assert_str_eq(bc_exception_name(r.exception), "EX_ILLEGAL_ARGUMENT");
	bc_status_clear(&r);
	cr_assert_eq(bc_parcel_read_status(p, &r), 0);
	cr_assert_eq(r.exception, BINDERC_EX_SERVICE_SPECIFIC);
	cr_assert_eq(r.service_error, 1234);
	cr_assert_str_eq(r.message, "");
	bc_status_clear(&r);
	int32_t v;
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 8);
	bc_parcel_unref(p);
}

Test(parcel, positions_and_readonly)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT), *q;
	int32_t v;

	cr_assert_eq(bc_parcel_write_int32(p, 1), 0);
	cr_assert_eq(bc_parcel_write_int32(p, 2), 0);
	cr_assert_eq(bc_parcel_set_position(p, 4), 0);
	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	cr_assert_eq(v, 2);
	cr_assert_eq(bc_parcel_set_position(p, 9), -EINVAL);
	cr_assert_eq(bc_parcel_set_position(p, 2), -EINVAL);
	q = ut_reopen(p);
	cr_assert_eq(bc_parcel_write_int32(q, 3), -EROFS);
	cr_assert_eq(bc_parcel_write_string16(q, "x"), -EROFS);
	cr_assert_eq(bc_parcel_write_binder(q, NULL), -EROFS);
	cr_assert_eq(bc_parcel_read_int32(q, &v), 0);
	cr_assert_eq(v, 1);
	cr_assert_eq(bc_parcel_ref(q), q);
	bc_parcel_unref(q);
	cr_assert_null(bc_parcel_unref(q));
	cr_assert_null(bc_parcel_unref(p));
	cr_assert_null(bc_parcel_unref(NULL));
}

/* Nothing written into a parcel that has no buffer yet: no effect, and
 * no pointer arithmetic on its NULL buffer (UBSan fails the run then). */
Test(parcel, empty_raw_write_first)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_write_raw(p, "x", 0), 0);
	cr_assert_eq(bc_parcel_write_raw(p, NULL, 0), 0);
	cr_assert_eq(bc_parcel_size(p), 0);
	cr_assert_eq(bc_parcel_write_int32(p, 7), 0);
	cr_assert_eq(bc_parcel_size(p), 4);
	bc_parcel_unref(p);
}
