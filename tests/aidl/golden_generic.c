/* SPDX-License-Identifier: MIT */
/*
 * Golden test of a generic parcelable (Generic.aidl, IGeneric.aidl): the
 * type arguments do not reach the wire, so Generic<int, Point, Color> is
 * written as the non-generic parcelable would be (int32 1, size, fields).
 */
#include "at.h"

#include "org_binderc_test_Generic.h"
#include "org_binderc_test_IGeneric.h"

static int g_echo(void *self, const org_binderc_test_Generic *g, org_binderc_test_Generic *ret)
{
	(void)self;
	ret->a = g->a + 1;
	ret->b = g->b;
	return 0;
}

static int g_many(void *self, const org_binderc_test_Generic *gs, size_t n, org_binderc_test_Generic *one)
{
	(void)self, (void)gs;
	one->a = (int32_t)n;
	return 0;
}

static int g_listed(void *self, const org_binderc_test_Generic *l, size_t n, org_binderc_test_Generic **ret,
		    size_t *ret_n)
{
	(void)self, (void)l;
	*ret_n = n;
	return org_binderc_test_Generic_new_array(n, ret);
}

static const struct org_binderc_test_IGeneric_ops gops = { .echo = g_echo, .many = g_many, .listed = g_listed };

Test(aidl_generic, same_bytes_as_a_plain_parcelable)
{
	bc_parcel *in = at_parcel(), *reply = at_parcel();
	org_binderc_test_Generic g, r;
	bc_binder *svc = NULL;

	bc_parcel_write_raw(in, AT_BYTES(1, 0, 0, 0, 12, 0, 0, 0, 41, 0, 0, 0, 2, 0, 0, 0));
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGeneric_dispatch(&gops, NULL, org_binderc_test_IGeneric_CODE_echo, in, reply), 0);
	at_bytes(reply, AT_BYTES(0, 0, 0, 0, /* no exception */ 1, 0, 0, 0, 12, 0, 0, 0, 42, 0, 0, 0, 2, 0, 0, 0));
	cr_assert_eq(org_binderc_test_IGeneric_stub_new(&gops, NULL, NULL, &svc), 0);
	cr_assert_eq(org_binderc_test_Generic_init(&g), 0);
	g.a = 7;
	cr_assert_eq(org_binderc_test_IGeneric_echo(svc, &g, &r), 0);
	cr_assert(r.a == 8 && r.b == 2);
	org_binderc_test_Generic_clear(&r), org_binderc_test_Generic_clear(&g);
	bc_binder_unref(svc);
	bc_parcel_unref(in), bc_parcel_unref(reply);
}
