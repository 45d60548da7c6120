/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of a generic parcelable whose fields use its parameters
 * (Pair.aidl: T value; T[] list; U other; int n = 5;), instantiated in
 * Boxes.aidl and IPair.aidl.  Android's NDK backend makes Pair a C++
 * template, so Pair<int, String> is written as the fields in order, each
 * as its concrete type: int32 size, int32 value, int32 count + the ints,
 * String16 other, int32 n.  Pair<int, String> is used by both files: the
 * test links both generated objects (one weak copy wins).
 */
#include "at.h"

#include "org_binderc_test_Boxes.h"
#include "org_binderc_test_IPair.h"

typedef org_binderc_test_Pair__int__String pis;
typedef org_binderc_test_Pair__org_binderc_test_Point__IBinder ppb;

static int nop(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

/* Pair<int, String>{7, {1, 2}, "hi", 5}: its body, byte by byte. */
#define PIS_BODY 36, 0, 0, 0, 7, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, \
	2, 0, 0, 0, 'h', 0, 'i', 0, 0, 0, 0, 0, 5, 0, 0, 0

/* @v holds its defaults (an implementation's output does: the stub
 * initialised it); set the test's values. */
static void fill_pis(pis *v, int32_t value, const char *other)
{
	cr_assert_eq(v->n, 5); /* the generic's default */
	v->value = value;
	free(v->list);
	v->list = malloc(2 * sizeof(*v->list));
	v->list[0] = 1, v->list[1] = 2;
	v->list_len = 2;
	free(v->other);
	v->other = strdup(other);
}

static void make_pis(pis *v, int32_t value, const char *other)
{
	cr_assert_eq(org_binderc_test_Pair__int__String_init(v), 0);
	fill_pis(v, value, other);
}

Test(aidl_pair, int_string_bytes)
{
	bc_parcel *p = at_parcel();
	pis v, r;

	make_pis(&v, 7, "hi");
	cr_assert_eq(org_binderc_test_Pair__int__String_write(p, &v), 0);
	at_bytes(p, AT_BYTES(PIS_BODY));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Pair__int__String_read(p, &r), 0);
	cr_assert(r.value == 7 && r.list_len == 2 && r.list[1] == 2 && strcmp(r.other, "hi") == 0 && r.n == 5);
	org_binderc_test_Pair__int__String_clear(&r), org_binderc_test_Pair__int__String_clear(&v);
	bc_parcel_unref(p);

	/* an older, shorter body: the missing fields keep their defaults */
	p = at_parcel();
	bc_parcel_write_raw(p, AT_BYTES(8, 0, 0, 0, 9, 0, 0, 0));
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Pair__int__String_read(p, &r), 0);
	cr_assert(r.value == 9 && r.list_len == 0 && strcmp(r.other, "") == 0 && r.n == 5);
	org_binderc_test_Pair__int__String_clear(&r);
	bc_parcel_unref(p);
}

/* Pair<Point, IBinder> against hand-written calls: Point value as int32 1
 * + body, Point[] as count + (int32 1 + body) each, the binder object. */
Test(aidl_pair, parcelable_and_binder_arguments)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	bc_class *cls = NULL;
	bc_binder *b = NULL;
	ppb v, r;
	size_t tok;

	cr_assert_eq(bc_class_new("x.Y", nop, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	cr_assert_eq(org_binderc_test_Pair__org_binderc_test_Point__IBinder_init(&v), 0);
	v.value.x = 3;
	cr_assert_eq(org_binderc_test_Point_new_array(1, &v.list), 0);
	v.list_len = 1;
	v.list[0].x = 4;
	v.other = b;
	cr_assert_eq(org_binderc_test_Pair__org_binderc_test_Point__IBinder_write(p, &v), 0);

	cr_assert_eq(bc_parcel_begin_parcelable(q, &tok), 0);
	bc_parcel_write_int32(q, 1);
	cr_assert_eq(org_binderc_test_Point_write(q, &v.value), 0);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 1);
	cr_assert_eq(org_binderc_test_Point_write(q, &v.list[0]), 0);
	cr_assert_eq(bc_parcel_write_binder(q, b), 0);
	bc_parcel_write_int32(q, 5);
	cr_assert_eq(bc_parcel_end_parcelable(q, tok), 0);
	at_same(p, q);

	at_rewind(p);
	cr_assert_eq(org_binderc_test_Pair__org_binderc_test_Point__IBinder_read(p, &r), 0);
	cr_assert(r.value.x == 3 && r.list_len == 1 && r.list[0].x == 4 && r.other == b && r.n == 5);
	org_binderc_test_Pair__org_binderc_test_Point__IBinder_clear(&r);
	/* a null binder where IBinder (not @nullable) is wanted */
	v.other = NULL;
	cr_assert_eq(org_binderc_test_Pair__org_binderc_test_Point__IBinder_write(q, &v), -EINVAL);
	v.other = b;
	org_binderc_test_Pair__org_binderc_test_Point__IBinder_clear(&v); /* drops b's reference */
	bc_class_unref(cls);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

static int p_swap(void *self, const pis *p, pis *ret)
{
	(void)self;
	fill_pis(ret, p->value + 1, p->other[0] ? "ok" : "");
	return 0;
}

static int p_many(void *self, const ppb *ps, size_t n, org_binderc_test_Pair__String__int *one)
{
	(void)self;
	free(one->value); /* "": the stub initialised it */
	one->value = strdup(n ? "many" : "none");
	one->other = n ? ps[n - 1].value.x : -1;
	return 0;
}

static int p_boxes(void *self, const org_binderc_test_Boxes *b, org_binderc_test_Boxes *ret)
{
	(void)self;
	ret->a.value = b->a.value * 2;
	ret->nested.other = b->nested.value.value + b->nested.other;
	ret->nested.value.n = b->maybe ? b->maybe->value : -1;
	return 0;
}

static const struct org_binderc_test_IPair_ops pops = { .swap = p_swap, .many = p_many, .boxes = p_boxes };

/* The stub's side in bytes: a request holding Pair<int, String>, the
 * reply holding the returned one. */
Test(aidl_pair, stub_bytes)
{
	bc_parcel *in = at_parcel(), *reply = at_parcel();

	bc_parcel_write_raw(in, AT_BYTES(1, 0, 0, 0, PIS_BODY));
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IPair_dispatch(&pops, NULL, org_binderc_test_IPair_CODE_swap, in, reply), 0);
	at_bytes(reply, AT_BYTES(0, 0, 0, 0, /* no exception */ 1, 0, 0, 0, 36, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0, 0,
				 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 'o', 0, 'k', 0, 0, 0, 0, 0, 5, 0, 0, 0));
	bc_parcel_unref(in), bc_parcel_unref(reply);
}

/* Through the proxy and the stub in one process: arguments, return
 * values, arrays of instantiations, and Boxes holding them. */
Test(aidl_pair, loopback)
{
	bc_binder *svc = NULL, *b = NULL;
	bc_class *cls = NULL;
	pis v, r;
	ppb ps[2];
	org_binderc_test_Pair__String__int one;
	org_binderc_test_Boxes bx, br;

	cr_assert_eq(org_binderc_test_IPair_stub_new(&pops, NULL, NULL, &svc), 0);
	make_pis(&v, 41, "x");
	cr_assert_eq(org_binderc_test_IPair_swap(svc, &v, &r), 0);
	cr_assert(r.value == 42 && strcmp(r.other, "ok") == 0 && r.list_len == 2);
	org_binderc_test_Pair__int__String_clear(&r);

	cr_assert_eq(bc_class_new("x.Y", nop, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(org_binderc_test_Pair__org_binderc_test_Point__IBinder_init(&ps[i]), 0);
		ps[i].value.x = 10 + i;
		ps[i].other = b;
	}
	cr_assert_eq(org_binderc_test_IPair_many(svc, ps, 2, &one), 0);
	cr_assert(strcmp(one.value, "many") == 0 && one.other == 11 && one.n == 5);
	org_binderc_test_Pair__String__int_clear(&one);
	for (int i = 0; i < 2; i++) {
		ps[i].other = NULL; /* borrowed */
		org_binderc_test_Pair__org_binderc_test_Point__IBinder_clear(&ps[i]);
	}

	cr_assert_eq(org_binderc_test_Boxes_init(&bx), 0);
	cr_assert_null(bx.maybe);
	bx.a.value = 21;
	bx.nested.value.value = 100;
	bx.nested.other = 1;
	cr_assert_eq(org_binderc_test_IPair_boxes(svc, &bx, &br), 0);
	cr_assert(br.a.value == 42 && br.nested.other == 101 && br.nested.value.n == -1);
	org_binderc_test_Boxes_clear(&br);
	bx.maybe = malloc(sizeof(*bx.maybe));
	make_pis(bx.maybe, 9, "m");
	cr_assert_eq(org_binderc_test_IPair_boxes(svc, &bx, &br), 0);
	cr_assert(br.nested.value.n == 9);
	org_binderc_test_Boxes_clear(&br), org_binderc_test_Boxes_clear(&bx);
	org_binderc_test_Pair__int__String_clear(&v);
	bc_binder_unref(b), bc_binder_unref(svc), bc_class_unref(cls);
}
