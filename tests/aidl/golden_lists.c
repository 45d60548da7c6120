/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of List<T>, @nullable arrays of parcelables and binders,
 * and ParcelFileDescriptor arrays (Bag.aidl, ILists.aidl, FdPair.aidl).
 * The expected bytes follow Android's NDK backend: List<T> is the
 * std::vector<T> that T[] is (same bytes); a @nullable array is int32 -1
 * for null, else the count and each element nullable (a parcelable as
 * int32 0, or int32 1 + body; a binder as a null object); a
 * ParcelFileDescriptor element is int32 1, int32 0 (no comm channel), the
 * fd object, or int32 0 for a null one.
 */
#include <fcntl.h>

#include "at.h"

#include "org_binderc_test_Bag.h"
#include "org_binderc_test_FdPair.h"
#include "org_binderc_test_ILists.h"

static void point(org_binderc_test_Point *pt, int32_t x)
{
	cr_assert_eq(org_binderc_test_Point_init(pt), 0);
	pt->x = x;
}

/* Hand-written: a Point as a non-null parcelable value. */
static void want_point(bc_parcel *q, int32_t x)
{
	org_binderc_test_Point pt;

	point(&pt, x);
	bc_parcel_write_int32(q, 1);
	cr_assert_eq(org_binderc_test_Point_write(q, &pt), 0);
	org_binderc_test_Point_clear(&pt);
}

static void want_pfd(bc_parcel *q, int fd)
{
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 0);
	bc_parcel_write_fd(q, dup(fd), true);
}

Test(aidl_lists, bag_fields)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Bag b, r;
	org_binderc_test_Point one, *two = malloc(sizeof(*two));
	int a = at_temp_file("a"), c = at_temp_file("cc");
	size_t tok;

	cr_assert_eq(org_binderc_test_Bag_init(&b), 0);
	cr_assert_null(b.maybePoints);
	cr_assert_null(b.maybeBinders);
	cr_assert_null(b.maybePfds);
	point(&one, 1);
	point(two, 2);
	b.points = malloc(sizeof(*b.points));
	b.points[0] = one;
	b.points_len = 1;
	b.maybeArr = calloc(2, sizeof(*b.maybeArr));
	b.maybeArr[0] = two;
	b.maybeArr_len = 2; /* the second element is null */
	b.pfds = malloc(sizeof(int));
	b.pfds[0] = a;
	b.pfds_len = 1;
	b.maybePfds = malloc(2 * sizeof(int));
	b.maybePfds[0] = -1;
	b.maybePfds[1] = c;
	b.maybePfds_len = 2;
	cr_assert_eq(org_binderc_test_Bag_write(p, &b), 0);

	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1); /* points: one element */
	want_point(q, 1);
	bc_parcel_write_int32(q, -1); /* maybePoints: null */
	bc_parcel_write_int32(q, 2);  /* maybeArr: a Point, then a null */
	want_point(q, 2);
	bc_parcel_write_int32(q, 0);
	bc_parcel_write_int32(q, 0);  /* binders: empty */
	bc_parcel_write_int32(q, -1); /* maybeBinders: null */
	bc_parcel_write_int32(q, 0);  /* callbacks: empty */
	bc_parcel_write_int32(q, 1);  /* pfds */
	want_pfd(q, a);
	bc_parcel_write_int32(q, 2); /* maybePfds: a null, then c */
	bc_parcel_write_int32(q, 0);
	want_pfd(q, c);
	bc_parcel_write_int32(q, 7);
	bc_parcel_end_parcelable(q, tok);
	at_same_but_fds(p, q);

	at_rewind(p);
	cr_assert_eq(org_binderc_test_Bag_read(p, &r), 0);
	cr_assert_eq(r.points_len, 1);
	cr_assert_eq(r.points[0].x, 1);
	cr_assert_null(r.maybePoints);
	cr_assert_eq(r.maybeArr_len, 2);
	cr_assert_eq(r.maybeArr[0]->x, 2);
	cr_assert_null(r.maybeArr[1]);
	cr_assert_null(r.maybeBinders);
	cr_assert_not_null(r.binders);
	cr_assert_eq(r.binders_len, 0);
	cr_assert_eq(r.pfds_len, 1);
	cr_assert(at_same_file(r.pfds[0], a) && r.pfds[0] != a);
	cr_assert_eq(r.maybePfds_len, 2);
	cr_assert_eq(r.maybePfds[0], -1);
	cr_assert(at_same_file(r.maybePfds[1], c));
	cr_assert_eq(r.after, 7);
	org_binderc_test_Bag_clear(&r);
	org_binderc_test_Bag_clear(&b); /* closes a and c, frees two */
	cr_assert_eq(fcntl(a, F_GETFD), -1);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

/* Non-nullable elements are checked: a -1 fd in a ParcelFileDescriptor[]
 * is refused when sending and a null element is malformed when read. */
Test(aidl_lists, non_nullable_elements)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Bag b, r;
	size_t tok;

	cr_assert_eq(org_binderc_test_Bag_init(&b), 0);
	b.pfds = malloc(sizeof(int));
	b.pfds[0] = -1;
	b.pfds_len = 1;
	cr_assert_eq(org_binderc_test_Bag_write(p, &b), -EINVAL);
	org_binderc_test_Bag_clear(&b);

	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1); /* points: a null element */
	bc_parcel_write_int32(q, 0);
	bc_parcel_end_parcelable(q, tok);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Bag_read(q, &r), -EBADMSG);
	bc_parcel_unref(q);
	q = at_parcel();
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, -1); /* points: null */
	bc_parcel_end_parcelable(q, tok);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Bag_read(q, &r), -EBADMSG);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_lists, fixed_size_defaults)
{
	org_binderc_test_FdPair f;

	cr_assert_eq(org_binderc_test_FdPair_init(&f), 0);
	cr_assert_eq(f.pair_len, 2);
	cr_assert(f.pair[0] == -1 && f.pair[1] == -1);
	cr_assert_null(f.maybePair);
	cr_assert_null(f.maybePoints);
	cr_assert_null(f.maybeBinders);
	org_binderc_test_FdPair_clear(&f);
}

static int l_echo(void *self, const org_binderc_test_Point *pts, size_t n, org_binderc_test_Point **ret,
		  size_t *ret_n)
{
	(void)self;
	cr_assert_eq(org_binderc_test_Point_new_array(n, ret), 0);
	for (size_t i = 0; i < n; i++)
		(*ret)[i].x = pts[n - 1 - i].x;
	*ret_n = n;
	return 0;
}

static int l_fill(void *self, org_binderc_test_Point **pts, size_t *n, bc_binder ***bs, size_t *bs_n)
{
	(void)self, (void)bs, (void)bs_n;
	for (size_t i = 0; i < *n; i++)
		(*pts)[i].x = (int32_t)i + 10;
	return 0;
}

static int l_maybe(void *self, const org_binderc_test_Point *const *pts, size_t n, org_binderc_test_Point ***ret,
		   size_t *ret_n)
{
	(void)self;
	if (!pts) {
		*ret = NULL;
		return 0;
	}
	*ret = calloc(n + 1, sizeof(**ret));
	for (size_t i = 0; i < n; i++) {
		if (!pts[i])
			continue;
		(*ret)[i] = malloc(sizeof(***ret));
		point((*ret)[i], pts[i]->x * 2);
	}
	*ret_n = n;
	return 0;
}

static int l_callbacks(void *self, bc_binder *const *cbs, size_t n, bc_binder ***ret, size_t *ret_n)
{
	(void)self;
	if (!cbs) {
		*ret = NULL;
		return 0;
	}
	*ret = calloc(n + 1, sizeof(**ret));
	for (size_t i = 0; i < n; i++)
		(*ret)[i] = cbs[i] ? bc_binder_ref(cbs[i]) : NULL;
	*ret_n = n;
	return 0;
}

static int l_fds(void *self, const int *f, size_t fn, const int *g, size_t gn, int **ret, size_t *ret_n)
{
	(void)self;
	*ret = malloc((fn + gn + 1) * sizeof(int));
	for (size_t i = 0; i < fn; i++)
		(*ret)[i] = dup(f[i]);
	for (size_t i = 0; g && i < gn; i++)
		(*ret)[fn + i] = g[i] >= 0 ? dup(g[i]) : dup(f[0]);
	*ret_n = fn + (g ? gn : 0);
	return 0;
}

static int l_bag(void *self, const org_binderc_test_Bag *b, org_binderc_test_Bag *ret)
{
	(void)self;
	ret->after = b->after + (int32_t)b->points_len;
	return 0;
}

static const struct org_binderc_test_ILists_ops lops = {
	.echo = l_echo, .fill = l_fill, .maybe = l_maybe, .callbacks = l_callbacks, .fds = l_fds, .bag = l_bag,
};

/* A stub's reply to a @nullable Point[] holding a null element, and to a
 * null one: bytes as Android's. */
Test(aidl_lists, nullable_parcelable_array_stub)
{
	bc_parcel *in = at_parcel(), *reply = at_parcel(), *want = at_parcel();

	bc_parcel_write_int32(in, 2);
	want_point(in, 3);
	bc_parcel_write_int32(in, 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_ILists_dispatch(&lops, NULL, org_binderc_test_ILists_CODE_maybe, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 2);
	want_point(want, 6);
	bc_parcel_write_int32(want, 0);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);

	in = at_parcel(), reply = at_parcel(), want = at_parcel();
	bc_parcel_write_int32(in, -1);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_ILists_dispatch(&lops, NULL, org_binderc_test_ILists_CODE_maybe, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, -1);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);
}

static int nop_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

/* In process, through the proxies and the stub. */
Test(aidl_lists, loopback)
{
	bc_binder *svc = NULL, *cb = NULL;
	bc_class *cls = NULL;
	org_binderc_test_Point pts[2], *r = NULL, **nr = NULL;
	size_t n = 0;
	bc_binder **br = NULL;
	int *fr = NULL, a = at_temp_file("x"), c = at_temp_file("yy");

	cr_assert_eq(org_binderc_test_ILists_stub_new(&lops, NULL, NULL, &svc), 0);
	point(&pts[0], 5), point(&pts[1], 6);
	cr_assert_eq(org_binderc_test_ILists_echo(svc, pts, 2, &r, &n), 0);
	cr_assert(n == 2 && r[0].x == 6 && r[1].x == 5);
	org_binderc_test_Point_free_array(r, n);

	r = NULL, n = 3;
	{
		bc_binder **bs = NULL;
		size_t bn = 0;

		cr_assert_eq(org_binderc_test_ILists_fill(svc, &r, &n, &bs, &bn), 0);
		cr_assert(n == 3 && r[2].x == 12);
		org_binderc_test_Point_free_array(r, n);
		free(bs);
	}

	cr_assert_eq(org_binderc_test_ILists_maybe(svc, NULL, 0, &nr, &n), 0);
	cr_assert_null(nr);
	cr_assert_eq(org_binderc_test_ILists_maybe(svc, (const org_binderc_test_Point *const[]){ NULL, &pts[1] }, 2,
						   &nr, &n),
		     0);
	cr_assert(n == 2 && !nr[0] && nr[1]->x == 12);
	org_binderc_test_Point_free_nullable_array(nr, n);

	cr_assert_eq(bc_class_new("org.binderc.test.ICallback", nop_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &cb), 0);
	cr_assert_eq(org_binderc_test_ILists_callbacks(svc, (bc_binder *const[]){ cb, NULL }, 2, &br, &n), 0);
	cr_assert(n == 2 && br[0] == cb && !br[1]);
	for (size_t i = 0; i < n; i++)
		bc_binder_unref(br[i]);
	free(br);
	cr_assert_eq(org_binderc_test_ILists_callbacks(svc, NULL, 0, &br, &n), 0);
	cr_assert_null(br);

	cr_assert_eq(org_binderc_test_ILists_fds(svc, (const int[]){ a }, 1, (const int[]){ -1, c }, 2, &fr, &n), 0);
	cr_assert(n == 3 && at_same_file(fr[0], a) && at_same_file(fr[1], a) && at_same_file(fr[2], c));
	for (size_t i = 0; i < n; i++)
		close(fr[i]);
	free(fr);
	cr_assert_eq(org_binderc_test_ILists_fds(svc, (const int[]){ -1 }, 1, NULL, 0, &fr, &n), -EINVAL);

	org_binderc_test_Point_clear(&pts[0]), org_binderc_test_Point_clear(&pts[1]);
	close(a), close(c);
	bc_binder_unref(cb), bc_binder_unref(svc), bc_class_unref(cls);
}
