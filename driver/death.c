// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: death notifications.
 *
 * A ref holder asks to hear when the node's owner dies
 * (BC_REQUEST_DEATH_NOTIFICATION); the news (BR_DEAD_BINDER) goes to the
 * proc todo so any pool thread may take it, then waits on
 * proc->delivered_death until BC_DEAD_BINDER_DONE.  Clearing a request
 * answers BR_CLEAR_DEATH_NOTIFICATION_DONE on the calling thread if it is
 * a looper, else on the proc; clearing while the death is delivered but
 * not acked postpones that answer until the ack (DEAD_BINDER_AND_CLEAR).
 *
 * ref->death is protected by the node's lock, the work item by the
 * holder's inner_lock.
 */
#include <linux/slab.h>

#include "binderc.h"

static void binderc_queue_clear_done_ilocked(struct binderc_proc *proc,
					     struct binderc_thread *thread,
					     struct binderc_ref_death *death)
{
	lockdep_assert_held(&proc->inner_lock);
	death->work.type = BINDERC_WORK_CLEAR_DEATH_NOTIFICATION;
	if (thread->looper & (BINDERC_LOOPER_REGISTERED |
			      BINDERC_LOOPER_ENTERED)) {
		binderc_enqueue_thread_work_ilocked(thread, &death->work);
	} else {
		binderc_enqueue_work_ilocked(proc, &death->work, &proc->todo);
		binderc_wakeup_proc_ilocked(proc);
	}
}

static void binderc_death_alloc_failed(struct binderc_thread *thread)
{
	/* Mainline reports the failure as BR_ERROR on the thread. */
	WARN_ON(thread->return_error.cmd != BR_OK);
	thread->return_error.cmd = BR_ERROR;
	binderc_enqueue_thread_work(thread, &thread->return_error.work);
}

static void binderc_request_death_nlocked(struct binderc_proc *proc,
					  struct binderc_ref *ref,
					  struct binderc_ref_death *death,
					  binder_uintptr_t cookie)
{
	lockdep_assert_held(&ref->node->lock);
	INIT_LIST_HEAD(&death->work.entry);
	death->cookie = cookie;
	ref->death = death;
	binderc_count_inc(BINDERC_CNT_DEATH);
	if (ref->node->proc)
		return;
	/* Already dead: say so at once. */
	death->work.type = BINDERC_WORK_DEAD_BINDER;
	binderc_lock_inner(proc);
	binderc_enqueue_work_ilocked(proc, &death->work, &proc->todo);
	binderc_wakeup_proc_ilocked(proc);
	binderc_unlock_inner(proc);
}

static void binderc_clear_death_nlocked(struct binderc_proc *proc,
					struct binderc_thread *thread,
					struct binderc_ref *ref)
{
	struct binderc_ref_death *death = ref->death;

	lockdep_assert_held(&ref->node->lock);
	ref->death = NULL;
	binderc_lock_inner(proc);
	if (list_empty(&death->work.entry)) {
		binderc_queue_clear_done_ilocked(proc, thread, death);
	} else {
		/* BR_DEAD_BINDER is queued: answer both after it is read. */
		WARN_ON(death->work.type != BINDERC_WORK_DEAD_BINDER);
		death->work.type = BINDERC_WORK_DEAD_BINDER_AND_CLEAR;
	}
	binderc_unlock_inner(proc);
}

/*
 * BC_REQUEST/CLEAR_DEATH_NOTIFICATION.  Invalid handles, a second request
 * and a wrong cookie are user errors: ignored, as in mainline.
 */
int binderc_request_death(struct binderc_proc *proc,
			  struct binderc_thread *thread, u32 cmd,
			  u32 target, binder_uintptr_t cookie)
{
	struct binderc_ref_death *death = NULL;
	struct binderc_ref *ref;

	if (cmd == BC_REQUEST_DEATH_NOTIFICATION) {
		/* Allocate before taking any spinlock. */
		death = kzalloc(sizeof(*death), GFP_KERNEL);
		if (!death) {
			binderc_death_alloc_failed(thread);
			return -ENOMEM;
		}
	}

	binderc_lock_outer(proc);
	ref = binderc_get_ref_olocked(proc, target, false);
	if (!ref)
		goto out_unlock;

	binderc_lock_node(ref->node);
	if (cmd == BC_REQUEST_DEATH_NOTIFICATION) {
		if (!ref->death) {
			binderc_request_death_nlocked(proc, ref, death, cookie);
			death = NULL;
		}
	} else if (ref->death && ref->death->cookie == cookie) {
		binderc_clear_death_nlocked(proc, thread, ref);
	}
	binderc_unlock_node(ref->node);
out_unlock:
	binderc_unlock_outer(proc);
	kfree(death);
	return 0;
}

void binderc_dead_binder_done(struct binderc_proc *proc,
			      struct binderc_thread *thread,
			      binder_uintptr_t cookie)
{
	struct binderc_ref_death *death = NULL, *tmp;
	struct binderc_work *w;

	binderc_lock_inner(proc);
	list_for_each_entry(w, &proc->delivered_death, entry) {
		tmp = container_of(w, struct binderc_ref_death, work);
		if (tmp->cookie == cookie) {
			death = tmp;
			break;
		}
	}
	if (death) {
		binderc_dequeue_work_ilocked(proc, &death->work);
		if (death->work.type == BINDERC_WORK_DEAD_BINDER_AND_CLEAR)
			binderc_queue_clear_done_ilocked(proc, thread, death);
	}
	binderc_unlock_inner(proc);
}
