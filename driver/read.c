// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the BR_* half of BINDER_WRITE_READ.
 *
 * A reading thread waits until its own todo list (or, when it is free for
 * it, the proc's) holds work, then turns work items into BR_* commands in
 * the read buffer one at a time, until a transaction, a reply, a death
 * notice or a frozen-binder notice is written, the buffer has no room
 * left, or nothing is left.  The buffer is faulted in before the wait, so
 * a fault costs no work (see binderc_read_one_ilocked() for what a fault
 * after that does).  From the look at the thread before the wait to the
 * first work item after it, inner_lock is held throughout.
 */
#include <linux/pagemap.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "binderc.h"
#include "trace.h"
#include "stats.h"

/* ---- waiting for work ------------------------------------------------ */

static bool binderc_has_work_ilocked(struct binderc_thread *thread,
				     bool do_proc_work)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	/* An emptied list with a stale flag is no work (never spin on it). */
	return (thread->process_todo && !list_empty(&thread->todo)) ||
	       thread->looper_need_return ||
	       (do_proc_work && !list_empty(&thread->proc->todo));
}

bool binderc_has_work(struct binderc_thread *thread, bool do_proc_work)
{
	bool has_work;

	binderc_lock_inner(thread->proc);
	has_work = binderc_has_work_ilocked(thread, do_proc_work);
	binderc_unlock_inner(thread->proc);
	return has_work;
}

/*
 * Entered and left with inner_lock held, so that the caller's look at the
 * thread before and its first work item after need no lock of their own.
 */
static int binderc_wait_for_work_ilocked(struct binderc_thread *thread,
					 bool do_proc_work)
{
	struct binderc_proc *proc = thread->proc;
	int ret = 0;

	lockdep_assert_held(&proc->inner_lock);
	for (;;) {
		bool raised;

		/* Before the look: a wakeup after it makes schedule() return. */
		set_current_state(TASK_INTERRUPTIBLE | TASK_FREEZABLE);
		if (binderc_has_work_ilocked(thread, do_proc_work))
			break;
		if (do_proc_work)
			list_add(&thread->waiting_thread_node,
				 &proc->waiting_threads);
		raised = do_proc_work && binderc_sched_raised(thread);
		/* Wakers wake it directly (binderc_wake_thread_ilocked()). */
		thread->asleep = !raised;
		binderc_unlock_inner(proc);
		if (raised) {
			/*
			 * Back down only now that callers can find (and
			 * raise) it; then look for work again.
			 */
			__set_current_state(TASK_RUNNING);
			binderc_sched_restore_base(thread);
			binderc_lock_inner(proc);
			list_del_init(&thread->waiting_thread_node);
			continue;
		}
		binderc_freezable_schedule();
		binderc_lock_inner(proc);
		thread->asleep = false;
		list_del_init(&thread->waiting_thread_node);
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
	}
	__set_current_state(TASK_RUNNING);
	return ret;
}

/* ---- one work item --------------------------------------------------- */

static int binderc_put_cmd(struct binderc_proc *proc, void __user **ptrp,
			   u32 cmd)
{
	if (put_user(cmd, (u32 __user *)*ptrp))
		return -EFAULT;
	*ptrp += sizeof(u32);
	binderc_stat_br(proc, cmd);
	return 0;
}

static int binderc_put_cmd_cookie(struct binderc_proc *proc,
				  void __user **ptrp, u32 cmd,
				  binder_uintptr_t cookie)
{
	if (put_user(cmd, (u32 __user *)*ptrp))
		return -EFAULT;
	if (put_user(cookie, (binder_uintptr_t __user *)
		     (*ptrp + sizeof(u32))))
		return -EFAULT;
	*ptrp += sizeof(u32) + sizeof(cookie);
	binderc_stat_br(proc, cmd);
	return 0;
}

/* Death work just dequeued (inner_lock held, dropped here). */
static int binderc_death_to_user(struct binderc_proc *proc,
				 struct binderc_work *w, void __user **ptrp)
	__releases(&proc->inner_lock)
{
	struct binderc_ref_death *death;
	binder_uintptr_t cookie;
	u32 cmd;

	lockdep_assert_held(&proc->inner_lock);
	death = container_of(w, struct binderc_ref_death, work);
	cookie = death->cookie;
	if (w->type == BINDERC_WORK_CLEAR_DEATH_NOTIFICATION) {
		cmd = BR_CLEAR_DEATH_NOTIFICATION_DONE;
		binderc_unlock_inner(proc);
		kfree(death);
		binderc_count_dec(BINDERC_CNT_DEATH);
	} else {
		/* Held until BC_DEAD_BINDER_DONE names the cookie. */
		cmd = BR_DEAD_BINDER;
		binderc_enqueue_work_ilocked(proc, w, &proc->delivered_death);
		binderc_unlock_inner(proc);
	}
	return binderc_put_cmd_cookie(proc, ptrp, cmd, cookie);
}

/*
 * @euid as the reading task's user namespace sees it.  In the initial
 * namespace, where most readers live, every id maps to itself: from_kuid()
 * would walk the map to say so, on every transaction read.
 */
static uid_t binderc_euid_for_reader(kuid_t euid)
{
	struct user_namespace *ns = current_user_ns();

	if (ns == &init_user_ns)
		return __kuid_val(euid);
	return from_kuid(ns, euid);
}

static void binderc_fill_txn_data(struct binderc_thread *thread,
				  struct binderc_transaction *t,
				  struct binder_transaction_data *trd,
				  u32 *cmd)
{
	struct binderc_node *target_node = t->buffer->target_node;
	struct binderc_thread *from;

	if (target_node) {
		trd->target.ptr = target_node->ptr;
		trd->cookie = target_node->cookie;
		/* Run at the caller's priority, bounded by the node's floor. */
		t->saved_priority = task_nice(current);
		if (t->priority < target_node->min_priority &&
		    !(t->flags & TF_ONE_WAY))
			binderc_set_nice(t->priority);
		else if (!(t->flags & TF_ONE_WAY) ||
			 t->saved_priority > target_node->min_priority)
			binderc_set_nice(target_node->min_priority);
		binderc_sched_raise(thread, t, target_node);
		*cmd = BR_TRANSACTION;
	} else {
		trd->target.ptr = 0;
		trd->cookie = 0;
		*cmd = BR_REPLY;
	}
	trd->code = t->code;
	trd->flags = t->flags;
	trd->sender_euid = binderc_euid_for_reader(t->sender_euid);

	/*
	 * Under t->lock a sender still named is alive: its release clears
	 * t->from under this lock before the thread can go.
	 */
	binderc_lock_txn(t);
	from = t->from;
	trd->sender_pid = from ? task_tgid_nr_ns(from->proc->tsk,
						 task_active_pid_ns(current)) : 0;
	binderc_unlock_txn(t);
	trd->data_size = t->buffer->data_size;
	trd->offsets_size = t->buffer->offsets_size;
	trd->data.ptr.buffer = t->buffer->user_data;
	trd->data.ptr.offsets = trd->data.ptr.buffer +
				ALIGN(t->buffer->data_size, sizeof(void *));
}

/*
 * @t was picked up but not delivered (queued again, or dropped): the
 * reading thread gets back the nice value and the class it had before
 * binderc_fill_txn_data(), so that a later pickup saves the thread's own
 * values and nothing is left raised when no reply will restore it.
 */
static void binderc_undo_pickup(struct binderc_thread *thread,
				struct binderc_transaction *t, u32 cmd)
{
	if (cmd != BR_REPLY)
		binderc_set_nice(t->saved_priority);
	binderc_sched_restore_txn(thread, t);
}

/*
 * A reply whose fds could not be installed is freed before the caller
 * hears of it, so the caller's BR_FAILED_REPLY goes out as its
 * reply_error, at the head of its todo: the read loop writes it next, and
 * a fault on that word puts back the thread's own error item, never the
 * freed transaction.  An error already waiting says the same thing.
 */
static void binderc_fail_reply_next(struct binderc_proc *proc,
				    struct binderc_thread *thread)
{
	binderc_lock_inner(proc);
	if (thread->reply_error.cmd == BR_OK) {
		thread->reply_error.cmd = BR_FAILED_REPLY;
		list_add(&thread->reply_error.work.entry, &thread->todo);
		thread->process_todo = true;
	}
	binderc_unlock_inner(proc);
}

/*
 * Deliver a transaction to userspace.  Returns 1 when the loop must stop
 * (a transaction was written), 0 to go on (its fds could not be installed,
 * so it was dropped), or -EFAULT from the header, which leaves @t
 * untouched for the caller to queue again.
 */
static int binderc_txn_to_user(struct binderc_proc *proc,
			       struct binderc_thread *thread,
			       struct binderc_transaction *t,
			       void __user **ptrp)
{
	struct binder_transaction_data_secctx tr = { };
	size_t trsize = sizeof(tr.transaction_data);
	u32 cmd;
	int ret;

	binderc_fill_txn_data(thread, t, &tr.transaction_data, &cmd);
	tr.secctx = t->security_ctx;
	if (t->security_ctx) {
		cmd = BR_TRANSACTION_SEC_CTX;
		trsize = sizeof(tr);
	}
	/* The header first: it holds no fd, so a fault here changes nothing. */
	if (put_user(cmd, (u32 __user *)*ptrp) ||
	    copy_to_user(*ptrp + sizeof(u32), &tr, trsize)) {
		/* Queued again: its next pickup raises the thread anew. */
		binderc_undo_pickup(thread, t, cmd);
		return -EFAULT;
	}

	ret = binderc_apply_fd_fixups(proc, t);
	if (ret) {
		struct binderc_buffer *buffer = t->buffer;

		binderc_undo_pickup(thread, t, cmd);
		buffer->transaction = NULL;
		binderc_cleanup_transaction(t, BR_FAILED_REPLY);
		binderc_free_buf(proc, thread, buffer, true);
		if (cmd == BR_REPLY)
			binderc_fail_reply_next(proc, thread);
		/* The header just written was never consumed: it is overwritten. */
		return 0;
	}
	*ptrp += sizeof(u32) + trsize;
	binderc_stat_br(proc, cmd);
	trace_binderc_transaction_received(t);

	t->buffer->allow_user_free = 1;
	if (cmd != BR_REPLY && !(t->flags & TF_ONE_WAY)) {
		binderc_lock_inner(proc);
		t->to_parent = thread->transaction_stack;
		t->to_thread = thread;
		thread->transaction_stack = t;
		binderc_unlock_inner(proc);
	} else {
		binderc_free_transaction_keep(t, thread);
	}
	return 1;
}

#define BINDERC_READ_PREFAULT	(4 * PAGE_SIZE)
#define BINDERC_MAX_READ_ITEM	(sizeof(u32) + \
				 sizeof(struct binder_transaction_data_secctx))

/* Put back what could not be written out, where it was taken from. */
static void binderc_requeue_head(struct binderc_proc *proc,
				 struct binderc_thread *thread,
				 struct list_head *list,
				 struct binderc_work *w)
{
	binderc_lock_inner(proc);
	list_add(&w->entry, list);
	if (list == &thread->todo)
		thread->process_todo = true;
	binderc_unlock_inner(proc);
}

/*
 * Take one work item and write it out; entered with inner_lock held, which
 * it drops.  Returns 1 to stop reading, 0 to continue, -ENODATA when
 * there is nothing, -ENOSPC when there is no room left for the largest
 * item, or -errno.
 *
 * A fault while writing an item out: the room was faulted in by
 * binderc_thread_read(), so this takes another thread unmapping or
 * protecting the buffer meanwhile.  What becomes of the item:
 *
 *  - TRANSACTION, RETURN_ERROR, TRANSACTION_COMPLETE,
 *    TRANSACTION_ONEWAY_SPAM_SUSPECT and TRANSACTION_PENDING_FROZEN
 *    are put back at the head of the list they came from, unchanged,
 *    and read again next time.  (Mainline drops a transaction then,
 *    and with a oneway's buffer never freed its node stalls.)  A
 *    reply whose fds could not be installed is freed before anything
 *    is written; its BR_FAILED_REPLY is the thread's reply_error
 *    (see binderc_fail_reply_next()).
 *  - NODE is lost: the node records that userspace was told before
 *    BR_INCREFS / BR_ACQUIRE / BR_RELEASE / BR_DECREFS are written.
 *  - DEAD_BINDER and DEAD_BINDER_AND_CLEAR are lost: they are moved
 *    to proc->delivered_death first, as if read.
 *  - CLEAR_DEATH_NOTIFICATION is lost: it is freed first.
 *  - FROZEN_BINDER is put back on the todo, unsent, if it is still on
 *    delivered_freeze as the same delivery (binderc_freeze_undeliver());
 *    CLEAR_FREEZE_NOTIFICATION is put back at the head.  (Mainline
 *    loses both, and a watch whose notice is lost is silent for good.)
 *
 * Either way the read returns -EFAULT without moving read_consumed,
 * so the items already written by this read are lost too, whatever
 * their type.
 */
static int binderc_read_one_ilocked(struct binderc_proc *proc,
				    struct binderc_thread *thread,
				    bool wait_for_proc_work, void __user **ptrp,
				    void __user *end)
	__releases(&proc->inner_lock)
{
	struct list_head *list;
	struct binderc_work *w;
	u32 cmd;
	int ret;

	lockdep_assert_held(&proc->inner_lock);
	if (!list_empty(&thread->todo))
		list = &thread->todo;
	else if (!list_empty(&proc->todo) && wait_for_proc_work)
		list = &proc->todo;
	else
		goto nothing;
	/* Always leave room for the largest item, as mainline does. */
	if (end - *ptrp < BINDERC_MAX_READ_ITEM) {
		binderc_unlock_inner(proc);
		return -ENOSPC;
	}

	w = binderc_dequeue_work_head_ilocked(proc, list);
	if (list_empty(&thread->todo))
		thread->process_todo = false;

	switch (w->type) {
	case BINDERC_WORK_TRANSACTION:
		binderc_unlock_inner(proc);
		ret = binderc_txn_to_user(proc, thread,
				container_of(w, struct binderc_transaction,
					     work), ptrp);
		if (ret == -EFAULT)
			binderc_requeue_head(proc, thread, list, w);
		return ret;
	case BINDERC_WORK_RETURN_ERROR: {
		struct binderc_error *e;

		e = container_of(w, struct binderc_error, work);
		cmd = e->cmd;
		binderc_unlock_inner(proc);
		ret = binderc_put_cmd(proc, ptrp, cmd);
		if (ret)
			binderc_requeue_head(proc, thread, list, w);
		else
			e->cmd = BR_OK;
		return ret;
	}
	case BINDERC_WORK_TRANSACTION_COMPLETE:
	case BINDERC_WORK_TRANSACTION_ONEWAY_SPAM_SUSPECT:
	case BINDERC_WORK_TRANSACTION_PENDING_FROZEN:
		/* Only a sender that opted in hears the suspicion. */
		if (w->type == BINDERC_WORK_TRANSACTION_PENDING_FROZEN)
			cmd = BR_TRANSACTION_PENDING_FROZEN;
		else if (w->type == BINDERC_WORK_TRANSACTION_ONEWAY_SPAM_SUSPECT &&
			 proc->oneway_spam_detection_enabled)
			cmd = BR_ONEWAY_SPAM_SUSPECT;
		else
			cmd = BR_TRANSACTION_COMPLETE;
		binderc_unlock_inner(proc);
		ret = binderc_put_cmd(proc, ptrp, cmd);
		if (ret) {
			binderc_requeue_head(proc, thread, list, w);
			return ret;
		}
		binderc_count_dec(BINDERC_CNT_TRANSACTION_COMPLETE);
		/* Only this task's completes are on its todo: keep one. */
		if (BINDERC_KEEP_SPARES && !thread->spare_tcomplete)
			thread->spare_tcomplete = w;
		else
			kfree(w);
		return 0;
	case BINDERC_WORK_NODE:
		/* Drops inner_lock. */
		return binderc_node_work_to_user(proc,
				container_of(w, struct binderc_node, work),
				ptrp);
	case BINDERC_WORK_DEAD_BINDER:
	case BINDERC_WORK_DEAD_BINDER_AND_CLEAR:
	case BINDERC_WORK_CLEAR_DEATH_NOTIFICATION: {
		bool dead = w->type != BINDERC_WORK_CLEAR_DEATH_NOTIFICATION;
		int ret = binderc_death_to_user(proc, w, ptrp);

		/* Death news may make userspace send transactions: stop. */
		return ret ? ret : dead;
	}
	case BINDERC_WORK_FROZEN_BINDER:
	case BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION: {
		bool clear = w->type == BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION;

		/* Drops inner_lock; 1 after BR_FROZEN_BINDER (stop). */
		ret = binderc_freeze_work_to_user(proc, w, ptrp);
		if (ret == -EFAULT && clear)
			binderc_requeue_head(proc, thread, list, w);
		return ret;
	}
	}
	binderc_unlock_inner(proc);
	return 0;

nothing:
	binderc_unlock_inner(proc);
	return -ENODATA;
}

/* ---- the loop -------------------------------------------------------- */

static void binderc_maybe_spawn_looper(struct binderc_proc *proc,
				       struct binderc_thread *thread,
				       void __user *buffer)
{
	bool spawn;

	/*
	 * Only a looper asks for more, and only up to max_threads: most reads
	 * can tell without the lock.  (A max_threads set meanwhile is read by
	 * the next read, as it would be had the ioctl come a moment later.)
	 */
	if (!(thread->looper & (BINDERC_LOOPER_REGISTERED |
				BINDERC_LOOPER_ENTERED)) ||
	    !READ_ONCE(proc->max_threads))
		return;
	binderc_lock_inner(proc);
	spawn = proc->requested_threads == 0 &&
		list_empty(&proc->waiting_threads) &&
		proc->requested_threads_started < proc->max_threads &&
		(thread->looper & (BINDERC_LOOPER_REGISTERED |
				   BINDERC_LOOPER_ENTERED));
	if (spawn)
		proc->requested_threads++;
	binderc_unlock_inner(proc);

	/* It replaces the leading BR_NOOP, so nothing else moves. */
	if (spawn && !put_user(BR_SPAWN_LOOPER, (u32 __user *)buffer))
		binderc_stat_br(proc, BR_SPAWN_LOOPER);
}

/*
 * Make the read buffer present before any work is taken off a queue: a
 * fault (or an allocation failing behind one, e.g. a COW break after fork)
 * then costs nothing, where faulting after the work is taken would lose
 * it.  At most BINDERC_READ_PREFAULT bytes; *end shrinks to what is in, so
 * a longer read returns early and the rest waits for the next one.
 */
static int binderc_fault_in_room(void __user *ptr, void __user **end)
{
	size_t room = min_t(size_t, *end - ptr, BINDERC_READ_PREFAULT);
	size_t in;

	/* No room for an item: nothing will be written, touch nothing. */
	if (room < BINDERC_MAX_READ_ITEM)
		return 0;
	in = room - fault_in_writeable(ptr, room);
	if (in < BINDERC_MAX_READ_ITEM)
		return -EFAULT;
	*end = ptr + in;
	return 0;
}

int binderc_thread_read(struct binderc_proc *proc,
			struct binderc_thread *thread,
			binder_uintptr_t ubuf, size_t size,
			binder_size_t *consumed, bool non_block)
{
	void __user *buffer = u64_to_user_ptr(ubuf);
	void __user *ptr = buffer + *consumed;
	void __user *end = buffer + size;
	bool wait_for_proc_work;
	long nice;
	int ret = 0;

	if (*consumed == 0) {
		if (put_user(BR_NOOP, (u32 __user *)ptr))
			return -EFAULT;
		ptr += sizeof(u32);
	}
	/*
	 * Before waiting: from here to the end of the read the lock is
	 * dropped only where work is written out.
	 */
	ret = binderc_fault_in_room(ptr, &end);
	if (ret)
		return ret;

retry:
	binderc_lock_inner(proc);
	wait_for_proc_work = binderc_available_for_proc_work_ilocked(thread);
	trace_binderc_wait_for_work(wait_for_proc_work, thread->transaction_stack,
				    !list_empty(&thread->todo));
	nice = proc->default_priority;
	/* Not under the lock: can_nice() asks the LSMs. */
	if (wait_for_proc_work && task_nice(current) != nice) {
		binderc_unlock_inner(proc);
		binderc_set_nice(nice);
		binderc_lock_inner(proc);
	}
	thread->looper |= BINDERC_LOOPER_WAITING;
	if (non_block) {
		if (!binderc_has_work_ilocked(thread, wait_for_proc_work))
			ret = -EAGAIN;
	} else {
		ret = binderc_wait_for_work_ilocked(thread, wait_for_proc_work);
	}
	thread->looper &= ~BINDERC_LOOPER_WAITING;
	if (ret) {
		binderc_unlock_inner(proc);
		/* Idle: a poll user goes back down here. */
		if (ret == -EAGAIN && wait_for_proc_work)
			binderc_sched_restore_base(thread);
		return ret;
	}

	for (;;) {
		ret = binderc_read_one_ilocked(proc, thread, wait_for_proc_work,
					       &ptr, end);
		if (ret == -ENODATA) {
			/* Woken for nothing (e.g. work taken by another). */
			if (ptr - buffer == 4 && !thread->looper_need_return)
				goto retry;
			break;
		}
		/* No room: return what we have, even just BR_NOOP. */
		if (ret == -ENOSPC)
			break;
		if (ret < 0)
			return ret;
		if (ret > 0)
			break;
		binderc_lock_inner(proc);
	}

	*consumed = ptr - buffer;
	binderc_maybe_spawn_looper(proc, thread, buffer);
	return 0;
}
