/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of @nullable out and inout fixed-size arrays
 * (INullFixed.aidl; Android's std::optional<std::array<T, N>>): an out
 * one puts nothing in the request and the stub hands the implementation
 * a null one (NULL, 0); an inout one is written as a @nullable in T[N]
 * (int32 -1, or int32 N and the elements); both come back, after the
 * return value, as null or exactly N elements.
 */
#include "at.h"

#include "org_binderc_test_INullFixed.h"
#include "org_binderc_test_Point.h"

#define DESC org_binderc_test_INullFixed_DESCRIPTOR

/* ---- the proxy side: a recording object ---------------------------------- */

static unsigned char rec_data[4096];
static size_t rec_size;
static int rec_calls;
static void (*rec_reply)(bc_parcel *reply);

static int rec_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)ud, (void)code;
	cr_assert_leq(bc_parcel_size(in), sizeof(rec_data));
	rec_size = bc_parcel_size(in);
	memcpy(rec_data, bc_parcel_data(in), rec_size);
	rec_calls++;
	rec_reply(reply);
	return 0;
}

static bc_binder *rec_new(void (*reply)(bc_parcel *))
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	rec_reply = reply, rec_size = 0, rec_calls = 0;
	cr_assert_eq(bc_class_new(DESC, rec_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	bc_class_unref(cls);
	return b;
}

/* The request after its interface token equals @bytes. */
static void expect_args(const unsigned char *bytes, size_t n)
{
	bc_parcel *tok = at_parcel();
	size_t t;

	cr_assert_eq(bc_parcel_write_interface_token(tok, DESC), 0);
	t = bc_parcel_size(tok);
	bc_parcel_unref(tok);
	cr_assert_geq(rec_size, t);
	th_assert_bytes(rec_data + t, rec_size - t, bytes, n);
}

static void reply_nulls(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, -1); /* out @nullable int[3] o: null */
	bc_parcel_write_int32(r, -1); /* inout @nullable long[2] io: null */
}

Test(aidl_nullable_fixed, proxy_nulls_both_ways)
{
	bc_binder *b = rec_new(reply_nulls);
	int32_t *o = (int32_t *)1; /* an out value on entry is ignored */
	size_t o_len = 99, io_len = 0;
	int64_t *io = NULL;

	cr_assert_eq(org_binderc_test_INullFixed_ints(b, &o, &o_len, &io, &io_len), 0);
	expect_args(AT_BYTES(0xff, 0xff, 0xff, 0xff)); /* io null; nothing for o */
	cr_assert_null(o);
	cr_assert_eq(o_len, 0);
	cr_assert_null(io);
	cr_assert_eq(io_len, 0);
	bc_binder_unref(b);
}

static void reply_values(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int64_array(r, (const int64_t[]){ -4, 5 }, 2);
}

Test(aidl_nullable_fixed, proxy_values_both_ways)
{
	bc_binder *b = rec_new(reply_values);
	int32_t *o = NULL;
	size_t o_len = 0, io_len = 2;
	int64_t *io = malloc(2 * sizeof(*io));

	io[0] = 10, io[1] = -1;
	cr_assert_eq(org_binderc_test_INullFixed_ints(b, &o, &o_len, &io, &io_len), 0);
	expect_args(AT_BYTES(2, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
	cr_assert_eq(o_len, 3);
	cr_assert(o[0] == 1 && o[1] == 2 && o[2] == 3);
	cr_assert_eq(io_len, 2);
	cr_assert(io[0] == -4 && io[1] == 5);
	free(o), free(io);
	bc_binder_unref(b);
}

/* out @nullable int[3] coming back with two elements */
static void reply_short(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 1, 2 }, 2);
	bc_parcel_write_int32(r, -1);
}

Test(aidl_nullable_fixed, proxy_other_lengths_refused)
{
	bc_binder *b = rec_new(reply_short);
	int32_t *o = NULL;
	size_t o_len = 0, io_len = 3;
	int64_t io3[3] = { 1, 2, 3 }, *io = io3;

	/* an inout of another length than N (and not null): nothing is sent */
	cr_assert_eq(org_binderc_test_INullFixed_ints(b, &o, &o_len, &io, &io_len), -EINVAL);
	cr_assert_eq(rec_calls, 0);
	/* a reply of another length is malformed; the caller's values stay */
	io = NULL, io_len = 0;
	cr_assert_eq(org_binderc_test_INullFixed_ints(b, &o, &o_len, &io, &io_len), -EBADMSG);
	cr_assert_eq(rec_calls, 1);
	cr_assert_null(o);
	cr_assert_null(io);
	bc_binder_unref(b);
}

static void reply_strs(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, -1);						  /* o: null */
	bc_parcel_write_string16_array(r, (const char *const[]){ "q" }, 1); /* io */
}

Test(aidl_nullable_fixed, proxy_strings)
{
	bc_binder *b = rec_new(reply_strs);
	char **o = NULL, **io = NULL;
	size_t o_len = 0, io_len = 0;

	cr_assert_eq(org_binderc_test_INullFixed_strs(b, &o, &o_len, &io, &io_len), 0);
	expect_args(AT_BYTES(0xff, 0xff, 0xff, 0xff));
	cr_assert_null(o);
	cr_assert_eq(io_len, 1);
	cr_assert_str_eq(io[0], "q");
	bc_strv_free(io, io_len);
	bc_binder_unref(b);
}

/* ---- the stub side: dispatch ------------------------------------------------ */

static int mode; /* 0: fill o, leave io; 1: leave o null, null io; 2: o of 2 elements */

static int s_ints(void *self, int32_t **o, size_t *o_len, int64_t **io, size_t *io_len)
{
	(void)self;
	/* an out @nullable T[N] arrives null */
	cr_assert_null(*o);
	cr_assert_eq(*o_len, 0);
	if (mode == 1) {
		free(*io);
		*io = NULL, *io_len = 0;
		return 0;
	}
	*o_len = mode == 2 ? 2 : 3;
	*o = calloc(*o_len, sizeof(**o));
	(*o)[0] = 7;
	if (*io)
		(*io)[1] += 1;
	return 0;
}

static int s_points(void *self, org_binderc_test_Point ***o, size_t *o_len, org_binderc_test_Point ***io,
		    size_t *io_len)
{
	(void)self;
	cr_assert_null(*o);
	if (!*io) /* a null array in: both null back */
		return 0;
	cr_assert_eq(*io_len, 1);
	*o = calloc(2, sizeof(**o));
	*o_len = 2;
	(*o)[1] = malloc(sizeof(***o));
	cr_assert_eq(org_binderc_test_Point_init((*o)[1]), 0);
	(*o)[1]->x = (*io)[0] ? (*io)[0]->x + 1 : -1; /* (*o)[0] stays a null element */
	return 0;
}

static const struct org_binderc_test_INullFixed_ops sops = { .ints = s_ints, .points = s_points };

static int dispatch(uint32_t code, bc_parcel *in, bc_parcel *reply)
{
	at_rewind(in);
	return org_binderc_test_INullFixed_dispatch(&sops, NULL, code, in, reply);
}

Test(aidl_nullable_fixed, stub_out_starts_null)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();

	mode = 0;
	bc_parcel_write_int64_array(in, (const int64_t[]){ 10, 20 }, 2);
	cr_assert_eq(dispatch(org_binderc_test_INullFixed_CODE_ints, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32_array(want, (const int32_t[]){ 7, 0, 0 }, 3);
	bc_parcel_write_int64_array(want, (const int64_t[]){ 10, 21 }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	/* a null inout in, both null out: int32 -1 each */
	in = at_parcel(), reply = at_parcel();
	mode = 1;
	bc_parcel_write_int32(in, -1);
	cr_assert_eq(dispatch(org_binderc_test_INullFixed_CODE_ints, in, reply), 0);
	at_bytes(reply, AT_BYTES(0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
	bc_parcel_unref(in), bc_parcel_unref(reply);
}

Test(aidl_nullable_fixed, stub_other_lengths_refused)
{
	bc_parcel *in = at_parcel(), *reply = at_parcel();

	/* the implementation leaves 2 of 3 */
	mode = 2;
	bc_parcel_write_int32(in, -1);
	cr_assert_eq(dispatch(org_binderc_test_INullFixed_CODE_ints, in, reply), -EINVAL);
	bc_parcel_unref(in), bc_parcel_unref(reply);
	/* a request whose inout long[2] holds 1 */
	in = at_parcel(), reply = at_parcel();
	mode = 0;
	bc_parcel_write_int64_array(in, (const int64_t[]){ 1 }, 1);
	cr_assert_eq(dispatch(org_binderc_test_INullFixed_CODE_ints, in, reply), -EINVAL);
	bc_parcel_unref(in), bc_parcel_unref(reply);
}

/* @nullable Point[N] (pointers, NULL elements) through a loopback: the
 * proxy's and the stub's code against each other. */
Test(aidl_nullable_fixed, points_loopback)
{
	bc_binder *svc = NULL;
	org_binderc_test_Point **o = NULL, **io = NULL;
	size_t o_len = 0, io_len = 1;

	cr_assert_eq(org_binderc_test_INullFixed_stub_new(&sops, NULL, NULL, &svc), 0);
	io = calloc(1, sizeof(*io)); /* one null element */
	cr_assert_eq(org_binderc_test_INullFixed_points(svc, &o, &o_len, &io, &io_len), 0);
	cr_assert_eq(o_len, 2);
	cr_assert_null(o[0]);
	cr_assert_eq(o[1]->x, -1);
	cr_assert_eq(io_len, 1);
	cr_assert_null(io[0]);
	org_binderc_test_Point_free_nullable_array(o, o_len);
	io[0] = malloc(sizeof(**io));
	cr_assert_eq(org_binderc_test_Point_init(io[0]), 0);
	io[0]->x = 41;
	o = NULL, o_len = 0;
	cr_assert_eq(org_binderc_test_INullFixed_points(svc, &o, &o_len, &io, &io_len), 0);
	cr_assert_eq(o[1]->x, 42);
	cr_assert_eq(io[0]->x, 41);
	org_binderc_test_Point_free_nullable_array(o, o_len);
	org_binderc_test_Point_free_nullable_array(io, io_len);
	/* a null array (not N elements) is written as -1 both ways */
	io = NULL, io_len = 0, o = NULL, o_len = 0;
	cr_assert_eq(org_binderc_test_INullFixed_points(svc, &o, &o_len, &io, &io_len), 0);
	cr_assert_null(o);
	cr_assert_null(io);
	bc_binder_unref(svc);
}
