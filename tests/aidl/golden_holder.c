/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of ParcelableHolder fields (Extendable.aidl,
 * VExtendable.aidl).  Android's ParcelableHolder::writeToParcel writes
 * int32 stability (Parcelable::Stability: 0 local, 1 VINTF, the enclosing
 * parcelable's), int32 size (0 for an empty holder), then the holder's own
 * parcel: String16 descriptor and the parcelable's body.  readFromParcel
 * refuses another stability and a negative size.
 */
#include "at.h"

#include "org_binderc_test_Extendable.h"
#include "org_binderc_test_Point.h"
#include "org_binderc_test_VExtendable.h"

/* What Android puts in a holder after setParcelable(point). */
static bc_parcel *point_blob(void)
{
	bc_parcel *b = at_parcel();
	org_binderc_test_Point pt;

	cr_assert_eq(org_binderc_test_Point_init(&pt), 0);
	pt.x = 3;
	bc_parcel_write_string16(b, "org.binderc.test.Point");
	cr_assert_eq(org_binderc_test_Point_write(b, &pt), 0);
	org_binderc_test_Point_clear(&pt);
	return b;
}

Test(aidl_holder, empty_holder)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Extendable e;

	cr_assert_eq(org_binderc_test_Extendable_init(&e), 0);
	cr_assert_null(e.ext.data);
	cr_assert_eq(org_binderc_test_Extendable_write(p, &e), 0);
	at_bytes(p, AT_BYTES(20, 0, 0, 0, /* size */ 1, 0, 0, 0, /* a */ 0, 0, 0, 0, /* local */
			     0, 0, 0, 0, /* empty */ 2, 0, 0, 0 /* b */));
	org_binderc_test_Extendable_clear(&e);
	bc_parcel_unref(p);
}

Test(aidl_holder, point_extension_round_trip)
{
	bc_parcel *p = at_parcel(), *q = at_parcel(), *blob = point_blob();
	org_binderc_test_Extendable e, r;
	size_t tok, n = bc_parcel_size(blob);

	cr_assert_eq(org_binderc_test_Extendable_init(&e), 0);
	e.ext.data = malloc(n);
	memcpy(e.ext.data, bc_parcel_data(blob), n);
	e.ext.len = n;
	cr_assert_eq(org_binderc_test_Extendable_write(p, &e), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 0); /* STABILITY_LOCAL */
	bc_parcel_write_int32(q, (int32_t)n);
	bc_parcel_write_raw(q, bc_parcel_data(blob), n);
	bc_parcel_write_int32(q, 2);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Extendable_read(p, &r), 0);
	cr_assert_eq(r.ext.len, n);
	cr_assert_eq(memcmp(r.ext.data, bc_parcel_data(blob), n), 0);
	cr_assert_eq(r.b, 2);
	org_binderc_test_Extendable_clear(&r), org_binderc_test_Extendable_clear(&e);
	bc_parcel_unref(p), bc_parcel_unref(q), bc_parcel_unref(blob);
}

Test(aidl_holder, stability_is_checked)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_VExtendable v, r;
	org_binderc_test_Extendable e;

	cr_assert_eq(org_binderc_test_VExtendable_init(&v), 0);
	cr_assert_eq(org_binderc_test_VExtendable_write(p, &v), 0);
	at_bytes(p, AT_BYTES(12, 0, 0, 0, 1, 0, 0, 0, /* VINTF */ 0, 0, 0, 0));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_VExtendable_read(p, &r), 0);
	org_binderc_test_VExtendable_clear(&r);
	org_binderc_test_VExtendable_clear(&v);
	bc_parcel_unref(p);
	p = at_parcel(); /* a VINTF holder where a local one is expected */
	bc_parcel_write_raw(p, AT_BYTES(20, 0, 0, 0, 1, 0, 0, 0, /* VINTF */ 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Extendable_read(p, &e), -EBADMSG);
	bc_parcel_unref(p);
}

Test(aidl_holder, malformed_sizes)
{
	static const int32_t bad[][2] = { { 0, -1 }, { 0, 6 }, { 0, 64 } };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bc_parcel *p = at_parcel();
		org_binderc_test_Extendable e;
		size_t tok;

		bc_parcel_begin_parcelable(p, &tok);
		bc_parcel_write_int32(p, 1);
		bc_parcel_write_int32(p, bad[i][0]);
		bc_parcel_write_int32(p, bad[i][1]);
		bc_parcel_write_int32(p, 0);
		bc_parcel_write_int32(p, 0);
		bc_parcel_end_parcelable(p, tok);
		at_rewind(p);
		cr_assert_lt(org_binderc_test_Extendable_read(p, &e), 0, "case %zu", i);
		bc_parcel_unref(p);
	}
	{ /* an extension carrying a file descriptor is refused */
		bc_parcel *p = at_parcel();
		org_binderc_test_Extendable e;
		size_t tok;

		bc_parcel_begin_parcelable(p, &tok);
		bc_parcel_write_int32(p, 1);
		bc_parcel_write_int32(p, 0);
		bc_parcel_write_int32(p, 24);
		bc_parcel_write_fd(p, 0, false);
		bc_parcel_write_int32(p, 2);
		bc_parcel_end_parcelable(p, tok);
		at_rewind(p);
		cr_assert_eq(org_binderc_test_Extendable_read(p, &e), -EBADMSG);
		bc_parcel_unref(p);
	}
}

/* A length that is not 4-aligned cannot be what Android sends. */
Test(aidl_holder, unaligned_refused_when_sending)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Extendable e;

	cr_assert_eq(org_binderc_test_Extendable_init(&e), 0);
	e.ext.data = strdup("abc");
	e.ext.len = 3;
	cr_assert_eq(org_binderc_test_Extendable_write(p, &e), -EINVAL);
	org_binderc_test_Extendable_clear(&e);
	bc_parcel_unref(p);
}
