/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of array defaults (Defaults.aidl, UDefaults.aidl): _init()
 * gives each array field the elements of its { ... } default, as Android's
 * backends construct them, and a parcelable fresh from _init() is written
 * with those arrays (int32 count, elements; byte[] packed).
 */
#include "at.h"

#include "org_binderc_test_Defaults.h"
#include "org_binderc_test_GridDefaults.h"
#include "org_binderc_test_UDefaults.h"

Test(aidl_defaults, initial_arrays)
{
	org_binderc_test_Defaults d;

	cr_assert_eq(org_binderc_test_Defaults_init(&d), 0);
	cr_assert_eq(d.arrayDefaultsTo123_len, 3);
	cr_assert(d.arrayDefaultsTo123[0] == 1 && d.arrayDefaultsTo123[2] == 3);
	cr_assert_not_null(d.arrayDefaultsToEmpty); /* an empty array, not null */
	cr_assert_eq(d.arrayDefaultsToEmpty_len, 0);
	cr_assert_eq(d.strings_len, 2);
	cr_assert_str_eq(d.strings[1], "b");
	cr_assert_str_eq(d.maybe[0], "d");
	cr_assert(d.bytes_len == 3 && d.bytes[1] == -1 && d.bytes[2] == 0x7f);
	cr_assert(d.colors_len == 2 && d.colors[1] == org_binderc_test_Color_BLUE);
	cr_assert(d.pair_len == 2 && d.pair[0] == INT64_C(1) << 40 && d.pair[1] == -1);
	cr_assert(d.flags[0] && !d.flags[1]);
	cr_assert_eq(d.chars[0], 'x');
	cr_assert(d.ds[0] == 1.5 && d.ds[1] == 2.0);
	org_binderc_test_Defaults_clear(&d);
}

Test(aidl_defaults, written_and_read_back)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Defaults d, r;
	size_t tok;

	cr_assert_eq(org_binderc_test_Defaults_init(&d), 0);
	cr_assert_eq(org_binderc_test_Defaults_write(p, &d), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int32(q, 0);
	bc_parcel_write_string16_array(q, (const char *const[]){ "a", "b" }, 2);
	bc_parcel_write_string16_array(q, (const char *const[]){ "c" }, 1);
	bc_parcel_write_string16_array(q, (const char *const[]){ "d" }, 1);
	bc_parcel_write_byte_array(q, "\x01\xff\x7f", 3);
	bc_parcel_write_int32_array(q, (const int32_t[]){ org_binderc_test_Color_RED, org_binderc_test_Color_BLUE }, 2); /* int-backed */
	bc_parcel_write_int64_array(q, (const int64_t[]){ INT64_C(1) << 40, -1 }, 2);
	bc_parcel_write_bool_array(q, (const bool[]){ true, false }, 2);
	bc_parcel_write_char_array(q, (const uint16_t[]){ 'x' }, 1);
	bc_parcel_write_double_array(q, (const double[]){ 1.5, 2.0 }, 2);
	bc_parcel_write_int32(q, 7);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	/* reading replaces the defaults (no leak under ASan) */
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Defaults_read(q, &r), 0);
	cr_assert_eq(r.arrayDefaultsTo123_len, 3);
	org_binderc_test_Defaults_clear(&r), org_binderc_test_Defaults_clear(&d);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_defaults, union_starts_with_its_first_array)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_UDefaults u, r;

	cr_assert_eq(org_binderc_test_UDefaults_init(&u), 0);
	cr_assert_eq(u._tag, org_binderc_test_UDefaults_TAG_numbers);
	cr_assert_eq(org_binderc_test_UDefaults_write(p, &u), 0);
	bc_parcel_write_int32(q, 0);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 4, 5 }, 2);
	at_same(p, q);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_UDefaults_read(q, &r), 0);
	cr_assert(r.numbers_len == 2 && r.numbers[1] == 5);
	org_binderc_test_UDefaults_clear(&r), org_binderc_test_UDefaults_clear(&u);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

#include "org_binderc_test_EmptyDefaults.h"

/* {} on arrays of parcelables, binders and fds: empty, non-null arrays,
 * written as count 0 (a @nullable one too: it is not null). */
Test(aidl_defaults, empty_arrays_of_objects)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_EmptyDefaults u, r;
	org_binderc_test_EmptyDefaults_Kinds k, rk;
	size_t tok;

	cr_assert_eq(org_binderc_test_EmptyDefaults_init(&u), 0);
	cr_assert_eq(u._tag, org_binderc_test_EmptyDefaults_TAG_points);
	cr_assert(u.points && u.points_len == 0);
	cr_assert_eq(org_binderc_test_EmptyDefaults_write(p, &u), 0);
	bc_parcel_write_int32(q, 0);
	bc_parcel_write_int32(q, 0);
	at_same(p, q);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_EmptyDefaults_read(q, &r), 0);
	cr_assert_eq(r.points_len, 0);
	org_binderc_test_EmptyDefaults_clear(&r), org_binderc_test_EmptyDefaults_clear(&u);
	bc_parcel_unref(p), bc_parcel_unref(q);

	p = at_parcel(), q = at_parcel();
	cr_assert_eq(org_binderc_test_EmptyDefaults_Kinds_init(&k), 0);
	cr_assert(k.maybe && k.list && k.binders && k.maybeBinders && k.pfds);
	cr_assert_null(k.stillNull);
	cr_assert_eq(org_binderc_test_EmptyDefaults_Kinds_write(p, &k), 0);
	bc_parcel_begin_parcelable(q, &tok);
	for (int i = 0; i < 5; i++)
		bc_parcel_write_int32(q, 0);
	bc_parcel_write_int32(q, -1); /* the @nullable array without a default */
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_EmptyDefaults_Kinds_read(q, &rk), 0);
	cr_assert(rk.maybe && rk.maybe_len == 0 && !rk.stillNull);
	org_binderc_test_EmptyDefaults_Kinds_clear(&rk), org_binderc_test_EmptyDefaults_Kinds_clear(&k);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

/* T[N][M] defaults: _init() makes N * M elements, row-major, and the
 * fresh parcelable is written as Android writes its default one: int32 N,
 * then each row as T[M]. */
Test(aidl_defaults, two_dimensional_defaults)
{
	org_binderc_test_GridDefaults g;
	bc_parcel *p = at_parcel(), *q = at_parcel();
	size_t tok;

	cr_assert_eq(org_binderc_test_GridDefaults_init(&g), 0);
	cr_assert_eq(g.m_len, 6);
	for (int i = 0; i < 6; i++)
		cr_assert_eq(g.m[i], i + 1);
	cr_assert_eq(g.s_len, 2);
	cr_assert_str_eq(g.s[0], "a");
	cr_assert_str_eq(g.s[1], "b");
	cr_assert(g.c_len == 2 && g.c[0] == org_binderc_test_Color_RED && g.c[1] == org_binderc_test_Color_BLUE);
	cr_assert(g.b_len == 4 && g.b[1] == -1 && g.b[2] == 0x7f);
	cr_assert_str_eq(g.u[1], "y");
	cr_assert_eq(org_binderc_test_GridDefaults_write(p, &g), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 4, 5, 6 }, 3);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_string16_array(q, (const char *const[]){ "a", "b" }, 2);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 0 }, 1);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 6 }, 1);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_byte_array(q, (const int8_t[]){ 1, -1 }, 2);
	bc_parcel_write_byte_array(q, (const int8_t[]){ 0x7f, 2 }, 2);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_string16_array(q, (const char *const[]){ "x" }, 1);
	bc_parcel_write_string16_array(q, (const char *const[]){ "y" }, 1);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	/* and the literal bytes of the first field */
	cr_assert(bc_parcel_size(p) > 36);
	th_assert_bytes((const uint8_t *)bc_parcel_data(p) + 4, 36,
			AT_BYTES(2, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0,
				 6, 0, 0, 0));
	org_binderc_test_GridDefaults_clear(&g);
	bc_parcel_unref(p);
	bc_parcel_unref(q);
}
