/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: taking the driver's locks, with the waits made visible.
 *
 * Every lock of the transaction path (proc inner and outer locks, node
 * locks, alloc->mutex, the context manager lock, t->lock and the dead
 * nodes' lock) is taken through one of the helpers below, and released
 * through its binderc_unlock_*() pair.  Each lock helper tries the lock
 * first; only when someone else holds it does it go out of line (lock.c),
 * where, if the events are enabled, it emits binderc:binderc_lock_wait,
 * takes the lock the ordinary way and emits binderc:binderc_lock_acquired
 * with the time it waited.  An uncontended lock costs the trylock alone.
 * Release is never traced: an unlock helper is a plain spin_unlock() or
 * mutex_unlock(), there so that every lock and unlock of one lock reads
 * the same (scripts/check-style keeps the raw calls out).
 *
 * Lockdep: a trylock teaches lockdep no lock order (a trylock cannot
 * deadlock), so a successful try is annotated again as a full acquisition
 * on lockdep kernels; lockdep then checks every nesting as if the lock had
 * been taken with spin_lock()/mutex_lock(), and lockdep_assert_held()
 * sees the lock held as before.
 *
 * The events name the lock by kind and by the number of the object that
 * owns it (a pid or debug id, never an address).  Included at the end of
 * binderc.h, so every file has the helpers.
 */
#ifndef BINDERC_LOCK_H
#define BINDERC_LOCK_H

#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include "binderc.h"

/* Which lock waited; the id in the events says whose. */
enum binderc_lock_kind {
	BINDERC_LOCK_PROC_INNER,	/* proc->inner_lock; id: pid */
	BINDERC_LOCK_PROC_OUTER,	/* proc->outer_lock; id: pid */
	BINDERC_LOCK_NODE,		/* node->lock; id: node debug id */
	BINDERC_LOCK_ALLOC,		/* alloc->mutex; id: pid */
	BINDERC_LOCK_MGR,		/* context->mgr_lock; id: 0 */
	BINDERC_LOCK_TXN,		/* t->lock; id: transaction debug id */
	BINDERC_LOCK_DEAD_NODES,	/* binderc_dead_nodes_lock; id: 0 */
};

/* lock.c: the contended paths. */
void binderc_spin_lock_wait(spinlock_t *lock, enum binderc_lock_kind kind,
			    int id) __acquires(lock);
void binderc_mutex_lock_wait(struct mutex *lock, enum binderc_lock_kind kind,
			     int id) __acquires(lock);

/* Re-record a successful trylock as a lock taken in order (see above). */
#ifdef CONFIG_DEBUG_LOCK_ALLOC
static __always_inline void binderc_lockdep_retake(struct lockdep_map *map)
{
	lock_release(map, _THIS_IP_);
	lock_acquire_exclusive(map, 0, 0, NULL, _THIS_IP_);
}

static __always_inline void binderc_retake_spin(spinlock_t *lock)
{
	binderc_lockdep_retake(&lock->dep_map);
}

static __always_inline void binderc_retake_mutex(struct mutex *lock)
{
	binderc_lockdep_retake(&lock->dep_map);
}
#else
static inline void binderc_retake_spin(spinlock_t *lock) { }
static inline void binderc_retake_mutex(struct mutex *lock) { }
#endif

static __always_inline void
binderc_spin_lock(spinlock_t *lock, enum binderc_lock_kind kind, int id)
	__acquires(lock)
{
	if (likely(spin_trylock(lock))) {
		binderc_retake_spin(lock);
		return;
	}
	binderc_spin_lock_wait(lock, kind, id);
}

static __always_inline void
binderc_mutex_lock(struct mutex *lock, enum binderc_lock_kind kind, int id)
	__acquires(lock)
{
	/* mutex_lock() checks this; a successful trylock would not */
	might_sleep();
	if (likely(mutex_trylock(lock))) {
		binderc_retake_mutex(lock);
		return;
	}
	binderc_mutex_lock_wait(lock, kind, id);
}

static __always_inline void binderc_lock_inner(struct binderc_proc *proc)
	__acquires(&proc->inner_lock)
{
	binderc_spin_lock(&proc->inner_lock, BINDERC_LOCK_PROC_INNER,
			  proc->pid);
}

static __always_inline void binderc_lock_outer(struct binderc_proc *proc)
	__acquires(&proc->outer_lock)
{
	binderc_spin_lock(&proc->outer_lock, BINDERC_LOCK_PROC_OUTER,
			  proc->pid);
}

static __always_inline void binderc_lock_node(struct binderc_node *node)
	__acquires(&node->lock)
{
	binderc_spin_lock(&node->lock, BINDERC_LOCK_NODE, node->debug_id);
}

static __always_inline void binderc_lock_alloc(struct binderc_alloc *alloc)
	__acquires(&alloc->mutex)
{
	binderc_mutex_lock(&alloc->mutex, BINDERC_LOCK_ALLOC, alloc->pid);
}

static __always_inline void binderc_lock_mgr(struct binderc_context *ctx)
	__acquires(&ctx->mgr_lock)
{
	binderc_spin_lock(&ctx->mgr_lock, BINDERC_LOCK_MGR, 0);
}

static __always_inline void binderc_lock_txn(struct binderc_transaction *t)
	__acquires(&t->lock)
{
	binderc_spin_lock(&t->lock, BINDERC_LOCK_TXN, t->debug_id);
}

static __always_inline void binderc_lock_dead_nodes(void)
	__acquires(&binderc_dead_nodes_lock)
{
	binderc_spin_lock(&binderc_dead_nodes_lock, BINDERC_LOCK_DEAD_NODES, 0);
}

/* The unlock helpers, one for each lock helper above. */
static __always_inline void binderc_unlock_inner(struct binderc_proc *proc)
	__releases(&proc->inner_lock)
{
	spin_unlock(&proc->inner_lock);
}

static __always_inline void binderc_unlock_outer(struct binderc_proc *proc)
	__releases(&proc->outer_lock)
{
	spin_unlock(&proc->outer_lock);
}

static __always_inline void binderc_unlock_node(struct binderc_node *node)
	__releases(&node->lock)
{
	spin_unlock(&node->lock);
}

static __always_inline void binderc_unlock_alloc(struct binderc_alloc *alloc)
	__releases(&alloc->mutex)
{
	mutex_unlock(&alloc->mutex);
}

static __always_inline void binderc_unlock_mgr(struct binderc_context *ctx)
	__releases(&ctx->mgr_lock)
{
	spin_unlock(&ctx->mgr_lock);
}

static __always_inline void binderc_unlock_txn(struct binderc_transaction *t)
	__releases(&t->lock)
{
	spin_unlock(&t->lock);
}

static __always_inline void binderc_unlock_dead_nodes(void)
	__releases(&binderc_dead_nodes_lock)
{
	spin_unlock(&binderc_dead_nodes_lock);
}

#endif /* BINDERC_LOCK_H */
