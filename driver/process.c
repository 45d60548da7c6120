// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the per-open-file process state and its teardown.
 *
 * Like mainline, a binderc_proc exists per open file, not per task group.
 * release() tears everything down synchronously: it runs in process context
 * after the last reference to the file (and so to the mapping) is gone.
 * Other procs may still pin the proc briefly through tmp_ref; the memory is
 * freed by whoever drops the last pin.
 */
#include <linux/cred.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "binderc.h"

struct binderc_proc *binderc_proc_create(struct binderc_context *context)
{
	struct binderc_proc *proc;

	proc = kzalloc(sizeof(*proc), GFP_KERNEL);
	if (!proc)
		return NULL;
	spin_lock_init(&proc->inner_lock);
	spin_lock_init(&proc->outer_lock);
	get_task_struct(current->group_leader);
	proc->tsk = current->group_leader;
	proc->pid = current->group_leader->pid;
	proc->debug_id = binderc_new_debug_id();
	proc->default_priority = task_nice(current);
	binderc_context_get(context);
	proc->context = context;
	proc->threads = RB_ROOT;
	proc->nodes = RB_ROOT;
	proc->refs_by_desc = RB_ROOT;
	proc->refs_by_node = RB_ROOT;
	INIT_LIST_HEAD(&proc->todo);
	INIT_LIST_HEAD(&proc->delivered_death);
	INIT_LIST_HEAD(&proc->delivered_freeze);
	INIT_LIST_HEAD(&proc->waiting_threads);
	init_waitqueue_head(&proc->freeze_wait);
	binderc_alloc_init(&proc->alloc, proc->pid);
	binderc_count_inc(BINDERC_CNT_PROC);

	mutex_lock(&binderc_procs_lock);
	list_add_tail(&proc->proc_entry, &binderc_procs);
	mutex_unlock(&binderc_procs_lock);
	return proc;
}

static void binderc_free_proc(struct binderc_proc *proc)
{
	WARN_ON(!list_empty(&proc->todo));
	WARN_ON(!list_empty(&proc->delivered_death));
	WARN_ON(!list_empty(&proc->delivered_freeze));
	binderc_alloc_release(&proc->alloc);
	put_task_struct(proc->tsk);
	put_cred(proc->cred);
	binderc_count_dec(BINDERC_CNT_PROC);
	/* Last: a binderfs device removed meanwhile is freed here. */
	binderc_context_put(proc->context);
	kfree(proc);
}

void binderc_proc_dec_tmpref(struct binderc_proc *proc)
{
	binderc_lock_inner(proc);
	proc->tmp_ref--;
	if (proc->is_dead && RB_EMPTY_ROOT(&proc->threads) && !proc->tmp_ref) {
		binderc_unlock_inner(proc);
		binderc_free_proc(proc);
		return;
	}
	binderc_unlock_inner(proc);
}

/*
 * Drop every work item on @list, answering synchronous callers whose
 * transaction will now never be handled.
 */
void binderc_release_work(struct binderc_proc *proc, struct list_head *list)
{
	struct binderc_work *w;

	for (;;) {
		binderc_lock_inner(proc);
		w = binderc_dequeue_work_head_ilocked(proc, list);
		binderc_unlock_inner(proc);
		if (!w)
			return;

		switch (w->type) {
		case BINDERC_WORK_TRANSACTION:
			binderc_cleanup_transaction(container_of(w,
					struct binderc_transaction, work),
					BR_DEAD_REPLY);
			break;
		case BINDERC_WORK_TRANSACTION_COMPLETE:
		case BINDERC_WORK_TRANSACTION_ONEWAY_SPAM_SUSPECT:
		case BINDERC_WORK_TRANSACTION_PENDING_FROZEN:
			kfree(w);
			binderc_count_dec(BINDERC_CNT_TRANSACTION_COMPLETE);
			break;
		case BINDERC_WORK_DEAD_BINDER_AND_CLEAR:
		case BINDERC_WORK_CLEAR_DEATH_NOTIFICATION:
			/* The ref no longer points at it: we own it. */
			kfree(container_of(w, struct binderc_ref_death, work));
			binderc_count_dec(BINDERC_CNT_DEATH);
			break;
		case BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION:
			/* Cleared: no ref points at it either. */
			kfree(container_of(w, struct binderc_ref_freeze, work));
			binderc_count_dec(BINDERC_CNT_FREEZE);
			break;
		case BINDERC_WORK_RETURN_ERROR:
		case BINDERC_WORK_NODE:
		case BINDERC_WORK_DEAD_BINDER:
		case BINDERC_WORK_FROZEN_BINDER:
			/* Embedded in a thread, node or ref: freed with it. */
			break;
		}
	}
}

/* close() of any fd on the file: kick every waiting thread back out. */
void binderc_proc_flush(struct binderc_proc *proc)
{
	struct rb_node *n;

	binderc_lock_inner(proc);
	for (n = rb_first(&proc->threads); n; n = rb_next(n)) {
		struct binderc_thread *thread;

		thread = rb_entry(n, struct binderc_thread, rb_node);
		thread->looper_need_return = true;
		if (thread->looper & BINDERC_LOOPER_WAITING)
			binderc_wake_thread_ilocked(thread, false);
	}
	binderc_unlock_inner(proc);
}

/*
 * Move every transaction queued to @proc to @out, and the oneways waiting
 * behind a node's oneway in flight to @waiting.  A reply taken from a
 * thread's queue leaves BR_DEAD_REPLY in its place, so the thread does not
 * wait for it forever.
 */
static void binderc_proc_take_queued_ilocked(struct binderc_proc *proc,
					     struct list_head *out,
					     struct list_head *waiting)
{
	struct binderc_work *w, *tmp;
	struct rb_node *n;

	lockdep_assert_held(&proc->inner_lock);
	list_for_each_entry_safe(w, tmp, &proc->todo, entry)
		if (w->type == BINDERC_WORK_TRANSACTION)
			list_move_tail(&w->entry, out);
	for (n = rb_first(&proc->nodes); n; n = rb_next(n)) {
		struct binderc_node *node;

		node = rb_entry(n, struct binderc_node, rb_node);
		list_splice_tail_init(&node->async_todo, waiting);
	}
	for (n = rb_first(&proc->threads); n; n = rb_next(n)) {
		struct binderc_thread *thread;
		bool took_reply = false;

		thread = rb_entry(n, struct binderc_thread, rb_node);
		list_for_each_entry_safe(w, tmp, &thread->todo, entry) {
			struct binderc_transaction *t;

			if (w->type != BINDERC_WORK_TRANSACTION)
				continue;
			t = container_of(w, struct binderc_transaction, work);
			took_reply |= !t->buffer->target_node &&
				      !(t->flags & TF_ONE_WAY);
			list_move_tail(&w->entry, out);
		}
		if (took_reply && thread->reply_error.cmd == BR_OK) {
			thread->reply_error.cmd = BR_DEAD_REPLY;
			binderc_enqueue_thread_work_ilocked(thread,
					&thread->reply_error.work);
			binderc_wake_thread_ilocked(thread, false);
		}
	}
}

/*
 * The receive mapping is gone: munmap, or the owner's exit tore its mm
 * down.  Nothing queued can reach userspace any more (the area cannot be
 * mapped again), so refuse new transactions and answer the queued ones now,
 * as if the proc had died: sync callers get BR_DEAD_REPLY, oneways are
 * dropped, and every buffer and file they hold is released.
 *
 * Waiting for release() instead is not enough.  A queued transaction can
 * carry this proc's own binder file (or that of another proc in the same
 * state): the file then pins itself through the queue, release() never
 * runs, and the proc leaks forever (mainline does; binder has no garbage
 * collector for files in flight).  The owner's exit always closes its
 * mapping first, which breaks every such cycle.
 */
void binderc_proc_close_receive(struct binderc_proc *proc)
{
	struct binderc_transaction *t, *tmp;
	struct binderc_buffer *buffer;
	LIST_HEAD(queued);
	LIST_HEAD(waiting);

	binderc_lock_inner(proc);
	proc->receive_closed = true;
	binderc_proc_take_queued_ilocked(proc, &queued, &waiting);
	binderc_unlock_inner(proc);

	/* Never delivered, so no fd of theirs was installed (is_failure). */
	list_for_each_entry_safe(t, tmp, &waiting, work.entry) {
		list_del_init(&t->work.entry);
		buffer = t->buffer;
		binderc_free_transaction(t);
		/* Not the node's oneway in flight: leave that state alone. */
		binderc_release_entire_buffer(proc, NULL, buffer, true);
		binderc_alloc_free_buf(&proc->alloc, buffer);
	}
	list_for_each_entry_safe(t, tmp, &queued, work.entry) {
		list_del_init(&t->work.entry);
		buffer = t->buffer;
		binderc_cleanup_transaction(t, BR_DEAD_REPLY);
		binderc_free_buf(proc, NULL, buffer, true);
	}
}

static void binderc_proc_release_threads(struct binderc_proc *proc)
{
	struct rb_node *n;

	binderc_lock_inner(proc);
	while ((n = rb_first(&proc->threads))) {
		struct binderc_thread *thread;

		thread = rb_entry(n, struct binderc_thread, rb_node);
		binderc_unlock_inner(proc);
		binderc_thread_release(proc, thread);
		binderc_lock_inner(proc);
	}
	binderc_unlock_inner(proc);
}

static void binderc_proc_release_nodes(struct binderc_proc *proc)
{
	struct rb_node *n;
	int incoming_refs = 0;

	binderc_lock_inner(proc);
	while ((n = rb_first(&proc->nodes))) {
		struct binderc_node *node;

		node = rb_entry(n, struct binderc_node, rb_node);
		/* Pinned so it survives until binderc_node_release() is done. */
		binderc_inc_node_tmpref_ilocked(node);
		rb_erase(&node->rb_node, &proc->nodes);
		binderc_unlock_inner(proc);
		incoming_refs = binderc_node_release(node, incoming_refs);
		binderc_lock_inner(proc);
	}
	binderc_unlock_inner(proc);
}

static void binderc_proc_release_refs(struct binderc_proc *proc)
{
	struct rb_node *n;

	binderc_lock_outer(proc);
	while ((n = rb_first(&proc->refs_by_desc))) {
		struct binderc_ref *ref;

		ref = rb_entry(n, struct binderc_ref, rb_node_desc);
		binderc_cleanup_ref_olocked(ref);
		binderc_unlock_outer(proc);
		binderc_free_ref(ref);
		binderc_lock_outer(proc);
	}
	binderc_unlock_outer(proc);
}

/* The last close of the file: tear the proc down in mainline's order. */
void binderc_proc_release(struct binderc_proc *proc)
{
	binderc_debugfs_remove_proc(proc);

	mutex_lock(&binderc_procs_lock);
	list_del(&proc->proc_entry);
	mutex_unlock(&binderc_procs_lock);

	binderc_drop_context_mgr(proc);

	binderc_lock_inner(proc);
	/* Keep the proc alive while its threads go (dropped at the end). */
	proc->tmp_ref++;
	proc->is_dead = true;
	proc->is_frozen = false;
	proc->sync_recv = false;
	proc->async_recv = false;
	binderc_unlock_inner(proc);

	binderc_proc_release_threads(proc);
	binderc_proc_release_nodes(proc);
	binderc_proc_release_refs(proc);
	binderc_release_work(proc, &proc->todo);
	binderc_release_work(proc, &proc->delivered_death);
	binderc_release_work(proc, &proc->delivered_freeze);

	binderc_proc_dec_tmpref(proc);
}
