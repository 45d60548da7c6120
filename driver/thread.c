// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: threads, their todo lists, waking them, and their lifetime.
 * The two halves of BINDER_WRITE_READ are in write.c and read.c.
 */
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>

#include "binderc.h"

/* ---- todo lists ------------------------------------------------------ */

void binderc_enqueue_work_ilocked(struct binderc_proc *proc,
				  struct binderc_work *work,
				  struct list_head *target)
{
	lockdep_assert_held(&proc->inner_lock);
	WARN_ON(!list_empty(&work->entry));
	list_add_tail(&work->entry, target);
}

/*
 * Queued but not a reason to return to userspace by itself: used for the
 * deferred BR_TRANSACTION_COMPLETE of a sync call, which the caller reads
 * together with the reply.
 */
void binderc_enqueue_deferred_thread_work_ilocked(struct binderc_thread *t,
						  struct binderc_work *work)
{
	lockdep_assert_held(&t->proc->inner_lock);
	binderc_enqueue_work_ilocked(t->proc, work, &t->todo);
}

void binderc_enqueue_thread_work_ilocked(struct binderc_thread *thread,
					 struct binderc_work *work)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	binderc_enqueue_work_ilocked(thread->proc, work, &thread->todo);
	/*
	 * A thread using (e)poll that queues work for itself gets no other
	 * wakeup: without this it could wait on its own work forever.
	 */
	if ((thread->looper & BINDERC_LOOPER_POLL) &&
	    thread->pid == current->pid && !thread->process_todo)
		wake_up_interruptible_sync(&thread->wait);
	thread->process_todo = true;
}

void binderc_enqueue_thread_work(struct binderc_thread *thread,
				 struct binderc_work *work)
{
	binderc_lock_inner(thread->proc);
	binderc_enqueue_thread_work_ilocked(thread, work);
	binderc_unlock_inner(thread->proc);
}

void binderc_dequeue_work_ilocked(struct binderc_proc *proc,
				  struct binderc_work *work)
{
	lockdep_assert_held(&proc->inner_lock);
	list_del_init(&work->entry);
}

void binderc_dequeue_work(struct binderc_proc *proc, struct binderc_work *work)
{
	binderc_lock_inner(proc);
	binderc_dequeue_work_ilocked(proc, work);
	binderc_unlock_inner(proc);
}

struct binderc_work *
binderc_dequeue_work_head_ilocked(struct binderc_proc *proc,
				  struct list_head *l)
{
	struct binderc_work *w;

	lockdep_assert_held(&proc->inner_lock);
	w = list_first_entry_or_null(l, struct binderc_work, entry);
	if (w)
		list_del_init(&w->entry);
	return w;
}

void binderc_set_extended_error(struct binder_extended_error *ee, u32 id,
				u32 command, s32 param)
{
	ee->id = id;
	ee->command = command;
	ee->param = param;
}

void binderc_set_nice(long nice)
{
	long min_nice = rlimit_to_nice(rlimit(RLIMIT_NICE));

	/*
	 * Already there, and no rlimit floor above it to move to: nothing to
	 * do, and can_nice()'s capable() (an LSM call, twice per round trip)
	 * is not needed to say so.
	 */
	if (task_nice(current) == nice && (min_nice > MAX_NICE || nice >= min_nice))
		return;
	if (can_nice(current, nice)) {
		set_user_nice(current, nice);
		return;
	}
	if (min_nice <= MAX_NICE)
		set_user_nice(current, max(nice, min_nice));
}

/* ---- waking ---------------------------------------------------------- */

bool binderc_available_for_proc_work_ilocked(struct binderc_thread *thread)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	return !thread->transaction_stack && list_empty(&thread->todo);
}

/*
 * Wake @thread for what was just queued to it (or a flush): its read if
 * it sleeps in one, and whoever polls it.  A blocked read is woken
 * directly, not through @thread->wait: a wait queue costs a locked add
 * and remove at the sleeper's end and a locked walk at the waker's, which
 * were about 800 guest instructions of a 16,000-instruction round trip.
 * @asleep is read under inner_lock, where the sleeper set it (and its task
 * state) before it dropped the lock to sleep, so no wakeup is lost; while
 * it is set the task is on its way into or out of that sleep (before 6.1,
 * perhaps in the freezer's loop, which sleeps again when woken), so no
 * other wait of the task is cut short.  What this gives up is the sync
 * hint (WF_SYNC) of wake_up_interruptible_sync(), which no exported call
 * passes for a single task: it only steers where a wakee runs on SMP.
 */
void binderc_wake_thread_ilocked(struct binderc_thread *thread, bool sync)
{
	lockdep_assert_held(&thread->proc->inner_lock);
	if (thread->asleep)
		wake_up_process(thread->task);
	/*
	 * binderc_poll() joins the queue before it takes inner_lock to look
	 * for work, so a poller this misses has yet to look, and will see
	 * the work.
	 */
	if (waitqueue_active(&thread->wait)) {
		if (sync)
			wake_up_interruptible_sync(&thread->wait);
		else
			wake_up_interruptible(&thread->wait);
	}
}

static void binderc_wakeup_poll_threads_ilocked(struct binderc_proc *proc,
						bool sync)
{
	struct rb_node *n;

	lockdep_assert_held(&proc->inner_lock);
	for (n = rb_first(&proc->threads); n; n = rb_next(n)) {
		struct binderc_thread *thread;

		thread = rb_entry(n, struct binderc_thread, rb_node);
		if (!(thread->looper & BINDERC_LOOPER_POLL) ||
		    !binderc_available_for_proc_work_ilocked(thread))
			continue;
		binderc_wake_thread_ilocked(thread, sync);
	}
}

/* The most recently idle thread first: its cache is warmest. */
struct binderc_thread *binderc_select_thread_ilocked(struct binderc_proc *proc)
{
	struct binderc_thread *thread;

	lockdep_assert_held(&proc->inner_lock);
	thread = list_first_entry_or_null(&proc->waiting_threads,
					  struct binderc_thread,
					  waiting_thread_node);
	if (thread)
		list_del_init(&thread->waiting_thread_node);
	return thread;
}

void binderc_wakeup_thread_ilocked(struct binderc_proc *proc,
				   struct binderc_thread *thread, bool sync)
{
	lockdep_assert_held(&proc->inner_lock);
	if (thread) {
		binderc_wake_thread_ilocked(thread, sync);
		return;
	}
	/* Nobody is blocked in read: (e)poll users may still want it. */
	binderc_wakeup_poll_threads_ilocked(proc, sync);
}

void binderc_wakeup_proc_ilocked(struct binderc_proc *proc)
{
	lockdep_assert_held(&proc->inner_lock);
	binderc_wakeup_thread_ilocked(proc, binderc_select_thread_ilocked(proc),
				      false);
}

/* ---- thread lifetime ------------------------------------------------- */

static struct binderc_thread *
binderc_get_thread_ilocked(struct binderc_proc *proc,
			   struct binderc_thread *new_thread)
{
	struct rb_node **p = &proc->threads.rb_node;
	struct rb_node *parent = NULL;
	struct binderc_thread *thread;

	lockdep_assert_held(&proc->inner_lock);
	while (*p) {
		parent = *p;
		thread = rb_entry(parent, struct binderc_thread, rb_node);
		if (current->pid < thread->pid)
			p = &(*p)->rb_left;
		else if (current->pid > thread->pid)
			p = &(*p)->rb_right;
		else
			return thread;
	}
	if (!new_thread)
		return NULL;
	thread = new_thread;
	thread->proc = proc;
	thread->pid = current->pid;
	atomic_set(&thread->tmp_ref, 0);
	init_waitqueue_head(&thread->wait);
	mutex_init(&thread->sched_lock);
	get_task_struct(current);
	thread->task = current;
	INIT_LIST_HEAD(&thread->todo);
	INIT_LIST_HEAD(&thread->waiting_thread_node);
	INIT_LIST_HEAD(&thread->return_error.work.entry);
	INIT_LIST_HEAD(&thread->reply_error.work.entry);
	thread->looper_need_return = true;
	thread->return_error.work.type = BINDERC_WORK_RETURN_ERROR;
	thread->return_error.cmd = BR_OK;
	thread->reply_error.work.type = BINDERC_WORK_RETURN_ERROR;
	thread->reply_error.cmd = BR_OK;
	thread->ee.command = BR_OK;
	rb_link_node(&thread->rb_node, parent, p);
	rb_insert_color(&thread->rb_node, &proc->threads);
	binderc_count_inc(BINDERC_CNT_THREAD);
	return thread;
}

struct binderc_thread *binderc_get_thread(struct binderc_proc *proc)
{
	struct binderc_thread *thread, *new_thread;

	binderc_lock_inner(proc);
	thread = binderc_get_thread_ilocked(proc, NULL);
	binderc_unlock_inner(proc);
	if (thread)
		return thread;

	new_thread = kzalloc(sizeof(*new_thread), GFP_KERNEL);
	if (!new_thread)
		return NULL;
	binderc_lock_inner(proc);
	thread = binderc_get_thread_ilocked(proc, new_thread);
	binderc_unlock_inner(proc);
	if (thread != new_thread)
		kfree(new_thread);
	return thread;
}

static void binderc_free_thread(struct binderc_thread *thread)
{
	struct binderc_proc *proc = thread->proc;

	WARN_ON(!list_empty(&thread->todo));
	WARN_ON(thread->sched_task);
	kfree(thread->spare_tcomplete);
	kfree(thread->spare_txn);
	mutex_destroy(&thread->sched_lock);
	put_task_struct(thread->task);
	binderc_count_dec(BINDERC_CNT_THREAD);
	kfree(thread);
	binderc_proc_dec_tmpref(proc);
}

void binderc_thread_dec_tmpref(struct binderc_thread *thread)
{
	binderc_lock_inner(thread->proc);
	atomic_dec(&thread->tmp_ref);
	if (thread->is_dead && !atomic_read(&thread->tmp_ref)) {
		binderc_unlock_inner(thread->proc);
		binderc_free_thread(thread);
		return;
	}
	binderc_unlock_inner(thread->proc);
}

/*
 * Cut the thread out of every transaction on its stack: incoming ones lose
 * their target, outgoing ones their sender.  Returns the incoming
 * transaction at the top, whose caller must get BR_DEAD_REPLY.
 */
static struct binderc_transaction *
binderc_thread_unlink_stack_ilocked(struct binderc_thread *thread,
				    int *active)
{
	struct binderc_transaction *t = thread->transaction_stack;
	struct binderc_transaction *send_reply = NULL;

	lockdep_assert_held(&thread->proc->inner_lock);
	if (t && t->to_thread == thread)
		send_reply = t;
	while (t) {
		struct binderc_transaction *next;

		(*active)++;
		binderc_lock_txn(t);
		if (t->to_thread == thread) {
			thread->proc->outstanding_txns--;
			t->to_proc = NULL;
			t->to_thread = NULL;
			if (t->buffer) {
				t->buffer->transaction = NULL;
				t->buffer = NULL;
			}
			next = t->to_parent;
		} else if (t->from == thread) {
			t->from = NULL;
			next = t->from_parent;
		} else {
			WARN_ON(1);
			next = NULL;
		}
		binderc_unlock_txn(t);
		t = next;
	}
	return send_reply;
}

int binderc_thread_release(struct binderc_proc *proc,
			   struct binderc_thread *thread)
{
	struct binderc_transaction *send_reply;
	int active = 0;
	bool polled;

	binderc_lock_inner(proc);
	/* The thread's free drops this; it keeps the proc valid meanwhile. */
	proc->tmp_ref++;
	atomic_inc(&thread->tmp_ref);
	rb_erase(&thread->rb_node, &proc->threads);
	list_del_init(&thread->waiting_thread_node);
	send_reply = binderc_thread_unlink_stack_ilocked(thread, &active);
	thread->is_dead = true;
	polled = thread->looper & BINDERC_LOOPER_POLL;
	/*
	 * An epoll entry may still sit on thread->wait: POLLFREE makes epoll
	 * drop it before the memory goes (CVE-2019-2215).
	 */
	if (polled)
		wake_up_pollfree(&thread->wait);
	binderc_unlock_inner(proc);

	/* Let epoll's RCU readers of the waitqueue finish (CVE-2020-0030). */
	if (polled)
		synchronize_rcu();

	if (send_reply)
		binderc_send_failed_reply(send_reply, BR_DEAD_REPLY);
	binderc_release_work(proc, &thread->todo);
	binderc_sched_restore_base(thread);
	binderc_thread_dec_tmpref(thread);
	return active;
}
