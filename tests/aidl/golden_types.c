/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of the code bc-aidl generates for enums and parcelables
 * (tests/aidl/good/org/binderc/test/): the bytes it writes equal what the
 * hand-written bc_parcel calls (and, for a few, the literal Android wire
 * bytes) give, and reading them back gives the same values.
 */
#include "at.h"

#include "org_binderc_test_Color.h"
#include "org_binderc_test_Holder.h"
#include "org_binderc_test_Level.h"
#include "org_binderc_test_Point.h"
#include "org_binderc_test_Shape.h"
#include "org_binderc_test_Stamp.h"

/* ---- enums ---------------------------------------------------------------- */

Test(aidl_enum, values)
{
	cr_assert_eq(org_binderc_test_Color_RED, 0);
	cr_assert_eq(org_binderc_test_Color_GREEN, 5);
	cr_assert_eq(org_binderc_test_Color_BLUE, 6);	  /* previous + 1 */
	cr_assert_eq(org_binderc_test_Color_WHITE, 0x105); /* GREEN | 0x100 */
	cr_assert_eq(org_binderc_test_Level_LOW, -1);
	cr_assert_eq(org_binderc_test_Level_MID, 0);
	cr_assert_eq(org_binderc_test_Level_HIGH, 127);
	cr_assert_eq(org_binderc_test_Stamp_FAR, INT64_C(1) << 40);
	cr_assert_eq(sizeof(org_binderc_test_Level), 1); /* byte backing */
	cr_assert_eq(sizeof(org_binderc_test_Color), 4);
	cr_assert_eq(sizeof(org_binderc_test_Stamp), 8);
}

Test(aidl_enum, int_backed_is_int32)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Color c = 0;

	cr_assert_eq(org_binderc_test_Color_write(p, org_binderc_test_Color_WHITE), 0);
	bc_parcel_write_int32(q, 0x105);
	at_same(p, q);
	at_bytes(p, AT_BYTES(0x05, 0x01, 0, 0));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Color_read(p, &c), 0);
	cr_assert_eq(c, org_binderc_test_Color_WHITE);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_enum, byte_backed_is_widened_byte)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Level l = 0;

	cr_assert_eq(org_binderc_test_Level_write(p, org_binderc_test_Level_LOW), 0);
	cr_assert_eq(org_binderc_test_Level_write(p, org_binderc_test_Level_HIGH), 0);
	bc_parcel_write_byte(q, -1);
	bc_parcel_write_byte(q, 127);
	at_same(p, q);
	at_bytes(p, AT_BYTES(0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Level_read(p, &l), 0);
	cr_assert_eq(l, -1);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_enum, long_backed_is_int64)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Stamp s = 0;

	cr_assert_eq(org_binderc_test_Stamp_write(p, org_binderc_test_Stamp_FAR), 0);
	cr_assert_eq(org_binderc_test_Stamp_write(p, org_binderc_test_Stamp_NEG), 0);
	at_bytes(p, AT_BYTES(0, 0, 0, 0, 0, 1, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Stamp_read(p, &s), 0);
	cr_assert_eq(s, INT64_C(1) << 40);
	bc_parcel_unref(p);
}

/* ---- parcelables ------------------------------------------------------------ */

Test(aidl_parcelable, defaults)
{
	org_binderc_test_Point pt;
	org_binderc_test_Shape s;

	cr_assert_eq(org_binderc_test_Point_init(&pt), 0);
	cr_assert_eq(pt.x, 0);
	cr_assert_eq(pt.y, 7);
	cr_assert_str_eq(pt.label, "origin");
	cr_assert_eq(pt.color, org_binderc_test_Color_GREEN);
	cr_assert_eq(org_binderc_test_Point_ORIGIN_X, 0);
	org_binderc_test_Point_clear(&pt);
	cr_assert_null(pt.label);

	cr_assert_eq(org_binderc_test_Shape_init(&s), 0);
	cr_assert_eq(s.center.y, 7); /* nested parcelables get their defaults */
	cr_assert(s.flag);
	cr_assert_eq(s.big, INT64_C(1) << 40);
	cr_assert_eq(s.ratio, 0.5);
	cr_assert_eq(s.scale, 1.5f);
	cr_assert_eq(s.initial, 'A');
	cr_assert_eq(s.small, -3);
	cr_assert_str_eq(s.note, "caf\xc3\xa9");
	cr_assert_eq(s.level, org_binderc_test_Level_HIGH);
	cr_assert_eq(s.stamp, org_binderc_test_Stamp_FAR);
	cr_assert_null(s.xs);
	cr_assert_eq(s.xs_len, 0);
	org_binderc_test_Shape_clear(&s);
}

/* The stable-AIDL body, byte for byte: int32 size counting itself, then
 * the fields in declaration order. */
Test(aidl_parcelable, point_wire_bytes)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Point pt;
	size_t tok;

	cr_assert_eq(org_binderc_test_Point_init(&pt), 0);
	pt.x = 1, pt.y = 2, pt.color = org_binderc_test_Color_RED;
	free(pt.label);
	pt.label = strdup("ab");
	cr_assert_eq(org_binderc_test_Point_write(p, &pt), 0);
	at_bytes(p, AT_BYTES(28, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 'a', 0, 'b', 0, 0, 0, 0, 0, 0, 0, 0, 0));
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_string16(q, "ab");
	bc_parcel_write_int32(q, 0);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	org_binderc_test_Point_clear(&pt);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_parcelable, point_read_back)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Point a, b;

	org_binderc_test_Point_init(&a);
	a.x = -5, a.y = 1 << 30, a.color = org_binderc_test_Color_BLUE;
	cr_assert_eq(org_binderc_test_Point_write(p, &a), 0);
	bc_parcel_write_int32(p, 0x5a5a); /* what follows is left alone */
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Point_read(p, &b), 0);
	cr_assert_eq(b.x, -5);
	cr_assert_eq(b.y, 1 << 30);
	cr_assert_str_eq(b.label, "origin");
	cr_assert_eq(b.color, org_binderc_test_Color_BLUE);
	cr_assert_eq(bc_parcel_get_position(p), bc_parcel_size(p) - 4);
	org_binderc_test_Point_clear(&a), org_binderc_test_Point_clear(&b);
	bc_parcel_unref(p);
}

/* An older peer's shorter body: missing fields keep their defaults. */
Test(aidl_parcelable, shorter_body_keeps_defaults)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Point b;
	size_t tok;

	bc_parcel_begin_parcelable(p, &tok);
	bc_parcel_write_int32(p, 9);
	bc_parcel_end_parcelable(p, tok);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Point_read(p, &b), 0);
	cr_assert_eq(b.x, 9);
	cr_assert_eq(b.y, 7);
	cr_assert_str_eq(b.label, "origin");
	cr_assert_eq(b.color, org_binderc_test_Color_GREEN);
	org_binderc_test_Point_clear(&b);
	bc_parcel_unref(p);
}

/* A newer peer's longer body: unknown trailing fields are skipped. */
Test(aidl_parcelable, longer_body_is_skipped)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Point b;
	size_t tok;

	bc_parcel_begin_parcelable(p, &tok);
	bc_parcel_write_int32(p, 1);
	bc_parcel_write_int32(p, 2);
	bc_parcel_write_string16(p, "x");
	bc_parcel_write_int32(p, 6);
	bc_parcel_write_int64(p, 777); /* a field this version does not know */
	bc_parcel_end_parcelable(p, tok);
	bc_parcel_write_int32(p, 99);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Point_read(p, &b), 0);
	cr_assert_eq(b.color, org_binderc_test_Color_BLUE);
	cr_assert_eq(bc_parcel_get_position(p), bc_parcel_size(p) - 4);
	org_binderc_test_Point_clear(&b);
	bc_parcel_unref(p);
}

Test(aidl_parcelable, malformed_bodies_are_refused)
{
	static const int32_t bad_sizes[] = { 0, 3, -4, 1000 };
	org_binderc_test_Point b;

	for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(bad_sizes[0]); i++) {
		bc_parcel *p = at_parcel();
		bc_parcel_write_int32(p, bad_sizes[i]);
		bc_parcel_write_int32(p, 1);
		at_rewind(p);
		cr_assert_lt(org_binderc_test_Point_read(p, &b), 0, "size %d", bad_sizes[i]);
		cr_assert_null(b.label); /* cleared on failure */
		bc_parcel_unref(p);
	}
	{
		/* a null label inside the body */
		bc_parcel *p = at_parcel();
		size_t tok;
		bc_parcel_begin_parcelable(p, &tok);
		bc_parcel_write_int32(p, 1);
		bc_parcel_write_int32(p, 2);
		bc_parcel_write_string16(p, NULL);
		bc_parcel_end_parcelable(p, tok);
		at_rewind(p);
		cr_assert_eq(org_binderc_test_Point_read(p, &b), -EBADMSG);
		bc_parcel_unref(p);
	}
}

static void fill_shape(org_binderc_test_Shape *s)
{
	static const int32_t xs[] = { 3, -1, 0x7fffffff };
	static const char *const names[] = { "a", "", "\xe2\x82\xac" };
	static const bool bits[] = { true, false, true };
	static const uint16_t chars[] = { 'x', 0x20ac };
	static const int64_t longs[] = { INT64_MIN, 1 };
	static const float floats[] = { 0.5f };
	static const double doubles[] = { -2.0, 1e300 };

	cr_assert_eq(org_binderc_test_Shape_init(s), 0);
	s->center.x = 11;
	s->xs = malloc(sizeof(xs));
	memcpy(s->xs, xs, sizeof(xs));
	s->xs_len = 3;
	s->names = calloc(3, sizeof(char *));
	for (int i = 0; i < 3; i++)
		s->names[i] = strdup(names[i]);
	s->names_len = 3;
	s->blob = malloc(5);
	memcpy(s->blob, "\x01\x02\x03\xff\x00", 5);
	s->blob_len = 5;
	s->bits = malloc(sizeof(bits)), memcpy(s->bits, bits, sizeof(bits)), s->bits_len = 3;
	s->chars = malloc(sizeof(chars)), memcpy(s->chars, chars, sizeof(chars)), s->chars_len = 2;
	s->longs = malloc(sizeof(longs)), memcpy(s->longs, longs, sizeof(longs)), s->longs_len = 2;
	s->floats = malloc(sizeof(floats)), memcpy(s->floats, floats, sizeof(floats)), s->floats_len = 1;
	s->doubles = malloc(sizeof(doubles)), memcpy(s->doubles, doubles, sizeof(doubles)), s->doubles_len = 2;
	s->flag = false;
	s->level = org_binderc_test_Level_LOW;
}

/* What Android's backends write for that Shape, call by call. */
static void shape_by_hand(bc_parcel *q, const org_binderc_test_Shape *s)
{
	size_t tok, ptok;

	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1); /* Point center: non-null marker, body */
	bc_parcel_begin_parcelable(q, &ptok);
	bc_parcel_write_int32(q, s->center.x);
	bc_parcel_write_int32(q, s->center.y);
	bc_parcel_write_string16(q, s->center.label);
	bc_parcel_write_int32(q, s->center.color);
	bc_parcel_end_parcelable(q, ptok);
	bc_parcel_write_int32_array(q, s->xs, s->xs_len);
	bc_parcel_write_string16_array(q, (const char *const *)s->names, s->names_len);
	bc_parcel_write_byte_array(q, s->blob, s->blob_len);
	bc_parcel_write_bool(q, s->flag);
	bc_parcel_write_int64(q, s->big);
	bc_parcel_write_double(q, s->ratio);
	bc_parcel_write_float(q, s->scale);
	bc_parcel_write_char(q, s->initial);
	bc_parcel_write_byte(q, s->small);
	bc_parcel_write_string16(q, s->note); /* @utf8InCpp: still UTF-16 */
	bc_parcel_write_byte(q, s->level);
	bc_parcel_write_int64(q, s->stamp);
	bc_parcel_write_bool_array(q, s->bits, s->bits_len);
	bc_parcel_write_char_array(q, s->chars, s->chars_len);
	bc_parcel_write_int64_array(q, s->longs, s->longs_len);
	bc_parcel_write_float_array(q, s->floats, s->floats_len);
	bc_parcel_write_double_array(q, s->doubles, s->doubles_len);
	bc_parcel_end_parcelable(q, tok);
}

Test(aidl_parcelable, shape_every_field_type)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Shape s, r;

	fill_shape(&s);
	cr_assert_eq(org_binderc_test_Shape_write(p, &s), 0);
	shape_by_hand(q, &s);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Shape_read(p, &r), 0);
	cr_assert_eq(bc_parcel_remaining(p), 0);
	cr_assert_eq(r.center.x, 11);
	cr_assert_str_eq(r.center.label, "origin");
	cr_assert_eq(r.xs_len, 3);
	cr_assert_eq(memcmp(r.xs, s.xs, sizeof(int32_t) * 3), 0);
	cr_assert_eq(r.names_len, 3);
	cr_assert_str_eq(r.names[1], "");
	cr_assert_str_eq(r.names[2], "\xe2\x82\xac");
	cr_assert_eq(r.blob_len, 5);
	cr_assert_eq(memcmp(r.blob, s.blob, 5), 0);
	cr_assert(!r.flag);
	cr_assert_eq(r.big, s.big);
	cr_assert_eq(r.ratio, 0.5);
	cr_assert_eq(r.scale, 1.5f);
	cr_assert_eq(r.initial, 'A');
	cr_assert_eq(r.small, -3);
	cr_assert_str_eq(r.note, "caf\xc3\xa9");
	cr_assert_eq(r.level, -1);
	cr_assert_eq(r.bits_len, 3);
	cr_assert(r.bits[0] && !r.bits[1] && r.bits[2]);
	cr_assert_eq(r.chars[1], 0x20ac);
	cr_assert_eq(r.longs[0], INT64_MIN);
	cr_assert_eq(r.floats[0], 0.5f);
	cr_assert_eq(r.doubles[1], 1e300);
	org_binderc_test_Shape_clear(&s), org_binderc_test_Shape_clear(&r);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_parcelable, empty_arrays_and_null_rules)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Shape s;

	cr_assert_eq(org_binderc_test_Shape_init(&s), 0);
	/* NULL arrays of length 0 are empty arrays (count 0, never -1) */
	cr_assert_eq(org_binderc_test_Shape_write(p, &s), 0);
	{
		size_t tok, ptok;
		bc_parcel_begin_parcelable(q, &tok);
		bc_parcel_write_int32(q, 1);
		bc_parcel_begin_parcelable(q, &ptok);
		bc_parcel_write_int32(q, 0);
		bc_parcel_write_int32(q, 7);
		bc_parcel_write_string16(q, "origin");
		bc_parcel_write_int32(q, 5);
		bc_parcel_end_parcelable(q, ptok);
		bc_parcel_write_int32(q, 0); /* xs */
		bc_parcel_write_int32(q, 0); /* names */
		bc_parcel_write_int32(q, 0); /* blob */
		bc_parcel_write_bool(q, true);
		bc_parcel_write_int64(q, INT64_C(1) << 40);
		bc_parcel_write_double(q, 0.5);
		bc_parcel_write_float(q, 1.5f);
		bc_parcel_write_char(q, 'A');
		bc_parcel_write_byte(q, -3);
		bc_parcel_write_string16(q, "caf\xc3\xa9");
		bc_parcel_write_byte(q, 127);
		bc_parcel_write_int64(q, INT64_C(1) << 40);
		for (int i = 0; i < 5; i++)
			bc_parcel_write_int32(q, 0);
		bc_parcel_end_parcelable(q, tok);
	}
	at_same(p, q);
	bc_parcel_unref(p);
	/* a NULL string (non-nullable) or a NULL array with a length is refused */
	p = at_parcel();
	free(s.note);
	s.note = NULL;
	cr_assert_eq(org_binderc_test_Shape_write(p, &s), -EINVAL);
	s.note = strdup("n");
	s.xs_len = 2;
	bc_parcel_unref(p);
	p = at_parcel();
	cr_assert_eq(org_binderc_test_Shape_write(p, &s), -EINVAL);
	s.xs_len = 0;
	org_binderc_test_Shape_clear(&s);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

/* ---- binder fields -------------------------------------------------------------- */

static int nop_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

Test(aidl_parcelable, binder_fields)
{
	bc_class *cls = NULL;
	bc_binder *b = NULL, *cb = NULL;
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Holder h, r;
	size_t tok;

	cr_assert_eq(bc_class_new("test.Token", nop_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &cb), 0);
	cr_assert_eq(org_binderc_test_Holder_init(&h), 0);
	cr_assert_eq(h.tag, 42);
	cr_assert_eq(org_binderc_test_Holder_write(p, &h), -EINVAL); /* NULL binder: refused */
	bc_parcel_unref(p);
	p = at_parcel();
	h.token = bc_binder_ref(b);
	h.callback = bc_binder_ref(cb);
	h.more = calloc(2, sizeof(bc_binder *));
	h.more[0] = bc_binder_ref(cb), h.more[1] = bc_binder_ref(b);
	h.more_len = 2;
	cr_assert_eq(org_binderc_test_Holder_write(p, &h), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_binder(q, b);
	bc_parcel_write_binder(q, cb);
	bc_parcel_write_int32(q, 42);
	bc_parcel_write_int32(q, 2); /* IBinder[]: count, then each binder */
	bc_parcel_write_binder(q, cb);
	bc_parcel_write_binder(q, b);
	bc_parcel_write_int32(q, 0); /* an empty ICallback[] */
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Holder_read(p, &r), 0);
	cr_assert_eq(r.token, b);
	cr_assert_eq(r.callback, cb);
	cr_assert_eq(r.more_len, 2);
	cr_assert_eq(r.more[0], cb);
	cr_assert_eq(r.more[1], b);
	cr_assert_not_null(r.callbacks); /* empty, not null */
	cr_assert_eq(r.callbacks_len, 0);
	org_binderc_test_Holder_clear(&h), org_binderc_test_Holder_clear(&r);
	bc_parcel_unref(p), bc_parcel_unref(q);
	bc_binder_unref(b), bc_binder_unref(cb);
	bc_class_unref(cls);
}
