// SPDX-License-Identifier: MIT
/*
 * The rule of binderc/slot.h, on slots made here with the library's
 * internal calls (the kinds that use them need a kernel): a drop from
 * another thread waits for a running callback and none starts after it;
 * a drop from inside the callback returns at once and the call ends on
 * valid memory; the owner lets go exactly once.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include <binderc/binderc.h>

#include "harness.h"
#include "slot_internal.h"

static atomic_int detached, released;

static void count_detach(bc_slot *s)
{
	(void)s;
	atomic_fetch_add(&detached, 1);
}

static void count_release(bc_slot *s)
{
	(void)s;
	atomic_fetch_add(&released, 1);
}

static const struct bc_slot_ops ops = { .detach = count_detach, .release = count_release };

static bc_slot *new_slot(void *userdata)
{
	bc_slot *s = NULL;

	atomic_store(&detached, 0);
	atomic_store(&released, 0);
	cr_assert_eq(bc__slot_new(&ops, NULL, userdata, &s), 0);
	return s;
}

/* What the owner does to run the callback once (the callback is @fn). */
static bool run_once(bc_slot *s, void (*fn)(bc_slot *s))
{
	struct bc_slot_call call;
	bool ran = false;

	bc__slot_hold(s);
	if (bc__slot_enter(s, &call)) {
		fn(s);
		bc__slot_leave(&call);
		ran = true;
	}
	bc__slot_put(s);
	return ran;
}

Test(slot, userdata_refs_and_end)
{
	int x;
	bc_slot *s = new_slot(&x);

	cr_assert_eq(bc_slot_get_userdata(s), &x);
	cr_assert_null(bc_slot_get_userdata(NULL));
	cr_assert_eq(bc_slot_ref(s), s);
	cr_assert_null(bc_slot_unref(s));
	cr_assert_eq(atomic_load(&detached), 0, "a reference is left");
	cr_assert_null(bc_slot_unref(s));
	cr_assert_eq(atomic_load(&detached), 1);
	cr_assert_eq(atomic_load(&released), 1);
	cr_assert_null(bc_slot_unref(NULL));
}

static atomic_int calls;

static void drop_self(bc_slot *s)
{
	atomic_fetch_add(&calls, 1);
	bc_slot_unref(s); /* the caller's only reference, from inside */
	/* ended, not freed: the call holds the memory */
	cr_assert_eq(atomic_load(&detached), 1);
	cr_assert_eq(atomic_load(&released), 0);
	cr_assert_eq(bc_slot_get_userdata(s), &calls);
}

Test(slot, drop_from_inside)
{
	bc_slot *s = new_slot(&calls);

	atomic_store(&calls, 0);
	bc__slot_hold(s); /* the owner's list */
	cr_assert(run_once(s, drop_self));
	cr_assert_eq(atomic_load(&calls), 1);
	cr_assert_not(run_once(s, drop_self), "called after it was dropped");
	cr_assert_eq(atomic_load(&released), 0);
	bc__slot_put(s); /* the owner lets go: freed now */
	cr_assert_eq(atomic_load(&released), 1);
}

static atomic_bool in_call, may_return;

static void slow(bc_slot *s)
{
	(void)s;
	atomic_store(&in_call, true);
	while (!atomic_load(&may_return))
		usleep(1000);
}

static void *run_slow(void *arg)
{
	run_once(arg, slow);
	return NULL;
}

static void *drop(void *arg)
{
	bc_slot_unref(arg);
	return NULL;
}

Test(slot, drop_from_another_thread_waits)
{
	bc_slot *s = new_slot(NULL);
	pthread_t runner, dropper;
	int64_t end = th_now_ms() + TH_HANG_MS;

	atomic_store(&in_call, false);
	atomic_store(&may_return, false);
	cr_assert_eq(pthread_create(&runner, NULL, run_slow, s), 0);
	while (!atomic_load(&in_call) && th_nap_until(end))
		;
	cr_assert(atomic_load(&in_call));
	cr_assert_eq(pthread_create(&dropper, NULL, drop, s), 0);
	/* a negative check: only wrong towards a pass */
	usleep(100 * 1000);
	cr_assert_eq(atomic_load(&released), 0, "freed under a running call");
	atomic_store(&may_return, true);
	pthread_join(dropper, NULL);
	/* when the drop returned, the call was over */
	pthread_join(runner, NULL);
	cr_assert_eq(atomic_load(&detached), 1);
	cr_assert_eq(atomic_load(&released), 1);
}
