// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the contended half of the lock helpers of lock.h.  Reached only
 * when the trylock failed; with both lock events off it just takes the
 * lock, so tracing costs nothing until someone enables it.
 */
#include <linux/ktime.h>
#include "binderc.h"
#include "trace.h"

static bool binderc_lock_traced(void)
{
	return trace_binderc_lock_wait_enabled() ||
	       trace_binderc_lock_acquired_enabled();
}

void binderc_spin_lock_wait(spinlock_t *lock, enum binderc_lock_kind kind,
			    int id)
{
	u64 start;

	if (!binderc_lock_traced()) {
		spin_lock(lock);
		return;
	}
	trace_binderc_lock_wait(kind, id);
	start = ktime_get_ns();
	spin_lock(lock);
	trace_binderc_lock_acquired(kind, id, ktime_get_ns() - start);
}

void binderc_mutex_lock_wait(struct mutex *lock, enum binderc_lock_kind kind,
			     int id)
{
	u64 start;

	if (!binderc_lock_traced()) {
		mutex_lock(lock);
		return;
	}
	trace_binderc_lock_wait(kind, id);
	start = ktime_get_ns();
	mutex_lock(lock);
	trace_binderc_lock_acquired(kind, id, ktime_get_ns() - start);
}
