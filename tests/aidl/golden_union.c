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
