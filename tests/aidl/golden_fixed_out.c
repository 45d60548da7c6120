/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of out and inout fixed-size arrays (IFixedOut.aidl), as
 * Android's backends send them: an out T[N] puts nothing in the request
 * (the stub makes N default elements for the implementation), an inout
 * one is written as an in T[N] is; both come back after the return
 * value, in declaration order, in T[N]'s wire format, and exactly N
 * elements are accepted each way.
 */
#include "at.h"

#include "org_binderc_test_IFixedOut.h"
#include "org_binderc_test_Point.h"

#define DESC org_binderc_test_IFixedOut_DESCRIPTOR

/* ---- the proxy side: a recording object -------------------------------------- */

static unsigned char rec_data[4096];
static size_t rec_size;
static uint32_t rec_code;
static void (*rec_reply)(bc_parcel *reply);

static int rec_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)ud;
	cr_assert_leq(bc_parcel_size(in), sizeof(rec_data));
	rec_size = bc_parcel_size(in);
	memcpy(rec_data, bc_parcel_data(in), rec_size);
	rec_code = code;
	rec_reply(reply);
	return 0;
}

static bc_binder *rec_new(void (*reply)(bc_parcel *))
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	rec_reply = reply, rec_code = 0, rec_size = 0;
	cr_assert_eq(bc_class_new(DESC, rec_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	bc_class_unref(cls);
	return b;
}

static bc_parcel *request(void)
{
	bc_parcel *p = at_parcel();

	cr_assert_eq(bc_parcel_write_interface_token(p, DESC), 0);
	return p;
}

static void expect_request(bc_parcel *want, uint32_t code)
{
	cr_assert_eq(rec_code, code, "code %u, want %u", rec_code, code);
	th_assert_bytes(rec_data, rec_size, bc_parcel_data(want), bc_parcel_size(want));
	bc_parcel_unref(want);
}

static void reply_ints(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 7);					    /* return */
	bc_parcel_write_int32_array(r, (const int32_t[]){ 1, 2, 3 }, 3);  /* out int[3] o */
	bc_parcel_write_int64_array(r, (const int64_t[]){ -4, 5 }, 2);    /* inout long[2] io */
}

Test(aidl_fixed_out, proxy_out_sends_nothing_inout_as_in)
{
	bc_binder *b = rec_new(reply_ints);
	bc_parcel *q = request();
	int32_t *o = NULL, ret = 0;
	size_t o_len = 99, io_len = 2; /* an out T[N]'s length on entry is ignored */
	int64_t *io = malloc(2 * sizeof(int64_t));

	io[0] = 10, io[1] = 20;
	cr_assert_eq(org_binderc_test_IFixedOut_ints(b, 9, &o, &o_len, &io, &io_len, &ret), 0);
	bc_parcel_write_int32(q, 9);
	bc_parcel_write_int64_array(q, (const int64_t[]){ 10, 20 }, 2); /* nothing for o */
	expect_request(q, org_binderc_test_IFixedOut_CODE_ints);
	cr_assert_eq(ret, 7);
	cr_assert_eq(o_len, 3);
	cr_assert(o[0] == 1 && o[1] == 2 && o[2] == 3);
	cr_assert_eq(io_len, 2);
	cr_assert(io[0] == -4 && io[1] == 5);
	free(o), free(io);
	bc_binder_unref(b);
}

/* out int[3] coming back with two elements */
static void reply_short(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 7);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 1, 2 }, 2);
	bc_parcel_write_int64_array(r, (const int64_t[]){ -4, 5 }, 2);
}

/* inout long[2] coming back with three elements */
static void reply_long(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 7);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int64_array(r, (const int64_t[]){ -4, 5, 6 }, 3);
}

Test(aidl_fixed_out, proxy_other_lengths_refused)
{
	bc_binder *b = rec_new(reply_short);
	int32_t *o = NULL, ret = 0;
	size_t o_len = 0, io_len = 2;
	int64_t *io = malloc(3 * sizeof(int64_t));

	io[0] = 10, io[1] = 20, io[2] = 30;
	/* malformed replies: the caller's values stay as they were */
	cr_assert_eq(org_binderc_test_IFixedOut_ints(b, 9, &o, &o_len, &io, &io_len, &ret), -EBADMSG);
	cr_assert_null(o);
	cr_assert_eq(io_len, 2);
	cr_assert_eq(io[1], 20);
	rec_reply = reply_long;
	cr_assert_eq(org_binderc_test_IFixedOut_ints(b, 9, &o, &o_len, &io, &io_len, &ret), -EBADMSG);
	cr_assert_null(o);
	cr_assert_eq(io[1], 20);
	/* an inout long[2] holding three: nothing is sent */
	rec_code = 0;
	io_len = 3;
	cr_assert_eq(org_binderc_test_IFixedOut_ints(b, 9, &o, &o_len, &io, &io_len, &ret), -EINVAL);
	cr_assert_eq(rec_code, 0);
	cr_assert_null(o);
	free(io);
	bc_binder_unref(b);
}

static void reply_bytes(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_byte_array(r, "\x01\x02\x03\x04", 4); /* byte[N]: packed */
	bc_parcel_write_byte_array(r, "\xff\x7f", 2);
}

Test(aidl_fixed_out, proxy_bytes_packed)
{
	bc_binder *b = rec_new(reply_bytes);
	bc_parcel *q = request();
	int8_t *o = NULL, *io = malloc(2);
	size_t o_len = 0, io_len = 2;

	io[0] = 'h', io[1] = 'i';
	cr_assert_eq(org_binderc_test_IFixedOut_bytes(b, &o, &o_len, &io, &io_len), 0);
	bc_parcel_write_byte_array(q, "hi", 2);
	expect_request(q, org_binderc_test_IFixedOut_CODE_bytes);
	cr_assert_eq(o_len, 4);
	cr_assert_eq(memcmp(o, "\x01\x02\x03\x04", 4), 0);
	cr_assert_eq(io_len, 2);
	cr_assert(io[0] == -1 && io[1] == 0x7f);
	free(o), free(io);
	bc_binder_unref(b);
}

static void reply_strs(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_string16_array(r, (const char *const[]){ "a", "bc" }, 2);
	bc_parcel_write_string16_array(r, (const char *const[]){ "new" }, 1);
}

Test(aidl_fixed_out, proxy_strings)
{
	bc_binder *b = rec_new(reply_strs);
	bc_parcel *q = request();
	char **o = NULL, **io = calloc(1, sizeof(char *));
	size_t o_len = 0, io_len = 1;

	io[0] = strdup("old");
	cr_assert_eq(org_binderc_test_IFixedOut_strs(b, &o, &o_len, &io, &io_len), 0);
	bc_parcel_write_string16_array(q, (const char *const[]){ "old" }, 1);
	expect_request(q, org_binderc_test_IFixedOut_CODE_strs);
	cr_assert_eq(o_len, 2);
	cr_assert_str_eq(o[1], "bc");
	cr_assert_eq(io_len, 1);
	cr_assert_str_eq(io[0], "new");
	bc_strv_free(o, o_len), bc_strv_free(io, io_len);
	bc_binder_unref(b);
}

static void point(org_binderc_test_Point *p, int32_t x)
{
	cr_assert_eq(org_binderc_test_Point_init(p), 0);
	p->x = x;
}

/* Point[2]: count, then int32 1 + body per element */
static void points_by_hand(bc_parcel *r, int32_t x0, int32_t x1)
{
	org_binderc_test_Point p;

	bc_parcel_write_int32(r, 2);
	point(&p, x0);
	bc_parcel_write_int32(r, 1);
	cr_assert_eq(org_binderc_test_Point_write(r, &p), 0);
	p.x = x1;
	bc_parcel_write_int32(r, 1);
	cr_assert_eq(org_binderc_test_Point_write(r, &p), 0);
	org_binderc_test_Point_clear(&p);
}

static void reply_points(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	points_by_hand(r, 11, 12);
}

Test(aidl_fixed_out, proxy_parcelables)
{
	bc_binder *b = rec_new(reply_points);
	org_binderc_test_Point *o = NULL;
	size_t o_len = 0;

	cr_assert_eq(org_binderc_test_IFixedOut_points(b, &o, &o_len), 0);
	expect_request(request(), org_binderc_test_IFixedOut_CODE_points); /* the token alone */
	cr_assert_eq(o_len, 2);
	cr_assert_eq(o[1].x, 12);
	cr_assert_str_eq(o[1].label, "origin");
	org_binderc_test_Point_free_array(o, o_len);
	bc_binder_unref(b);
}

/* int[2][3] and String[2][1]: int32 N, then N rows as T[M] */
static void reply_grid(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 2);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 4, 5, 6 }, 3);
	bc_parcel_write_int32(r, 2);
	bc_parcel_write_string16_array(r, (const char *const[]){ "x" }, 1);
	bc_parcel_write_string16_array(r, (const char *const[]){ "y" }, 1);
}

Test(aidl_fixed_out, proxy_two_dimensions)
{
	bc_binder *b = rec_new(reply_grid);
	bc_parcel *q = request();
	int32_t *o = NULL;
	char **io = calloc(2, sizeof(char *));
	size_t o_len = 0, io_len = 2;

	io[0] = strdup("a"), io[1] = strdup("b");
	cr_assert_eq(org_binderc_test_IFixedOut_grid(b, &o, &o_len, &io, &io_len), 0);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_string16_array(q, (const char *const[]){ "a" }, 1);
	bc_parcel_write_string16_array(q, (const char *const[]){ "b" }, 1);
	expect_request(q, org_binderc_test_IFixedOut_CODE_grid);
	cr_assert_eq(o_len, 6);
	cr_assert(o[0] == 1 && o[3] == 4 && o[5] == 6);
	cr_assert_eq(io_len, 2);
	cr_assert_str_eq(io[0], "x");
	cr_assert_str_eq(io[1], "y");
	free(o), bc_strv_free(io, io_len);
	bc_binder_unref(b);
}

/* ---- the stub side: dispatch ------------------------------------------------------ */

static bool give_short; /* the implementation breaks the contract: N - 1 */

static int s_ints(void *self, int32_t a, int32_t **o, size_t *o_len, int64_t **io, size_t *io_len, int32_t *_ret)
{
	(void)self;
	/* an out T[N] arrives as N zeros */
	cr_assert_eq(*o_len, 3);
	cr_assert((*o)[0] == 0 && (*o)[1] == 0 && (*o)[2] == 0);
	cr_assert_eq(*io_len, 2);
	(*o)[0] = a, (*o)[1] = a + 1, (*o)[2] = a + 2;
	(*io)[0] *= -1;
	if (give_short)
		*o_len = 2;
	*_ret = (int32_t)(*io)[1];
	return 0;
}

static int s_bytes(void *self, int8_t **o, size_t *o_len, int8_t **io, size_t *io_len)
{
	(void)self;
	cr_assert_eq(*o_len, 4);
	cr_assert_eq(*io_len, 2);
	memcpy(*o, "wxyz", 4);
	(*io)[1] = '!';
	return 0;
}

static int s_strs(void *self, char ***o, size_t *o_len, char ***io, size_t *io_len)
{
	(void)self;
	/* N empty strings, as Android's String[N] starts */
	cr_assert_eq(*o_len, 2);
	cr_assert_str_eq((*o)[0], "");
	cr_assert_str_eq((*o)[1], "");
	cr_assert_eq(*io_len, 1);
	free((*o)[1]);
	(*o)[1] = strdup((*io)[0]);
	return 0;
}

static int s_points(void *self, org_binderc_test_Point **o, size_t *o_len)
{
	(void)self;
	/* N _init()ed parcelables */
	cr_assert_eq(*o_len, 2);
	cr_assert_eq((*o)[0].y, 7);
	cr_assert_str_eq((*o)[1].label, "origin");
	(*o)[0].x = 21, (*o)[1].x = 22;
	return 0;
}

static int s_grid(void *self, int32_t **o, size_t *o_len, char ***io, size_t *io_len)
{
	(void)self;
	cr_assert_eq(*o_len, 6);
	cr_assert_eq(*io_len, 2);
	for (int i = 0; i < 6; i++)
		(*o)[i] = i * 10;
	free((*io)[0]);
	(*io)[0] = strdup("z");
	return 0;
}

static const struct org_binderc_test_IFixedOut_ops sops = {
	.ints = s_ints, .bytes = s_bytes, .strs = s_strs, .points = s_points, .grid = s_grid,
};

static int dispatch(uint32_t code, bc_parcel *in, bc_parcel *reply)
{
	at_rewind(in);
	return org_binderc_test_IFixedOut_dispatch(&sops, NULL, code, in, reply);
}

Test(aidl_fixed_out, stub_out_made_inout_read)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();

	bc_parcel_write_int32(in, 5);
	bc_parcel_write_int64_array(in, (const int64_t[]){ 10, 20 }, 2);
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_ints, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 20);
	bc_parcel_write_int32_array(want, (const int32_t[]){ 5, 6, 7 }, 3);
	bc_parcel_write_int64_array(want, (const int64_t[]){ -10, 20 }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	in = at_parcel(), want = at_parcel(), reply = at_parcel();
	bc_parcel_write_byte_array(in, "ab", 2);
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_bytes, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_byte_array(want, "wxyz", 4);
	bc_parcel_write_byte_array(want, "a!", 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	in = at_parcel(), want = at_parcel(), reply = at_parcel();
	bc_parcel_write_string16_array(in, (const char *const[]){ "q" }, 1);
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_strs, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_string16_array(want, (const char *const[]){ "", "q" }, 2);
	bc_parcel_write_string16_array(want, (const char *const[]){ "q" }, 1);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	in = at_parcel(), want = at_parcel(), reply = at_parcel();
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_points, in, reply), 0); /* empty request */
	bc_parcel_write_status(want, NULL);
	points_by_hand(want, 21, 22);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

Test(aidl_fixed_out, stub_two_dimensions)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();

	bc_parcel_write_int32(in, 2);
	bc_parcel_write_string16_array(in, (const char *const[]){ "a" }, 1);
	bc_parcel_write_string16_array(in, (const char *const[]){ "b" }, 1);
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_grid, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 2);
	bc_parcel_write_int32_array(want, (const int32_t[]){ 0, 10, 20 }, 3);
	bc_parcel_write_int32_array(want, (const int32_t[]){ 30, 40, 50 }, 3);
	bc_parcel_write_int32(want, 2);
	bc_parcel_write_string16_array(want, (const char *const[]){ "z" }, 1);
	bc_parcel_write_string16_array(want, (const char *const[]){ "b" }, 1);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

Test(aidl_fixed_out, stub_other_lengths_refused)
{
	bc_parcel *in = at_parcel(), *reply = at_parcel();

	/* an inout long[2] holding three: an undecodable request */
	bc_parcel_write_int32(in, 5);
	bc_parcel_write_int64_array(in, (const int64_t[]){ 1, 2, 3 }, 3);
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_ints, in, reply), -EINVAL);
	bc_parcel_unref(in), bc_parcel_unref(reply);

	/* an implementation leaving two of an out int[3]: no reply */
	in = at_parcel(), reply = at_parcel();
	bc_parcel_write_int32(in, 5);
	bc_parcel_write_int64_array(in, (const int64_t[]){ 1, 2 }, 2);
	give_short = true;
	cr_assert_eq(dispatch(org_binderc_test_IFixedOut_CODE_ints, in, reply), -EINVAL);
	give_short = false;
	bc_parcel_unref(in), bc_parcel_unref(reply);
}
