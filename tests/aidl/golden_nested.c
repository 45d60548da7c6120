/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of nested types (Nest.aidl, IModes.aidl): a type declared
 * inside a parcelable or an interface is named OUTER_INNER in C and has
 * the wire format of a top-level type of its kind; another file reaches
 * it by importing it (import a.b.Nest.Inner) or as Nest.Kind.
 */
#include "at.h"

#include "org_binderc_test_IModes.h"
#include "org_binderc_test_Nest.h"

/* Hand-written Inner body: int32 size, int32 x, String16 s, int32 k. */
static void inner_body(bc_parcel *q, int32_t x, const char *s, int8_t k)
{
	size_t tok;

	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, x);
	bc_parcel_write_string16(q, s);
	bc_parcel_write_byte(q, k);
	bc_parcel_end_parcelable(q, tok);
}

Test(aidl_nested, names_constants_defaults)
{
	org_binderc_test_Nest n;
	org_binderc_test_IModes_Req r;

	cr_assert_eq(org_binderc_test_Nest_Inner_MAX, 9);
	cr_assert_eq(org_binderc_test_Nest_LIMIT, 10); /* Inner.MAX + 1 */
	cr_assert_eq(org_binderc_test_Nest_Kind_B, 2);
	cr_assert_eq(org_binderc_test_Nest_Wide_Q, 101);
	cr_assert_eq(sizeof(org_binderc_test_Nest_Kind), 1);
	cr_assert_eq(sizeof(org_binderc_test_Nest_Wide), 4);
	cr_assert_eq(org_binderc_test_IModes_Mode_ON, 4);
	cr_assert_eq(org_binderc_test_Nest_init(&n), 0);
	cr_assert_eq(n.inner.x, 7);
	cr_assert_str_eq(n.inner.s, "");
	cr_assert_eq(n.inner.k, org_binderc_test_Nest_Kind_B);
	cr_assert_eq(n.kind, org_binderc_test_Nest_Kind_A);
	cr_assert_eq(n.wide, org_binderc_test_Nest_Wide_Q);
	cr_assert_eq(n.pick._tag, org_binderc_test_Nest_Pick_TAG_n);
	cr_assert_null(n.next);
	org_binderc_test_Nest_clear(&n);
	cr_assert_eq(org_binderc_test_IModes_Req_init(&r), 0);
	cr_assert_eq(r.mode, org_binderc_test_IModes_Mode_ON);
	cr_assert_eq(r.kind, org_binderc_test_Nest_Kind_B);
	cr_assert_eq(r.inner.x, 7);
	org_binderc_test_IModes_Req_clear(&r);
}

/* Every nested kind inside one body, against hand-written parcel calls. */
Test(aidl_nested, parcelable_wire_and_back)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Nest n, b;
	size_t tok;

	cr_assert_eq(org_binderc_test_Nest_init(&n), 0);
	n.inner.x = -3;
	free(n.inner.s);
	n.inner.s = strdup("in");
	cr_assert_eq(org_binderc_test_Nest_Inner_new_array(2, &n.many), 0);
	n.many_len = 2;
	n.many[1].x = 11;
	n.kind = org_binderc_test_Nest_Kind_B;
	n.pick._tag = org_binderc_test_Nest_Pick_TAG_inner;
	n.pick.inner.x = 5;
	cr_assert_eq(org_binderc_test_Nest_write(p, &n), 0);

	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1); /* inner */
	inner_body(q, -3, "in", 2);
	bc_parcel_write_byte(q, 2); /* kind */
	bc_parcel_write_int32(q, 2); /* many */
	bc_parcel_write_int32(q, 1);
	inner_body(q, 7, "", 2);
	bc_parcel_write_int32(q, 1);
	inner_body(q, 11, "", 2);
	bc_parcel_write_int32(q, 1); /* pick: a union body, tag then field */
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 1);
	inner_body(q, 5, "", 2);
	bc_parcel_write_int32(q, 101); /* wide */
	bc_parcel_write_int32(q, 0);   /* next: null */
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);

	/* the union alone: int32 tag, then the field; no size */
	bc_parcel_unref(q);
	q = at_parcel();
	cr_assert_eq(org_binderc_test_Nest_Pick_write(q, &n.pick), 0);
	at_bytes(q, AT_BYTES(1, 0, 0, 0, 1, 0, 0, 0, 20, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0));

	at_rewind(p);
	cr_assert_eq(org_binderc_test_Nest_read(p, &b), 0);
	cr_assert_eq(b.inner.x, -3);
	cr_assert_str_eq(b.inner.s, "in");
	cr_assert_eq(b.many_len, 2);
	cr_assert_eq(b.many[1].x, 11);
	cr_assert_eq(b.kind, org_binderc_test_Nest_Kind_B);
	cr_assert_eq(b.pick._tag, org_binderc_test_Nest_Pick_TAG_inner);
	cr_assert_eq(b.pick.inner.x, 5);
	cr_assert_eq(b.wide, 101);
	cr_assert_null(b.next);
	org_binderc_test_Nest_clear(&n), org_binderc_test_Nest_clear(&b);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

/* A nested type of the same type by pointer (@nullable Nest next; Nest[]
 * in the nested union) round-trips. */
Test(aidl_nested, self_through_nested_pointer)
{
	bc_parcel *p = at_parcel();
	org_binderc_test_Nest n, b;

	cr_assert_eq(org_binderc_test_Nest_init(&n), 0);
	n.pick._tag = org_binderc_test_Nest_Pick_TAG_nests;
	cr_assert_eq(org_binderc_test_Nest_new_array(1, &n.pick.nests), 0);
	n.pick.nests_len = 1;
	n.pick.nests[0].wide = org_binderc_test_Nest_Wide_P;
	cr_assert_eq(org_binderc_test_Nest_write(p, &n), 0);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Nest_read(p, &b), 0);
	cr_assert_eq(b.pick._tag, org_binderc_test_Nest_Pick_TAG_nests);
	cr_assert_eq(b.pick.nests_len, 1);
	cr_assert_eq(b.pick.nests[0].wide, 100);
	org_binderc_test_Nest_clear(&n), org_binderc_test_Nest_clear(&b);
	bc_parcel_unref(p);
}

/* ---- an interface's nested types, through its stub ------------------------------ */

static int m_set(void *self, org_binderc_test_IModes_Mode m, const org_binderc_test_IModes_Req *r,
		 org_binderc_test_Nest_Inner *o, org_binderc_test_Nest_Pick *p, org_binderc_test_IModes_Mode *_ret)
{
	(void)self;
	cr_assert_eq(m, org_binderc_test_IModes_Mode_ON);
	cr_assert_eq(r->inner.x, 3);
	o->x = r->inner.x + p->n;
	p->n = 77;
	*_ret = org_binderc_test_IModes_Mode_OFF;
	return 0;
}

static int m_kinds(void *self, const org_binderc_test_IModes_Mode *modes, size_t modes_len,
		   org_binderc_test_Nest_Kind **_ret, size_t *_ret_len)
{
	(void)self;
	*_ret = malloc(modes_len ? modes_len : 1);
	for (size_t i = 0; i < modes_len; i++)
		(*_ret)[i] = (org_binderc_test_Nest_Kind)(modes[i] + 1);
	*_ret_len = modes_len;
	return 0;
}

static const struct org_binderc_test_IModes_ops mops = { .set = m_set, .kinds = m_kinds };

Test(aidl_nested, interface_stub_bytes)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();
	size_t tok;

	bc_parcel_write_byte(in, 4); /* m */
	bc_parcel_write_int32(in, 1); /* r */
	bc_parcel_begin_parcelable(in, &tok);
	bc_parcel_write_byte(in, 4);
	bc_parcel_write_int32(in, 1);
	inner_body(in, 3, "", 2);
	bc_parcel_write_byte(in, 2);
	bc_parcel_end_parcelable(in, tok);
	bc_parcel_write_int32(in, 1); /* p: inout union */
	bc_parcel_write_int32(in, 0);
	bc_parcel_write_int32(in, 4);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IModes_dispatch(&mops, NULL, org_binderc_test_IModes_CODE_set, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_byte(want, 0); /* _ret OFF */
	bc_parcel_write_int32(want, 1); /* o */
	inner_body(want, 7, "", 2);
	bc_parcel_write_int32(want, 1); /* p */
	bc_parcel_write_int32(want, 0);
	bc_parcel_write_int32(want, 77);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	/* arrays of nested byte enums are packed like byte[] */
	in = at_parcel(), want = at_parcel(), reply = at_parcel();
	bc_parcel_write_byte_array(in, (const int8_t[]){ 0, 4 }, 2);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IModes_dispatch(&mops, NULL, org_binderc_test_IModes_CODE_kinds, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_byte_array(want, (const int8_t[]){ 1, 5 }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}
