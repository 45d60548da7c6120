/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of nested interfaces (IOuter.aidl): an interface declared
 * in an interface or a parcelable has its own proxy, stub and dispatch,
 * named OUTER_INNER in C, and the qualified name (a.b.IOuter.IInner) as
 * its descriptor, as Android's backends give it.
 */
#include "at.h"

#include "org_binderc_test_IOuter.h"

Test(aidl_nested_iface, descriptors_and_codes)
{
	cr_assert_str_eq(org_binderc_test_IOuter_IInner_DESCRIPTOR, "org.binderc.test.IOuter.IInner");
	cr_assert_str_eq(org_binderc_test_IOuter_IEvents_DESCRIPTOR, "org.binderc.test.IOuter.IEvents");
	cr_assert_str_eq(org_binderc_test_IOuter_Slot_IPeek_DESCRIPTOR, "org.binderc.test.IOuter.Slot.IPeek");
	cr_assert_eq(org_binderc_test_IOuter_IInner_CODE_twice, 1);
	cr_assert_eq(org_binderc_test_IOuter_IEvents_CODE_fired, 1);
	cr_assert_eq(org_binderc_test_IOuter_CODE_fromSlot, 3);
}

static int in_twice(void *self, int32_t n, int32_t *_ret)
{
	*_ret = 2 * n + (int32_t)(intptr_t)self;
	return 0;
}

static const struct org_binderc_test_IOuter_IInner_ops inner_ops = { .twice = in_twice };

Test(aidl_nested_iface, stub_dispatch_bytes)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();

	bc_parcel_write_int32(in, 21);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IOuter_IInner_dispatch(&inner_ops, NULL, org_binderc_test_IOuter_IInner_CODE_twice,
							     in, reply),
		     0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 42);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

static int fired_n;

static int ev_fired(void *self, int32_t n)
{
	(void)self;
	fired_n = n;
	return 0;
}

static const struct org_binderc_test_IOuter_IEvents_ops ev_ops = { .fired = ev_fired };

static int pk_peek(void *self, char **_ret)
{
	*_ret = strdup(self);
	return 0;
}

static const struct org_binderc_test_IOuter_Slot_IPeek_ops pk_ops = { .peek = pk_peek };

static int o_watch(void *self, bc_binder *e)
{
	(void)self;
	return org_binderc_test_IOuter_IEvents_fired(e, 7);
}

static int o_make(void *self, int32_t base, bc_binder **_ret)
{
	(void)self;
	return org_binderc_test_IOuter_IInner_stub_new(&inner_ops, (void *)(intptr_t)base, NULL, _ret);
}

static int o_from_slot(void *self, const org_binderc_test_IOuter_Slot *s, bc_binder **_ret)
{
	(void)self;
	*_ret = s->peeker ? bc_binder_ref(s->peeker) : NULL;
	return 0;
}

static const struct org_binderc_test_IOuter_ops outer_ops = {
	.watch = o_watch,
	.make = o_make,
	.fromSlot = o_from_slot,
};

/* Through the generated proxies on local objects: each nested interface
 * is its own class, and they pass through each other's calls. */
Test(aidl_nested_iface, loopback)
{
	bc_binder *outer = NULL, *inner = NULL, *ev = NULL, *pk = NULL, *got = NULL;
	org_binderc_test_IOuter_Slot s;
	int32_t r = 0;
	char *str = NULL;

	cr_assert_eq(org_binderc_test_IOuter_stub_new(&outer_ops, NULL, NULL, &outer), 0);
	cr_assert_eq(org_binderc_test_IOuter_make(outer, 100, &inner), 0);
	cr_assert_str_eq(bc_class_get_descriptor(bc_binder_get_class(inner)), "org.binderc.test.IOuter.IInner");
	cr_assert_eq(org_binderc_test_IOuter_IInner_twice(inner, 4, &r), 0);
	cr_assert_eq(r, 108);

	cr_assert_eq(org_binderc_test_IOuter_IEvents_stub_new(&ev_ops, NULL, NULL, &ev), 0);
	cr_assert_eq(org_binderc_test_IOuter_watch(outer, ev), 0);
	cr_assert_eq(fired_n, 7);

	cr_assert_eq(org_binderc_test_IOuter_Slot_init(&s), 0);
	s.inner = bc_binder_ref(inner);
	cr_assert_eq(org_binderc_test_IOuter_fromSlot(outer, &s, &got), 0);
	cr_assert_null(got); /* a @nullable nested-interface field, null */
	cr_assert_eq(org_binderc_test_IOuter_Slot_IPeek_stub_new(&pk_ops, "peeked", NULL, &pk), 0);
	s.peeker = bc_binder_ref(pk);
	cr_assert_eq(org_binderc_test_IOuter_fromSlot(outer, &s, &got), 0);
	cr_assert_eq(got, pk);
	cr_assert_eq(org_binderc_test_IOuter_Slot_IPeek_peek(got, &str), 0);
	cr_assert_str_eq(str, "peeked");
	free(str);
	/* a non-nullable interface field may not be NULL */
	s.inner = bc_binder_unref(s.inner);
	cr_assert_eq(org_binderc_test_IOuter_fromSlot(outer, &s, &got), -EINVAL);
	org_binderc_test_IOuter_Slot_clear(&s);
	bc_binder_unref(got), bc_binder_unref(pk), bc_binder_unref(ev), bc_binder_unref(inner), bc_binder_unref(outer);
}

/* Slot's body: int32 size, the nullable binder (null), the binder, n. */
Test(aidl_nested_iface, parcelable_with_interface_fields)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_IOuter_Slot s;
	bc_binder *inner = NULL;
	size_t tok;

	cr_assert_eq(org_binderc_test_IOuter_IInner_stub_new(&inner_ops, NULL, NULL, &inner), 0);
	cr_assert_eq(org_binderc_test_IOuter_Slot_init(&s), 0);
	s.inner = bc_binder_ref(inner);
	cr_assert_eq(org_binderc_test_IOuter_Slot_write(p, &s), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_binder(q, NULL);
	bc_parcel_write_binder(q, inner);
	bc_parcel_write_int32(q, 1);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	org_binderc_test_IOuter_Slot_clear(&s);
	bc_binder_unref(inner);
	bc_parcel_unref(p), bc_parcel_unref(q);
}
