// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: real-time priority inheritance, an opt-in of the node's owner.
 *
 * A node may carry, in its flat_binder_object flags, a minimum scheduling
 * policy and priority (FLAT_BINDER_FLAG_SCHED_POLICY_MASK and the priority
 * byte) and FLAT_BINDER_FLAG_INHERIT_RT.  The thread that serves a call to
 * it is raised to the higher of the node's real-time minimum and, for a
 * sync call to an INHERIT_RT node, the caller's own SCHED_FIFO/SCHED_RR
 * priority; it is put back when it replies, when it next waits for work
 * with nothing on its stack, and when it leaves binder.  A thread is never
 * lowered, and nothing is lent that its holder does not have: the caller
 * already runs at what it lends, and the owner's right to its minimum is
 * checked (CAP_SYS_NICE or RLIMIT_RTPRIO) when the node is created.
 * Mainline ignores these bits; a node that sets neither a policy nor
 * INHERIT_RT keeps mainline's meaning of the priority byte.
 */
#include <linux/capability.h>
#include <linux/lockdep.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <uapi/linux/sched.h>

#include "binderc.h"

static bool binderc_is_rt_policy(int policy)
{
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

static int binderc_flags_policy(u32 flags)
{
	return (flags & FLAT_BINDER_FLAG_SCHED_POLICY_MASK) >>
	       FLAT_BINDER_FLAG_SCHED_POLICY_SHIFT;
}

static bool binderc_flags_opt_in(u32 flags)
{
	return binderc_flags_policy(flags) ||
	       (flags & FLAT_BINDER_FLAG_INHERIT_RT);
}

/*
 * Validate the scheduling bits of a node about to be created from @flags,
 * in its owner's context: 0, -EINVAL (SCHED_BATCH, which is no minimum,
 * or a priority out of range), -EPERM (a real-time minimum the owner may
 * not take itself) or -EOPNOTSUPP (a kernel that cannot set it).
 */
int binderc_node_sched_check(u32 flags)
{
	int policy = binderc_flags_policy(flags);
	int prio = flags & FLAT_BINDER_FLAG_PRIORITY_MASK;

	if (!binderc_flags_opt_in(flags))
		return 0;
	if (!BINDERC_KERNEL_HAS_RT_INHERIT)
		return -EOPNOTSUPP;
	switch (policy) {
	case SCHED_NORMAL:
		/* The byte is a nice value here, as in Android's binder. */
		if ((s8)prio < MIN_NICE || (s8)prio > MAX_NICE)
			return -EINVAL;
		return 0;
	case SCHED_FIFO:
	case SCHED_RR:
		if (prio < 1 || prio > MAX_RT_PRIO - 1)
			return -EINVAL;
		if (!capable(CAP_SYS_NICE) && prio > rlimit(RLIMIT_RTPRIO))
			return -EPERM;
		return 0;
	default:
		return -EINVAL;
	}
}

/* @flags passed binderc_node_sched_check() in the owner's context. */
void binderc_node_sched_init(struct binderc_node *node, u32 flags)
{
	int policy = binderc_flags_policy(flags);
	int prio = flags & FLAT_BINDER_FLAG_PRIORITY_MASK;

	node->min_priority = prio;
	if (!binderc_flags_opt_in(flags))
		return;
	node->inherit_rt = !!(flags & FLAT_BINDER_FLAG_INHERIT_RT);
	if (binderc_is_rt_policy(policy)) {
		node->min_rt_policy = policy;
		node->min_rt_prio = prio;
		node->min_priority = 0;
	} else {
		node->min_priority = (s8)prio;
	}
}

/* In the sender's context, when a call to @node is built. */
void binderc_txn_sched_record(struct binderc_transaction *t,
			      struct binderc_node *node)
{
	if (!node || !node->inherit_rt || (t->flags & TF_ONE_WAY))
		return;
	if (!binderc_is_rt_policy(current->policy))
		return;
	t->rt_policy = current->policy;
	t->rt_prio = current->rt_priority;
}

static void binderc_sched_get(struct task_struct *p, struct binderc_sched *s)
{
	s->policy = p->policy;
	s->rt_prio = p->rt_priority;
	s->reset_on_fork = p->sched_reset_on_fork;
}

static void binderc_sched_put(struct task_struct *p,
			      const struct binderc_sched *s)
{
	binderc_sched_setattr(p, s->policy, s->rt_prio, s->reset_on_fork);
}

static bool binderc_sched_eq(const struct binderc_sched *a,
			     const struct binderc_sched *b)
{
	return a->policy == b->policy && a->rt_prio == b->rt_prio;
}

/*
 * What a thread taking @t for @node is owed: the caller's class for a
 * sync call, or the node's minimum if higher.  False: nothing.
 */
bool binderc_sched_want(struct binderc_transaction *t,
			struct binderc_node *node, struct binderc_sched *want)
{
	memset(want, 0, sizeof(*want));
	if (!(t->flags & TF_ONE_WAY) && t->rt_policy) {
		want->policy = t->rt_policy;
		want->rt_prio = t->rt_prio;
	}
	if (node->min_rt_policy && node->min_rt_prio > want->rt_prio) {
		want->policy = node->min_rt_policy;
		want->rt_prio = node->min_rt_prio;
	}
	return want->policy;
}

/* Drop the raise record; thread->sched_lock held. */
static void binderc_sched_forget(struct binderc_thread *thread)
{
	lockdep_assert_held(&thread->sched_lock);
	put_task_struct(thread->sched_task);
	WRITE_ONCE(thread->sched_task, NULL);
}

/* Never lower: an equal or higher real-time class, or deadline, stays. */
static bool binderc_sched_covers(const struct binderc_sched *cur,
				 const struct binderc_sched *want)
{
	return (binderc_is_rt_policy(cur->policy) &&
		cur->rt_prio >= want->rt_prio) ||
	       cur->policy == SCHED_DEADLINE;
}

/*
 * Raise @p to @want, first noting the thread's own class;
 * thread->sched_lock held.
 */
static void binderc_sched_lift(struct binderc_thread *thread,
			       struct task_struct *p,
			       const struct binderc_sched *cur,
			       const struct binderc_sched *want)
{
	struct binderc_sched w = *want;

	lockdep_assert_held(&thread->sched_lock);
	if (!thread->sched_task) {
		get_task_struct(p);
		WRITE_ONCE(thread->sched_task, p);
		thread->base_sched = *cur;
	}
	w.reset_on_fork = cur->reset_on_fork;
	binderc_sched_put(p, &w);
}

/*
 * The caller, in its own context, just woke @thread for a sync call
 * owed @want: raise the thread before it runs against whatever is busy,
 * unless it already went back down since the caller picked it (@gen, read
 * then), i.e. the call is over.  The call it takes next owns the boost.
 */
void binderc_sched_boost(struct binderc_thread *thread, unsigned int gen,
			 const struct binderc_sched *want, bool idle)
{
	struct binderc_sched cur;

	mutex_lock(&thread->sched_lock);
	if (thread->sched_gen != gen || thread->boosted)
		goto out;
	binderc_sched_get(thread->task, &cur);
	if (binderc_sched_covers(&cur, want))
		goto out;
	/* An idle thread not yet back down goes back to its own class. */
	thread->boost_saved = idle && thread->sched_task ?
			      thread->base_sched : cur;
	thread->boosted = true;
	binderc_sched_lift(thread, thread->task, &cur, want);
out:
	mutex_unlock(&thread->sched_lock);
}

/*
 * The serving thread (current) picks up @t for @node: raise it to what the
 * call is owed, saving what it ran at in @t when a reply will follow.
 */
void binderc_sched_raise(struct binderc_thread *thread,
			 struct binderc_transaction *t,
			 struct binderc_node *node)
{
	bool sync = !(t->flags & TF_ONE_WAY);
	struct binderc_sched cur, want;
	bool owed, idle;

	/*
	 * Every call comes here: one that is owed nothing, taken by a thread
	 * neither raised nor boosted, takes no lock (and fills in nothing).
	 * A boost racing with these reads is one that lands after the pickup,
	 * as it could under the lock too; the thread goes back down when it
	 * next waits.
	 */
	if (!binderc_sched_maybe_owed(t, node) &&
	    !READ_ONCE(thread->sched_task) && !READ_ONCE(thread->boosted))
		return;
	owed = binderc_sched_want(t, node, &want);
	binderc_lock_inner(thread->proc);
	idle = !thread->transaction_stack;
	binderc_unlock_inner(thread->proc);

	mutex_lock(&thread->sched_lock);
	if (thread->boosted) {
		/* The caller's boost: this call goes back to before it. */
		thread->boosted = false;
		if (sync) {
			t->saved_sched = thread->boost_saved;
			t->sched_saved = true;
		}
	} else if (idle && thread->sched_task) {
		/* Still up from its last call: nothing of it is lent on. */
		binderc_sched_put(current, &thread->base_sched);
		binderc_sched_forget(thread);
		WRITE_ONCE(thread->idle_pending, false);
	}
	if (!owed)
		goto out;
	binderc_sched_get(current, &cur);
	if (binderc_sched_covers(&cur, &want))
		goto out;
	if (sync && !t->sched_saved) {
		t->saved_sched = cur;
		t->sched_saved = true;
	}
	binderc_sched_lift(thread, current, &cur, &want);
out:
	mutex_unlock(&thread->sched_lock);
}

/* The thread has replied: back to @saved, what it ran at before the call. */
static void binderc_sched_restore(struct binderc_thread *thread,
				  const struct binderc_sched *saved)
{
	mutex_lock(&thread->sched_lock);
	WRITE_ONCE(thread->sched_gen, thread->sched_gen + 1);
	if (thread->sched_task) {
		binderc_sched_put(thread->sched_task, saved);
		if (binderc_sched_eq(saved, &thread->base_sched))
			binderc_sched_forget(thread);
	}
	mutex_unlock(&thread->sched_lock);
}

/*
 * The thread's reply is queued and its caller woken.  Back to its own
 * class only once it waits for work again (binderc_wait_for_work(), where
 * callers already find it): lowered here, it could lose its CPU to a busy
 * task before it is back in the waiting list, and the next call would find
 * no thread to raise.  Nested, it goes back to the outer call's class now.
 */
void binderc_sched_reply_done(struct binderc_thread *thread,
			      const struct binderc_sched *saved)
{
	mutex_lock(&thread->sched_lock);
	WRITE_ONCE(thread->sched_gen, thread->sched_gen + 1);
	if (thread->sched_task) {
		if (binderc_sched_eq(saved, &thread->base_sched))
			WRITE_ONCE(thread->idle_pending, true);
		else
			binderc_sched_put(thread->sched_task, saved);
	}
	mutex_unlock(&thread->sched_lock);
}

/* Leaving the ioctl without waiting: the pending return happens now. */
void binderc_sched_settle(struct binderc_thread *thread)
{
	if (READ_ONCE(thread->idle_pending))
		binderc_sched_restore_base(thread);
}

/* Racy hint for the read path; the work is done under thread->sched_lock. */
bool binderc_sched_raised(struct binderc_thread *thread)
{
	return READ_ONCE(thread->sched_task);
}

/* @t is dropped before its caller heard of it: undo its raise. */
void binderc_sched_restore_txn(struct binderc_thread *thread,
			       struct binderc_transaction *t)
{
	if (!t->sched_saved)
		return;
	t->sched_saved = false;
	binderc_sched_restore(thread, &t->saved_sched);
}

/*
 * Back to the thread's own class: it waits for work with nothing on its
 * stack (after a oneway call, or a call it never replied to), or it is
 * released.  Release may run in another task, hence the saved task.
 */
void binderc_sched_restore_base(struct binderc_thread *thread)
{
	mutex_lock(&thread->sched_lock);
	WRITE_ONCE(thread->sched_gen, thread->sched_gen + 1);
	thread->boosted = false;
	WRITE_ONCE(thread->idle_pending, false);
	if (thread->sched_task) {
		binderc_sched_put(thread->sched_task, &thread->base_sched);
		binderc_sched_forget(thread);
	}
	mutex_unlock(&thread->sched_lock);
}
