/* SPDX-License-Identifier: MIT */
/*
 * Reference counts of local objects under contention (no kernel): the
 * last strong reference dropped while other threads promote weak
 * references and take and drop strong ones.  The counts are lock-free
 * atomics; these tests check the promises that must survive that:
 * on_destroy runs exactly once, never while a promoted reference is held,
 * and no promotion succeeds after it.  Run under ASan/UBSan (and once
 * under TSan by hand, see the report of issue 19).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "ut.h"

#define DESC "test.IRefs"
#define THREADS 6
#define ROUNDS 100

struct obj {
	atomic_int destroyed;
	atomic_int calls;
};

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	struct obj *o = ud;

	(void)self;
	(void)txn;
	(void)code;
	(void)in;
	/* a live reference is held by the caller: never after destruction */
	cr_assert_eq(atomic_load(&o->destroyed), 0);
	atomic_fetch_add(&o->calls, 1);
	return bc_parcel_write_int32(reply, 7);
}

static void on_destroy(void *ud)
{
	struct obj *o = ud;

	atomic_fetch_add(&o->destroyed, 1);
}

struct round {
	bc_weak *w;
	struct obj *o;
	pthread_barrier_t *start;
	atomic_int promoted, failed_then_ok;
};

/* Promote a few hundred times or until promotion fails; once it has failed
 * it must keep failing.  (While the promoters overlap, the count may never
 * reach zero before they stop: then the last of them destroys.) */
static void *promoter(void *arg)
{
	struct round *rd = arg;
	bool failed = false;

	pthread_barrier_wait(rd->start);
	for (int i = 0; i < 300; i++) {
		bc_binder *b = NULL, *extra;
		bc_parcel *rep = NULL;

		if (bc_weak_promote(rd->w, &b) < 0) {
			failed = true;
			/* a few more tries: no revival after destruction */
			if (i % 8 == 7)
				break;
			continue;
		}
		if (failed)
			atomic_fetch_add(&rd->failed_then_ok, 1);
		atomic_fetch_add(&rd->promoted, 1);
		cr_assert_eq(atomic_load(&rd->o->destroyed), 0);
		extra = bc_binder_ref(b);
		cr_assert(bc_binder_is_alive(extra));
		cr_assert_eq(bc_binder_transact(extra, 1, NULL, &rep, 0, NULL), 0);
		bc_parcel_unref(rep);
		bc_binder_unref(extra);
		bc_binder_unref(b);
	}
	return NULL;
}

Test(refs, last_unref_races_promotions)
{
	bc_class *c;

	cr_assert_eq(bc_class_new(DESC, on_transact, on_destroy, 0, &c), 0);
	for (int round = 0; round < ROUNDS; round++) {
		pthread_barrier_t start;
		pthread_t th[THREADS];
		struct obj o = { 0 };
		struct round rd = { .o = &o, .start = &start };
		bc_binder *b;

		cr_assert_eq(bc_binder_new(c, &o, &b), 0);
		cr_assert_eq(bc_weak_new(b, &rd.w), 0);
		pthread_barrier_init(&start, NULL, THREADS + 1);
		for (int i = 0; i < THREADS; i++)
			pthread_create(&th[i], NULL, promoter, &rd);
		pthread_barrier_wait(&start);
		/* let the promoters run a little before the last unref */
		for (volatile int spin = 0; spin < (round % 16) * 1000; spin++)
			;
		bc_binder_unref(b);
		for (int i = 0; i < THREADS; i++)
			pthread_join(th[i], NULL);
		pthread_barrier_destroy(&start);
		cr_assert_eq(atomic_load(&o.destroyed), 1, "round %d: on_destroy ran %d times", round,
			     atomic_load(&o.destroyed));
		cr_assert_eq(atomic_load(&rd.failed_then_ok), 0, "round %d: revived after destruction", round);
		cr_assert_eq(atomic_load(&o.calls), atomic_load(&rd.promoted));
		cr_assert_eq(bc_weak_promote(rd.w, &b), -ESRCH);
		/* the last weak reference frees the object (ASan sees misuse) */
		cr_assert_null(bc_weak_unref(rd.w));
	}
	bc_class_unref(c);
}

struct churn {
	bc_binder *b;
	bc_weak *w;
	pthread_barrier_t *start;
};

/* Weak references made and dropped, strong ones taken and dropped, while
 * other threads do the same: the counts must come back to where they were. */
static void *churner(void *arg)
{
	struct churn *ch = arg;

	pthread_barrier_wait(ch->start);
	for (int i = 0; i < 5000; i++) {
		bc_weak *w = NULL;
		bc_binder *s = NULL;

		cr_assert_eq(bc_weak_new(ch->b, &w), 0);
		cr_assert_eq(bc_weak_promote(w, &s), 0);
		bc_weak_unref(w);
		bc_binder_unref(bc_binder_ref(s));
		bc_binder_unref(s);
	}
	return NULL;
}

Test(refs, counts_balance_under_contention)
{
	pthread_barrier_t start;
	pthread_t th[THREADS];
	struct churn ch;
	struct obj o = { 0 };
	bc_class *c;
	bc_binder *s;

	cr_assert_eq(bc_class_new(DESC, on_transact, on_destroy, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, &o, &ch.b), 0);
	bc_class_unref(c);
	cr_assert_eq(bc_weak_new(ch.b, &ch.w), 0);
	pthread_barrier_init(&start, NULL, THREADS);
	ch.start = &start;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, churner, &ch);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	cr_assert_eq(atomic_load(&o.destroyed), 0);
	/* exactly one strong reference is left: dropping it destroys */
	bc_binder_unref(ch.b);
	cr_assert_eq(atomic_load(&o.destroyed), 1);
	cr_assert_eq(bc_weak_promote(ch.w, &s), -ESRCH);
	cr_assert_null(bc_weak_unref(ch.w));
}
