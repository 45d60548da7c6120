/* SPDX-License-Identifier: MIT */
/* Helpers shared by the libbinder-c host unit tests. */
#ifndef BINDERC_UT_H
#define BINDERC_UT_H

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <binderc/binderc.h>

#include "harness.h"

/* A fresh parcel in a given dialect. */
static inline bc_parcel *ut_parcel(int wire)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, wire, BINDERC_PARTITION_SYSTEM), 0);
	return p;
}

/* Compare a parcel's data with expected bytes, printing both on mismatch. */
static inline void ut_expect_bytes(const bc_parcel *p, const void *exp, size_t n)
{
	th_assert_bytes(bc_parcel_data(p), bc_parcel_size(p), exp, n);
}

/* Reopen the written data as a read-only parcel (a "received" copy). */
static inline bc_parcel *ut_reopen(const bc_parcel *p)
{
	size_t n;
	const uint64_t *o = bc_parcel_offsets(p, &n);
	bc_parcel *q = NULL;

	cr_assert_eq(bc_parcel_new_from_data(bc_parcel_data(p), bc_parcel_size(p), o, n, &q), 0);
	bc_parcel_set_wire(q, bc_parcel_get_wire(p), BINDERC_PARTITION_SYSTEM);
	return q;
}

/* A handler that answers every call with an empty reply. */
static inline int ut_nop(bc_binder *s, bc_txn *t, uint32_t c, bc_parcel *i, bc_parcel *r, void *u)
{
	(void)s, (void)t, (void)c, (void)i, (void)r, (void)u;
	return 0;
}

/* A local object of a class named @descriptor, served by ut_nop(). */
static inline bc_binder *ut_new_local(const char *descriptor)
{
	bc_class *c;
	bc_binder *b;

	cr_assert_eq(bc_class_new(descriptor, ut_nop, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &b), 0);
	bc_class_unref(c);
	return b;
}

#endif
