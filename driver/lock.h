/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: taking the driver's locks, with the waits made visible.
 *
 * Every lock of the transaction path (proc inner and outer locks, node
 * locks, alloc->mutex, the context manager lock, t->lock and the dead
 * nodes' lock) is taken through one of the helpers below, and released
 * through its binderc_unlock_*() pair.  While neither lock event is
 * enabled a helper is the plain spin_lock() or mutex_lock() behind a
 * static branch (a no-op jump): tracing costs nothing until someone turns
 * it on.  Enabling binderc:binderc_lock_wait or binderc_lock_acquired
 * flips the branch (the events' register hooks, lock.c), and the helpers
 * go out of line to lock.c, which tries the lock first and, only when
 * someone else holds it, emits binderc_lock_wait, takes the lock the
 * ordinary way and emits binderc_lock_acquired with the time it waited.
 * Release is never traced: an unlock helper is a plain spin_unlock() or
 * mutex_unlock(), there so that every lock and unlock of one lock reads
 * the same (scripts/check-style keeps the raw calls out).
 *
 * Lockdep: a trylock teaches lockdep no lock order (a trylock cannot
 * deadlock), so a successful try of the traced path is annotated again as
 * a full acquisition on lockdep kernels (lock.c); lockdep then checks
 * every nesting as if the lock had been taken with spin_lock() or
 * mutex_lock(), and lockdep_assert_held() sees the lock held as before.
 *
 * The events name the lock by kind and by the number of the object that
 * owns it (a pid or debug id, never an address).  Included at the end of
 * binderc.h, so every file has the helpers.
 */
#ifndef BINDERC_LOCK_H
#define BINDERC_LOCK_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
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

/* lock.c: on while a lock event is enabled; its register hooks. */
DECLARE_STATIC_KEY_FALSE(binderc_lock_tracing);
int binderc_lock_trace_reg(void);
void binderc_lock_trace_unreg(void);

/*
 * lock.c: the traced paths.  They get the lock's owner (a proc, node,
 * alloc or transaction by kind; NULL for the global locks) and read its
 * id themselves, so that the untraced path loads nothing for them.
 */
void binderc_spin_lock_traced(spinlock_t *lock, enum binderc_lock_kind kind,
			      const void *owner) __acquires(lock);
void binderc_mutex_lock_traced(struct mutex *lock,
			       enum binderc_lock_kind kind, const void *owner)
	__acquires(lock);

static __always_inline void
binderc_spin_lock(spinlock_t *lock, enum binderc_lock_kind kind,
		  const void *owner)
	__acquires(lock)
{
	if (static_branch_unlikely(&binderc_lock_tracing))
		binderc_spin_lock_traced(lock, kind, owner);
	else
		spin_lock(lock);
}

static __always_inline void
binderc_mutex_lock(struct mutex *lock, enum binderc_lock_kind kind,
		   const void *owner)
	__acquires(lock)
{
	if (static_branch_unlikely(&binderc_lock_tracing))
		binderc_mutex_lock_traced(lock, kind, owner);
	else
		mutex_lock(lock);
}

static __always_inline void binderc_lock_inner(struct binderc_proc *proc)
	__acquires(&proc->inner_lock)
{
	binderc_spin_lock(&proc->inner_lock, BINDERC_LOCK_PROC_INNER, proc);
}

static __always_inline void binderc_lock_outer(struct binderc_proc *proc)
	__acquires(&proc->outer_lock)
{
	binderc_spin_lock(&proc->outer_lock, BINDERC_LOCK_PROC_OUTER, proc);
}

static __always_inline void binderc_lock_node(struct binderc_node *node)
	__acquires(&node->lock)
{
	binderc_spin_lock(&node->lock, BINDERC_LOCK_NODE, node);
}

static __always_inline void binderc_lock_alloc(struct binderc_alloc *alloc)
	__acquires(&alloc->mutex)
{
	binderc_mutex_lock(&alloc->mutex, BINDERC_LOCK_ALLOC, alloc);
}

static __always_inline void binderc_lock_mgr(struct binderc_context *ctx)
	__acquires(&ctx->mgr_lock)
{
	binderc_spin_lock(&ctx->mgr_lock, BINDERC_LOCK_MGR, NULL);
}

static __always_inline void binderc_lock_txn(struct binderc_transaction *t)
	__acquires(&t->lock)
{
	binderc_spin_lock(&t->lock, BINDERC_LOCK_TXN, t);
}

static __always_inline void binderc_lock_dead_nodes(void)
	__acquires(&binderc_dead_nodes_lock)
{
	binderc_spin_lock(&binderc_dead_nodes_lock, BINDERC_LOCK_DEAD_NODES,
			  NULL);
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
