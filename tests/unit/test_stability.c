/* SPDX-License-Identifier: MIT */
/*
 * Stability of local objects: the word after a binder object in every
 * dialect, written out by hand from Android's libbinder (Android 11 and
 * 13+: the level as an int32; Android 12: Category {u8 version 1, u8
 * reserved[2], u8 level}), for objects marked by hand as
 * bc_binder_set_stability() does for @VintfStability stubs, and the rules
 * of marking and requiring levels.  Proxies need a driver or a socket:
 * tests/rpc/test_rpc_stability.c checks what a proxy requires.
 */
#include "ut.h"


/* The word written after @b (marked @level) in @wire from @partition, or
 * -1 when the dialect has none. */
static int64_t word_after(int wire, int partition, int level)
{
	bc_binder *b = ut_new_local("stability.IX");
	bc_parcel *p = NULL;
	uint32_t w;
	int64_t ret = -1;

	cr_assert_eq(bc_binder_set_stability(b, level), 0);
	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, wire, partition), 0);
	cr_assert_eq(bc_parcel_write_binder(p, b), 0);
	cr_assert(bc_parcel_size(p) == 24 || bc_parcel_size(p) == 28);
	if (bc_parcel_size(p) == 28) {
		memcpy(&w, (const unsigned char *)bc_parcel_data(p) + 24, 4);
		ret = w;
	}
	bc_parcel_unref(p);
	bc_binder_unref(b);
	return ret;
}

#define SYS BINDERC_PARTITION_SYSTEM
#define VND BINDERC_PARTITION_VENDOR

Test(stability, vintf_word_in_every_dialect)
{
	/* Android 9 and 10 carry no stability word at all. */
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_9, SYS, BINDERC_STABILITY_VINTF), -1);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_10, SYS, BINDERC_STABILITY_VINTF), -1);
	/* 0x3f = 0b111111, little-endian 3f 00 00 00 */
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_11, SYS, BINDERC_STABILITY_VINTF), 0x3f);
	/* bytes 01 00 00 3f: version 1, two reserved bytes, the level */
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_12, SYS, BINDERC_STABILITY_VINTF), 0x3f000001);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_13, SYS, BINDERC_STABILITY_VINTF), 0x3f);
	/* A marked level does not depend on the partition it goes out from. */
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_11, VND, BINDERC_STABILITY_VINTF), 0x3f);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_12, VND, BINDERC_STABILITY_VINTF), 0x3f000001);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_13, VND, BINDERC_STABILITY_VINTF), 0x3f);
}

Test(stability, by_hand_and_default_levels)
{
	/* unmarked: the partition's own level */
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_13, SYS, 0), 0x0c);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_13, VND, 0), 0x03);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_12, VND, 0), 0x03000001);
	/* marked by hand: that level, from either partition */
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_13, VND, BINDERC_STABILITY_SYSTEM), 0x0c);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_13, SYS, BINDERC_STABILITY_VENDOR), 0x03);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_12, SYS, BINDERC_STABILITY_VENDOR), 0x03000001);
	cr_expect_eq(word_after(BINDERC_WIRE_ANDROID_11, SYS, BINDERC_STABILITY_SYSTEM), 0x0c);
}

Test(stability, marking_rules)
{
	bc_binder *b = ut_new_local("stability.IX");

	cr_expect_eq(bc_binder_get_stability(b), BINDERC_STABILITY_UNDECLARED);
	cr_expect_eq(bc_binder_set_stability(b, BINDERC_STABILITY_VINTF), 0);
	cr_expect_eq(bc_binder_get_stability(b), BINDERC_STABILITY_VINTF);
	/* only the levels Android declares */
	cr_expect_eq(bc_binder_set_stability(b, 0x0f), -EINVAL);
	cr_expect_eq(bc_binder_set_stability(b, 1), -EINVAL);
	cr_expect_eq(bc_binder_set_stability(b, -1), -EINVAL);
	cr_expect_eq(bc_binder_get_stability(b), BINDERC_STABILITY_VINTF);
	/* not sent yet: it may still change */
	cr_expect_eq(bc_binder_set_stability(b, BINDERC_STABILITY_SYSTEM), 0);
	cr_expect_eq(bc_binder_set_stability(b, 0), 0);
	cr_expect_eq(bc_binder_set_stability(NULL, BINDERC_STABILITY_VINTF), -EINVAL);
	cr_expect_eq(bc_binder_get_stability(NULL), -EINVAL);
	bc_binder_unref(b);
}

Test(stability, requiring_of_local_objects_and_bad_levels)
{
	bc_binder *b = ut_new_local("stability.IX");
	bc_parcel *reply = NULL;

	/* A local object's calls never leave the process: nothing refused,
	 * whatever it is marked. */
	cr_expect_eq(bc_binder_set_stability(b, BINDERC_STABILITY_VENDOR), 0);
	cr_expect_eq(bc_binder_require_stability(b, BINDERC_STABILITY_VINTF), 0);
	cr_expect_eq(bc_binder_transact(b, 1, NULL, &reply, 0, NULL), 0);
	bc_parcel_unref(reply);
	/* a requirement is one of the declared levels */
	cr_expect_eq(bc_binder_require_stability(b, 0), -EINVAL);
	cr_expect_eq(bc_binder_require_stability(b, 0x30), -EINVAL);
	cr_expect_eq(bc_binder_require_stability(NULL, BINDERC_STABILITY_VINTF), -EINVAL);
	bc_binder_unref(b);
}

Test(stability, read_back_keeps_the_object)
{
	bc_binder *b = ut_new_local("stability.IX"), *got = NULL;
	bc_parcel *p = ut_parcel(BINDERC_WIRE_ANDROID_12);

	cr_assert_eq(bc_binder_set_stability(b, BINDERC_STABILITY_VINTF), 0);
	cr_assert_eq(bc_parcel_write_binder(p, b), 0);
	cr_assert_eq(bc_parcel_write_int32(p, 7), 0);
	/* the parcel that holds the object reads it back, past its word */
	cr_assert_eq(bc_parcel_set_position(p, 0), 0);
	cr_assert_eq(bc_parcel_read_binder(p, &got), 0);
	cr_expect_eq(got, b);
	cr_expect_eq(bc_binder_get_stability(got), BINDERC_STABILITY_VINTF);
	cr_expect_eq(bc_parcel_remaining(p), 4);
	bc_binder_unref(got);
	bc_parcel_unref(p);
	bc_binder_unref(b);
}
