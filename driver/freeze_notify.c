// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: frozen-binder notifications (the protocol of Linux 6.12).
 *
 * A ref holder asks to hear whether the node's owner is frozen
 * (BC_REQUEST_FREEZE_NOTIFICATION with a cookie).  The current state is
 * queued at once as BR_FROZEN_BINDER (unless the owner is gone), and again
 * on every BINDER_FREEZE of the owner, frozen or thawed, even when nothing
 * changed.  A notice that was read waits on proc->delivered_freeze for
 * BC_FREEZE_NOTIFICATION_DONE; until then nothing more is sent for that
 * watch: a freeze or thaw in between updates the state it will carry and
 * marks it to be sent again on the ack, if the state differs from what
 * was read.  A notice queued but not yet read just takes the newest state.
 *
 * BC_CLEAR_FREEZE_NOTIFICATION ends the watch with
 * BR_CLEAR_FREEZE_NOTIFICATION_DONE: at once if nothing is outstanding,
 * in place of a queued notice, or after the ack of a notice already read.
 *
 * Like mainline, every refusal is an error of the BINDER_WRITE_READ ioctl
 * (write_consumed stops at the command): -EINVAL for an unknown handle, a
 * second request on the same ref (whatever its cookie), a clear of a ref
 * with no watch or with another cookie, and an ack naming no delivered
 * notice; -ENOMEM when the watch cannot be allocated.
 *
 * ref->freeze is written under the holder's outer_lock and node->lock (so
 * the freezer, walking node->refs under node->lock, sees it or not), the
 * watch's state and list entry under the holder's inner_lock.  The watch
 * is freed with its ref (ref.c) or, once cleared and so no longer
 * reachable from the ref, by whoever takes its last work item.
 *
 * Every notice goes to proc->todo, for any looper of the holder.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "binderc.h"
#include "stats.h"

int binderc_request_freeze_notification(struct binderc_proc *proc, u32 target,
					binder_uintptr_t cookie)
{
	struct binderc_ref_freeze *freeze;
	struct binderc_proc *owner;
	struct binderc_ref *ref;
	int ret = 0;

	/* Allocate before taking any spinlock. */
	freeze = kzalloc(sizeof(*freeze), GFP_KERNEL);
	if (!freeze)
		return -ENOMEM;
	INIT_LIST_HEAD(&freeze->work.entry);
	freeze->work.type = BINDERC_WORK_FROZEN_BINDER;
	freeze->cookie = cookie;

	binderc_lock_outer(proc);
	ref = binderc_get_ref_olocked(proc, target, false);
	if (!ref) {
		ret = -EINVAL;
		goto out_unlock_outer;
	}
	binderc_lock_node(ref->node);
	if (ref->freeze) {
		ret = -EINVAL;
		goto out_unlock_node;
	}
	ref->freeze = freeze;
	binderc_count_inc(BINDERC_CNT_FREEZE);
	/* node->proc is stable under node->lock. */
	owner = ref->node->proc;
	if (owner) {
		binderc_lock_inner(owner);
		freeze->is_frozen = owner->is_frozen;
		binderc_unlock_inner(owner);

		binderc_lock_inner(proc);
		binderc_enqueue_work_ilocked(proc, &freeze->work, &proc->todo);
		binderc_wakeup_proc_ilocked(proc);
		binderc_unlock_inner(proc);
	}
	freeze = NULL;
out_unlock_node:
	binderc_unlock_node(ref->node);
out_unlock_outer:
	binderc_unlock_outer(proc);
	kfree(freeze);
	return ret;
}

int binderc_clear_freeze_notification(struct binderc_proc *proc, u32 target,
				      binder_uintptr_t cookie)
{
	struct binderc_ref_freeze *freeze;
	struct binderc_ref *ref;
	int ret = 0;

	binderc_lock_outer(proc);
	ref = binderc_get_ref_olocked(proc, target, false);
	if (!ref) {
		binderc_unlock_outer(proc);
		return -EINVAL;
	}
	binderc_lock_node(ref->node);
	freeze = ref->freeze;
	if (!freeze || freeze->cookie != cookie) {
		ret = -EINVAL;
		goto out_unlock;
	}
	ref->freeze = NULL;

	binderc_lock_inner(proc);
	freeze->work.type = BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION;
	if (list_empty(&freeze->work.entry)) {
		/* Nothing outstanding: answer now. */
		binderc_enqueue_work_ilocked(proc, &freeze->work, &proc->todo);
		binderc_wakeup_proc_ilocked(proc);
	} else if (freeze->sent) {
		/* Read but not acked: answer after BC_FREEZE_NOTIFICATION_DONE. */
		freeze->resend = true;
	}
	/* Else queued unread: it now reads as the answer, in its place. */
	binderc_unlock_inner(proc);
out_unlock:
	binderc_unlock_node(ref->node);
	binderc_unlock_outer(proc);
	return ret;
}

int binderc_freeze_notification_done(struct binderc_proc *proc,
				     binder_uintptr_t cookie)
{
	struct binderc_ref_freeze *freeze = NULL, *tmp;
	int ret = 0;

	binderc_lock_inner(proc);
	/* Oldest first: two watches may share a cookie. */
	list_for_each_entry(tmp, &proc->delivered_freeze, work.entry) {
		if (tmp->cookie == cookie) {
			freeze = tmp;
			break;
		}
	}
	if (!freeze) {
		ret = -EINVAL;
		goto out_unlock;
	}
	binderc_dequeue_work_ilocked(proc, &freeze->work);
	freeze->sent = false;
	if (freeze->resend) {
		freeze->resend = false;
		binderc_enqueue_work_ilocked(proc, &freeze->work, &proc->todo);
		binderc_wakeup_proc_ilocked(proc);
	}
out_unlock:
	binderc_unlock_inner(proc);
	return ret;
}

/* Tell one watch of @ref about @is_frozen (node->lock held). */
static void binderc_notify_ref_nlocked(struct binderc_ref *ref,
				       bool is_frozen)
{
	struct binderc_ref_freeze *freeze = ref->freeze;
	struct binderc_proc *holder = ref->proc;

	lockdep_assert_held(&ref->node->lock);
	if (!freeze)
		return;
	binderc_lock_inner(holder);
	if (list_empty(&freeze->work.entry)) {
		freeze->is_frozen = is_frozen;
		binderc_enqueue_work_ilocked(holder, &freeze->work,
					     &holder->todo);
		binderc_wakeup_proc_ilocked(holder);
	} else {
		/* Outstanding: merged into it (see the top of this file). */
		if (freeze->sent && freeze->is_frozen != is_frozen)
			freeze->resend = true;
		freeze->is_frozen = is_frozen;
	}
	binderc_unlock_inner(holder);
}

/*
 * BINDER_FREEZE froze or thawed @proc: notify every watch on every ref to
 * every node of @proc.  Each node is pinned while its refs are walked with
 * @proc's inner_lock dropped; the walk stops if @proc starts dying.
 */
void binderc_notify_frozen_state(struct binderc_proc *proc, bool is_frozen)
{
	struct binderc_node *prev = NULL, *node;
	struct binderc_ref *ref;
	struct rb_node *n;

	binderc_lock_inner(proc);
	for (n = rb_first(&proc->nodes); n; n = rb_next(n)) {
		node = rb_entry(n, struct binderc_node, rb_node);
		binderc_inc_node_tmpref_ilocked(node);
		binderc_unlock_inner(proc);
		if (prev)
			binderc_put_node(prev);
		prev = node;

		binderc_lock_node(node);
		hlist_for_each_entry(ref, &node->refs, node_entry)
			binderc_notify_ref_nlocked(ref, is_frozen);
		binderc_unlock_node(node);

		/* The pin keeps @node in the tree unless @proc dies. */
		binderc_lock_inner(proc);
		if (proc->is_dead)
			break;
	}
	binderc_unlock_inner(proc);
	if (prev)
		binderc_put_node(prev);
}

/*
 * A notice that faulted on its way out was already moved to
 * delivered_freeze; put it back on the todo, unsent, if it is still there
 * as that same delivery (meanwhile its ref may have gone, freeing it, or a
 * guessed ack may have taken it).  Its newest state, or its clear, is what
 * will be read next time.
 */
static void binderc_freeze_undeliver(struct binderc_proc *proc,
				     struct binderc_ref_freeze *freeze,
				     u64 delivery)
{
	struct binderc_ref_freeze *tmp;

	binderc_lock_inner(proc);
	list_for_each_entry(tmp, &proc->delivered_freeze, work.entry) {
		/* Compare the pointer first: only listed watches are alive. */
		if (tmp != freeze || tmp->delivery != delivery)
			continue;
		binderc_dequeue_work_ilocked(proc, &tmp->work);
		tmp->sent = false;
		tmp->resend = false;
		list_add(&tmp->work.entry, &proc->todo);
		break;
	}
	binderc_unlock_inner(proc);
}

/*
 * A FROZEN_BINDER or CLEAR_FREEZE_NOTIFICATION item just dequeued from
 * proc->todo, inner_lock held (dropped here).  Returns 1 after
 * BR_FROZEN_BINDER (the reader stops: the news may make userspace call),
 * 0 after BR_CLEAR_FREEZE_NOTIFICATION_DONE, or -EFAULT with the item put
 * back as it was (a clear's item is then the caller's to put back).
 */
int binderc_freeze_work_to_user(struct binderc_proc *proc,
				struct binderc_work *w, void __user **ptrp)
	__releases(&proc->inner_lock)
{
	struct binderc_ref_freeze *freeze;
	struct binder_frozen_state_info info = { };
	u64 delivery;

	lockdep_assert_held(&proc->inner_lock);
	freeze = container_of(w, struct binderc_ref_freeze, work);
	if (w->type == BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION) {
		binder_uintptr_t cookie = freeze->cookie;

		/* Off every list and off its ref: only this reader has it. */
		binderc_unlock_inner(proc);
		if (put_user(BR_CLEAR_FREEZE_NOTIFICATION_DONE,
			     (u32 __user *)*ptrp) ||
		    put_user(cookie, (binder_uintptr_t __user *)
			     (*ptrp + sizeof(u32))))
			return -EFAULT;
		*ptrp += sizeof(u32) + sizeof(cookie);
		binderc_stat_br(proc, BR_CLEAR_FREEZE_NOTIFICATION_DONE);
		kfree(freeze);
		binderc_count_dec(BINDERC_CNT_FREEZE);
		return 0;
	}

	info.cookie = freeze->cookie;
	info.is_frozen = freeze->is_frozen;
	freeze->sent = true;
	delivery = ++proc->freeze_deliveries;
	freeze->delivery = delivery;
	/* Before it is written: an ack may follow as soon as it is read. */
	binderc_enqueue_work_ilocked(proc, w, &proc->delivered_freeze);
	binderc_unlock_inner(proc);

	if (put_user(BR_FROZEN_BINDER, (u32 __user *)*ptrp) ||
	    copy_to_user(*ptrp + sizeof(u32), &info, sizeof(info))) {
		binderc_freeze_undeliver(proc, freeze, delivery);
		return -EFAULT;
	}
	*ptrp += sizeof(u32) + sizeof(info);
	binderc_stat_br(proc, BR_FROZEN_BINDER);
	return 1;
}
