/* SPDX-License-Identifier: MIT */
/*
 * bc_binder_set_sched(): the flat_binder_object flags a local object is
 * written with (the driver reads them when the node is made), and the
 * arguments it refuses.
 */
#include <uapi/binder.h>
#include <sched.h>

#include "ut.h"

#define POLICY_SHIFT 9
#define INHERIT_RT   0x800u

static int nop_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in,
			bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

static bc_binder *new_local(void)
{
	bc_class *cls;
	bc_binder *b;

	cr_assert_eq(bc_class_new("test.ISched", nop_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	bc_class_unref(cls);
	return b;
}

/* The flags of @b as written into a parcel. */
static uint32_t written_flags(bc_binder *b)
{
	bc_parcel *p = ut_parcel(BINDERC_WIRE_DEFAULT);
	struct flat_binder_object o;

	cr_assert_eq(bc_parcel_write_binder(p, b), 0);
	memcpy(&o, bc_parcel_data(p), sizeof(o));
	cr_assert_eq(o.hdr.type, BINDER_TYPE_BINDER);
	bc_parcel_unref(p);
	return o.flags;
}

Test(sched, default_is_mainlines_nice_19_and_fds)
{
	bc_binder *b = new_local();

	cr_assert_eq(written_flags(b), FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x13);
	bc_binder_unref(b);
}

Test(sched, fifo_minimum_with_inheritance)
{
	bc_binder *b = new_local();

	cr_assert_eq(bc_binder_set_sched(b, SCHED_FIFO, 42, true), 0);
	cr_assert_eq(written_flags(b),
		     FLAT_BINDER_FLAG_ACCEPTS_FDS | (1u << POLICY_SHIFT) | INHERIT_RT | 42);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_RR, 99, false), 0);
	cr_assert_eq(written_flags(b), FLAT_BINDER_FLAG_ACCEPTS_FDS | (2u << POLICY_SHIFT) | 99);
	bc_binder_unref(b);
}

Test(sched, nice_minimum_is_a_signed_byte)
{
	bc_binder *b = new_local();

	cr_assert_eq(bc_binder_set_sched(b, SCHED_OTHER, -20, true), 0);
	cr_assert_eq(written_flags(b), FLAT_BINDER_FLAG_ACCEPTS_FDS | INHERIT_RT | 0xec);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_OTHER, 19, false), 0);
	cr_assert_eq(written_flags(b), FLAT_BINDER_FLAG_ACCEPTS_FDS | 19);
	bc_binder_unref(b);
}

Test(sched, bad_arguments_refused_and_nothing_changed)
{
	bc_binder *b = new_local();
	bc_binder *proxy = NULL;

	cr_assert_eq(bc_binder_set_sched(b, SCHED_FIFO, 5, true), 0);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_FIFO, 0, true), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_FIFO, 100, true), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_RR, -1, false), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_OTHER, 20, false), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_OTHER, -21, false), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_BATCH, 0, false), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, SCHED_IDLE, 0, false), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(b, 7, 1, false), -EINVAL);
	cr_assert_eq(bc_binder_set_sched(proxy, SCHED_FIFO, 5, false), -EINVAL);
	cr_assert_eq(written_flags(b),
		     FLAT_BINDER_FLAG_ACCEPTS_FDS | (1u << POLICY_SHIFT) | INHERIT_RT | 5);
	bc_binder_unref(b);
}
