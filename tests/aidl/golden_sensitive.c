/* SPDX-License-Identifier: MIT */
/*
 * @SensitiveData (good/IHal.aidl): every call of the interface's proxy
 * functions, oneway and meta ones too, is made with FLAG_CLEAR_BUF (0x20,
 * BINDERC_FLAG_CLEAR_BUF), as Android's NDK backend makes them, and the
 * request parcel is marked sensitive before anything is written to it (as
 * Android's C++ and Java proxies call markSensitive()).  A recording
 * object stands in for the service: it sees the transaction's flags.
 * ICallback, not annotated, is the control.
 */
#include "at.h"

#include "org_binderc_test_ICallback.h"
#include "org_binderc_test_IHal.h"

struct rec {
	uint32_t code, flags;
	int calls;
};

static int rec_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	struct rec *r = ud;
	bc_status st = BINDERC_STATUS_INIT;
	int e;

	(void)self;
	(void)in;
	r->code = code;
	r->flags = bc_txn_get_flags(txn);
	r->calls++;
	if (r->flags & BINDERC_FLAG_ONEWAY)
		return 0;
	e = bc_parcel_write_status(reply, &st);
	/* getInterfaceVersion's answer (the others ignore what follows) */
	return e < 0 ? e : bc_parcel_write_int32(reply, 3);
}

static bc_binder *rec_new(const char *descriptor, struct rec *r)
{
	bc_class *c = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new(descriptor, rec_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, r, &b), 0);
	bc_class_unref(c);
	return b;
}

Test(aidl_sensitive, every_call_clears_buffers)
{
	struct rec r = { 0 };
	bc_binder *b = rec_new(org_binderc_test_IHal_DESCRIPTOR, &r);
	int32_t v = 0;

	cr_assert_eq(org_binderc_test_IHal_onTransferReady(b), 0);
	cr_expect_eq(r.code, org_binderc_test_IHal_CODE_onTransferReady);
	cr_expect_eq(r.flags, BINDERC_FLAG_ONEWAY | BINDERC_FLAG_CLEAR_BUF);
	cr_assert_eq(org_binderc_test_IHal_int_(b, 9), 0);
	cr_expect_eq(r.code, org_binderc_test_IHal_CODE_int_);
	cr_expect_eq(r.flags, BINDERC_FLAG_CLEAR_BUF);
	cr_assert_eq(org_binderc_test_IHal_getInterfaceVersion(b, &v), 0);
	cr_expect_eq(v, 3);
	cr_expect_eq(r.code, 16777215u);
	cr_expect_eq(r.flags, BINDERC_FLAG_CLEAR_BUF);
	cr_expect_eq(r.calls, 3);
	bc_binder_unref(b);
}

Test(aidl_sensitive, unannotated_calls_do_not)
{
	struct rec r = { 0 };
	bc_binder *b = rec_new(org_binderc_test_ICallback_DESCRIPTOR, &r);
	int32_t v = 0;

	cr_assert_eq(org_binderc_test_ICallback_done(b, 1, "x"), 0);
	cr_expect_eq(r.flags, BINDERC_FLAG_ONEWAY);
	cr_assert_eq(org_binderc_test_ICallback_getInterfaceVersion(b, &v), 0);
	cr_expect_eq(r.flags, 0u);
	bc_binder_unref(b);
}

/* The generated text: each of IHal's six proxy functions (four methods,
 * two meta) marks its request first; ICallback's do not. */
#define MARKED "\t_r = bc_binder_new_parcel(binder, &_data);\n\tif (_r < 0)\n\t\tgoto out;\n" \
	       "\tbc_parcel_mark_sensitive(_data);\n\t_r = bc_parcel_write_interface_token("

Test(aidl_sensitive, requests_marked_before_writing)
{
	char *hal = at_gen_text("org_binderc_test_IHal"), *cb = at_gen_text("org_binderc_test_ICallback");

	cr_expect_eq(at_count(hal, MARKED), 6);
	cr_expect_eq(at_count(hal, "bc_parcel_mark_sensitive"), 6);
	cr_expect_eq(at_count(cb, "bc_parcel_mark_sensitive"), 0);
	cr_expect_eq(at_count(cb, "CLEAR_BUF"), 0);
	free(hal);
	free(cb);
}
