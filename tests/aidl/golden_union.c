/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of unions (Value.aidl, IValues.aidl): int32 tag (the
 * field's declaration index) then that field alone, as Android's union
 * writeToParcel writes it; the first field with its default is the
 * initial value; an unknown tag is refused when reading.
 */
#include "at.h"

#include "org_binderc_test_IValues.h"
#include "org_binderc_test_Value.h"

Test(aidl_union, initial_value)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Value v;

	cr_assert_eq(org_binderc_test_Value_init(&v), 0);
	cr_assert_eq(v._tag, org_binderc_test_Value_TAG_num);
	cr_assert_eq(v.num, 5);
	cr_assert_eq(org_binderc_test_Value_write(p, &v), 0);
	at_bytes(p, AT_BYTES(0, 0, 0, 0, 5, 0, 0, 0));
	org_binderc_test_Value_clear(&v);
	bc_parcel_unref(p);
}

Test(aidl_union, every_member)
{
	org_binderc_test_Value v, r;
	static const int64_t longs[] = { -1, 1LL << 33 };

	cr_assert_eq(org_binderc_test_Value_TAG_text, 1);
	cr_assert_eq(org_binderc_test_Value_TAG_token, 4);
	for (int tag = 0; tag < 5; tag++) {
		bc_parcel *p = at_parcel(), *q = at_parcel();

		cr_assert_eq(org_binderc_test_Value_init(&v), 0);
		v._tag = tag;
		bc_parcel_write_int32(q, tag);
		switch (tag) {
		case 0:
			v.num = -9;
			bc_parcel_write_int32(q, -9);
			break;
		case 1:
			free(v.text);
			v.text = strdup("t\xc3\xa9");
			bc_parcel_write_string16(q, "t\xc3\xa9");
			break;
		case 2: {
			size_t tok;
			v.point.x = 3;
			bc_parcel_write_int32(q, 1);
			bc_parcel_begin_parcelable(q, &tok);
			bc_parcel_write_int32(q, 3);
			bc_parcel_write_int32(q, 7);
			bc_parcel_write_string16(q, "origin");
			bc_parcel_write_int32(q, 5);
			bc_parcel_end_parcelable(q, tok);
			break;
		}
		case 3:
			v.longs = malloc(sizeof(longs));
			memcpy(v.longs, longs, sizeof(longs));
			v.longs_len = 2;
			bc_parcel_write_int64_array(q, longs, 2);
			break;
		case 4: /* a null binder (nullable) */
			bc_parcel_write_binder(q, NULL);
			break;
		}
		cr_assert_eq(org_binderc_test_Value_write(p, &v), 0, "tag %d", tag);
		at_same(p, q);
		at_rewind(p);
		cr_assert_eq(org_binderc_test_Value_read(p, &r), 0);
		cr_assert_eq(r._tag, tag);
		cr_assert_eq(bc_parcel_remaining(p), 0);
		if (tag == 0)
			cr_assert_eq(r.num, -9);
		if (tag == 1)
			cr_assert_str_eq(r.text, "t\xc3\xa9");
		if (tag == 2)
			cr_assert_eq(r.point.x, 3);
		if (tag == 3)
			cr_assert_eq(r.longs[1], 1LL << 33);
		if (tag == 4)
			cr_assert_null(r.token);
		org_binderc_test_Value_clear(&v), org_binderc_test_Value_clear(&r);
		bc_parcel_unref(p), bc_parcel_unref(q);
	}
}

Test(aidl_union, bad_tags)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Value v;

	org_binderc_test_Value_init(&v);
	v._tag = 5;
	cr_assert_eq(org_binderc_test_Value_write(p, &v), -EINVAL);
	v._tag = -1;
	cr_assert_eq(org_binderc_test_Value_write(p, &v), -EINVAL);
	cr_assert_eq(bc_parcel_size(p), 0);
	org_binderc_test_Value_clear(&v);
	bc_parcel_write_int32(p, 7); /* a newer peer's member */
	bc_parcel_write_int32(p, 0);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Value_read(p, &v), -EBADMSG);
	bc_parcel_unref(p);
}

static int v_twice(void *self, const org_binderc_test_Value *v, org_binderc_test_Value *ret)
{
	(void)self;
	ret->_tag = v->_tag;
	if (v->_tag == org_binderc_test_Value_TAG_num) {
		ret->num = v->num * 2;
	} else if (v->_tag == org_binderc_test_Value_TAG_text) {
		free(ret->text);
		ret->text = malloc(2 * strlen(v->text) + 1);
		sprintf(ret->text, "%s%s", v->text, v->text);
	} else {
		return 1; /* service-specific: not doubled */
	}
	return 0;
}

static const struct org_binderc_test_IValues_ops vops = { .twice = v_twice };

Test(aidl_union, loopback)
{
	bc_binder *svc = NULL;
	org_binderc_test_Value v, r;

	cr_assert_eq(org_binderc_test_IValues_stub_new(&vops, NULL, NULL, &svc), 0);
	org_binderc_test_Value_init(&v);
	v.num = 21;
	cr_assert_eq(org_binderc_test_IValues_twice(svc, &v, &r), 0);
	cr_assert_eq(r._tag, 0);
	cr_assert_eq(r.num, 42);
	org_binderc_test_Value_clear(&r);
	v._tag = org_binderc_test_Value_TAG_text;
	free(v.text);
	v.text = strdup("ab");
	cr_assert_eq(org_binderc_test_IValues_twice(svc, &v, &r), 0);
	cr_assert_str_eq(r.text, "abab");
	org_binderc_test_Value_clear(&r);
	v._tag = org_binderc_test_Value_TAG_longs;
	cr_assert_eq(org_binderc_test_IValues_twice(svc, &v, &r), 1);
	org_binderc_test_Value_clear(&v);
	bc_binder_unref(svc);
}

/* ---- arrays of parcelables ------------------------------------------------ */

#include "org_binderc_test_Polygon.h"

static void point_body(bc_parcel *q, int32_t x)
{
	size_t tok;

	bc_parcel_write_int32(q, 1); /* each element: non-null marker, body */
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, x);
	bc_parcel_write_int32(q, 7);
	bc_parcel_write_string16(q, "origin");
	bc_parcel_write_int32(q, 5);
	bc_parcel_end_parcelable(q, tok);
}

Test(aidl_parcelable_array, polygon)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Polygon g, r;
	size_t tok, ctok;

	cr_assert_eq(org_binderc_test_Polygon_init(&g), 0);
	cr_assert_eq(org_binderc_test_Point_new_array(2, &g.points), 0);
	g.points_len = 2;
	g.points[1].x = 4;
	cr_assert_eq(org_binderc_test_Polygon_new_array(1, &g.children), 0);
	g.children_len = 1;
	cr_assert_eq(org_binderc_test_Polygon_write(p, &g), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 2);
	point_body(q, 0);
	point_body(q, 4);
	bc_parcel_write_string16(q, "poly");
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 1);
	bc_parcel_begin_parcelable(q, &ctok);
	bc_parcel_write_int32(q, 0); /* an empty Point[] */
	bc_parcel_write_string16(q, "poly");
	bc_parcel_write_int32(q, 0); /* no children */
	bc_parcel_end_parcelable(q, ctok);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Polygon_read(p, &r), 0);
	cr_assert_eq(r.points_len, 2);
	cr_assert_eq(r.points[1].x, 4);
	cr_assert_str_eq(r.points[1].label, "origin");
	cr_assert_eq(r.children_len, 1);
	cr_assert_str_eq(r.children[0].name, "poly");
	org_binderc_test_Polygon_clear(&g), org_binderc_test_Polygon_clear(&r);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_parcelable_array, refused_input)
{
	org_binderc_test_Point *v = NULL;
	size_t n = 0;
	bc_parcel *p = at_parcel();

	bc_parcel_write_int32(p, 1000000); /* more elements than bytes */
	bc_parcel_write_int32(p, 1);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Point_read_array(p, &v, &n), -EBADMSG);
	bc_parcel_unref(p);
	p = at_parcel();
	bc_parcel_write_int32(p, 2);
	point_body(p, 1);
	bc_parcel_write_int32(p, 0); /* a null element */
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Point_read_array(p, &v, &n), -EBADMSG);
	bc_parcel_unref(p);
	p = at_parcel();
	cr_assert_eq(org_binderc_test_Point_write_array(p, NULL, 1), -EINVAL);
	bc_parcel_unref(p);
}

static int v_corners(void *self, const org_binderc_test_Polygon *g, org_binderc_test_Point **extra, size_t *extra_len,
		     org_binderc_test_Point **moved, size_t *moved_len, org_binderc_test_Point **ret, size_t *ret_len)
{
	(void)self;
	cr_assert_eq(*extra_len, 3); /* pre-sized, elements at their defaults */
	cr_assert_eq((*extra)[2].y, 7);
	(*extra)[2].x = 33;
	for (size_t i = 0; i < *moved_len; i++)
		(*moved)[i].x += 100;
	cr_assert_eq(org_binderc_test_Point_new_array(g->points_len, ret), 0);
	for (size_t i = 0; i < g->points_len; i++)
		(*ret)[i].x = g->points[i].x * 2;
	*ret_len = g->points_len;
	return 0;
}

static const struct org_binderc_test_IValues_ops cops = { .corners = v_corners };

Test(aidl_parcelable_array, loopback)
{
	bc_binder *svc = NULL;
	org_binderc_test_Polygon g;
	org_binderc_test_Point *extra = NULL, *moved = NULL, *ret = NULL;
	size_t extra_len = 3, moved_len = 1, ret_len = 0;

	cr_assert_eq(org_binderc_test_IValues_stub_new(&cops, NULL, NULL, &svc), 0);
	org_binderc_test_Polygon_init(&g);
	org_binderc_test_Point_new_array(2, &g.points);
	g.points_len = 2;
	g.points[0].x = 5, g.points[1].x = 6;
	org_binderc_test_Point_new_array(1, &moved);
	moved[0].x = 1;
	cr_assert_eq(org_binderc_test_IValues_corners(svc, &g, &extra, &extra_len, &moved, &moved_len, &ret, &ret_len), 0);
	cr_assert_eq(ret_len, 2);
	cr_assert_eq(ret[1].x, 12);
	cr_assert_eq(extra_len, 3);
	cr_assert_eq(extra[2].x, 33);
	cr_assert_eq(moved[0].x, 101);
	org_binderc_test_Point_free_array(ret, ret_len);
	org_binderc_test_Point_free_array(extra, extra_len);
	org_binderc_test_Point_free_array(moved, moved_len);
	org_binderc_test_Polygon_clear(&g);
	bc_binder_unref(svc);
}

/* ---- U.Tag: the enum Android declares for every union ---------------------- */

#include "org_binderc_test_ValueKinds.h"

Test(aidl_union_tag, values_are_the_field_indexes)
{
	cr_assert_eq(org_binderc_test_Value_Tag_num, 0);
	cr_assert_eq(org_binderc_test_Value_Tag_point, org_binderc_test_Value_TAG_point);
	cr_assert_eq(org_binderc_test_Value_Tag_token, 4);
	cr_assert_eq(org_binderc_test_ValueKinds_Id_Tag_own, 2);
	cr_assert_eq(sizeof(org_binderc_test_Value_Tag), 4);
}

/* int32 like any int-backed enum: the field, an int32 array, and inside
 * a union field (marker 1, tag, value). */
Test(aidl_union_tag, wire)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	static const int32_t kinds[] = { 4, 0 };
	org_binderc_test_ValueKinds v, r;
	size_t tok;

	cr_assert_eq(org_binderc_test_ValueKinds_init(&v), 0);
	cr_assert_eq(v.kind, org_binderc_test_Value_Tag_point);
	v.kinds = malloc(sizeof(kinds));
	memcpy(v.kinds, kinds, sizeof(kinds));
	v.kinds_len = 2;
	v.id._tag = org_binderc_test_ValueKinds_Id_TAG_common;
	v.id.common = org_binderc_test_Value_Tag_longs;
	cr_assert_eq(org_binderc_test_ValueKinds_write(p, &v), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32_array(q, kinds, 2);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 1); /* Id's tag: common */
	bc_parcel_write_int32(q, 3); /* Value.Tag.longs */
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_ValueKinds_read(p, &r), 0);
	cr_assert_eq(r.kind, 2);
	cr_assert_eq(r.kinds_len, 2);
	cr_assert_eq(r.kinds[0], org_binderc_test_Value_Tag_token);
	cr_assert_eq(r.id._tag, org_binderc_test_ValueKinds_Id_TAG_common);
	cr_assert_eq(r.id.common, org_binderc_test_Value_Tag_longs);
	org_binderc_test_ValueKinds_clear(&v), org_binderc_test_ValueKinds_clear(&r);
	bc_parcel_unref(p), bc_parcel_unref(q);
}
