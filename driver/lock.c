// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the traced half of the lock helpers of lock.h, reached only
 * while binderc_lock_wait or binderc_lock_acquired is enabled.
 */
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include "binderc.h"
#include "trace.h"

DEFINE_STATIC_KEY_FALSE(binderc_lock_tracing);

/*
 * Each lock event's register hook counts itself in: the helpers stay on
 * the traced path while either event is on.
 */
int binderc_lock_trace_reg(void)
{
	static_branch_inc(&binderc_lock_tracing);
	return 0;
}

void binderc_lock_trace_unreg(void)
{
	static_branch_dec(&binderc_lock_tracing);
}

/* Re-record a successful trylock as a lock taken in order (see lock.h). */
#ifdef CONFIG_DEBUG_LOCK_ALLOC
static void binderc_retake_spin(spinlock_t *lock)
{
	lock_release(&lock->dep_map, _THIS_IP_);
	lock_acquire_exclusive(&lock->dep_map, 0, 0, NULL, _THIS_IP_);
}

static void binderc_retake_mutex(struct mutex *lock)
{
	lock_release(&lock->dep_map, _THIS_IP_);
	lock_acquire_exclusive(&lock->dep_map, 0, 0, NULL, _THIS_IP_);
}
#else
static void binderc_retake_spin(spinlock_t *lock) { }
static void binderc_retake_mutex(struct mutex *lock) { }
#endif

/* The number the events give the owner of a lock (see lock.h). */
static int binderc_lock_id(enum binderc_lock_kind kind, const void *owner)
{
	switch (kind) {
	case BINDERC_LOCK_PROC_INNER:
	case BINDERC_LOCK_PROC_OUTER:
		return ((const struct binderc_proc *)owner)->pid;
	case BINDERC_LOCK_NODE:
		return ((const struct binderc_node *)owner)->debug_id;
	case BINDERC_LOCK_ALLOC:
		return ((const struct binderc_alloc *)owner)->pid;
	case BINDERC_LOCK_TXN:
		return ((const struct binderc_transaction *)owner)->debug_id;
	default:
		return 0;
	}
}

void binderc_spin_lock_traced(spinlock_t *lock, enum binderc_lock_kind kind,
			      const void *owner)
{
	int id = binderc_lock_id(kind, owner);
	u64 start;

	if (spin_trylock(lock)) {
		binderc_retake_spin(lock);
		return;
	}
	trace_binderc_lock_wait(kind, id);
	start = ktime_get_ns();
	spin_lock(lock);
	trace_binderc_lock_acquired(kind, id, ktime_get_ns() - start);
}

void binderc_mutex_lock_traced(struct mutex *lock,
			       enum binderc_lock_kind kind, const void *owner)
{
	int id = binderc_lock_id(kind, owner);
	u64 start;

	/* mutex_lock() checks this; a successful trylock would not */
	might_sleep();
	if (mutex_trylock(lock)) {
		binderc_retake_mutex(lock);
		return;
	}
	trace_binderc_lock_wait(kind, id);
	start = ktime_get_ns();
	mutex_lock(lock);
	trace_binderc_lock_acquired(kind, id, ktime_get_ns() - start);
}
