// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: BC_TRANSACTION / BC_REPLY (and their _SG forms): finding the
 * target, the transaction stack, queueing and reply routing, failure
 * answers, and freeing received buffers.
 *
 * A sync call is pushed on the caller's stack (from_parent) and, once read,
 * on the receiver's (to_parent).  A nested call back into a proc already on
 * the caller's stack goes to the thread waiting there, so recursion never
 * needs a second thread.  The caller's BR_TRANSACTION_COMPLETE is deferred
 * until the reply (or failure) so it returns to userspace only once.
 */
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>

#include "binderc.h"
#include "trace.h"

static struct binderc_thread *
binderc_get_txn_from(struct binderc_transaction *t)
{
	struct binderc_thread *from;

	binderc_lock_txn(t);
	from = t->from;
	if (from)
		atomic_inc(&from->tmp_ref);
	binderc_unlock_txn(t);
	return from;
}

/*
 * t->from with a tmp ref and its proc's inner_lock held, or NULL (nothing
 * held) if the sender is gone.
 */
static struct binderc_thread *
binderc_get_txn_from_and_acq_inner(struct binderc_transaction *t)
{
	struct binderc_thread *from = binderc_get_txn_from(t);

	if (!from)
		return NULL;
	binderc_lock_inner(from->proc);
	if (t->from) {
		WARN_ON(from != t->from);
		return from;
	}
	binderc_unlock_inner(from->proc);
	binderc_thread_dec_tmpref(from);
	return NULL;
}

static void
binderc_pop_transaction_ilocked(struct binderc_thread *target_thread,
				struct binderc_transaction *t)
{
	lockdep_assert_held(&target_thread->proc->inner_lock);
	WARN_ON(target_thread->transaction_stack != t);
	WARN_ON(t->from != target_thread);
	target_thread->transaction_stack = t->from_parent;
	t->from = NULL;
}

/*
 * Free @t, or keep it as @self's spare for its next send (@self: the
 * caller's own thread, or NULL).  A call and its reply then allocate no
 * transaction struct: each side frees one (the reply it read, the call it
 * answered) and allocates one.
 */
void binderc_free_transaction_keep(struct binderc_transaction *t,
				   struct binderc_thread *self)
{
	struct binderc_thread *target_thread;
	struct binderc_proc *target_proc;

	binderc_lock_txn(t);
	target_proc = t->to_proc;
	target_thread = t->to_thread;
	/*
	 * Pinning the thread keeps its proc alive too.  The caller's own
	 * thread (the reply it read, the call it answered) needs no pin: it
	 * is in this ioctl.
	 */
	if (target_thread == self)
		target_thread = NULL;
	if (target_thread)
		atomic_inc(&target_thread->tmp_ref);
	binderc_unlock_txn(t);

	if (target_proc) {
		binderc_lock_inner(target_proc);
		target_proc->outstanding_txns--;
		/* BINDER_FREEZE may be waiting for the last one. */
		if (!target_proc->outstanding_txns && target_proc->is_frozen)
			wake_up_interruptible_all(&target_proc->freeze_wait);
		if (t->buffer)
			t->buffer->transaction = NULL;
		binderc_unlock_inner(target_proc);
	}
	if (target_thread)
		binderc_thread_dec_tmpref(target_thread);
	binderc_free_txn_fixups(t);
	if (BINDERC_KEEP_SPARES && self && !self->spare_txn)
		self->spare_txn = t;
	else
		kfree(t);
	binderc_count_dec(BINDERC_CNT_TRANSACTION);
}

void binderc_free_transaction(struct binderc_transaction *t)
{
	binderc_free_transaction_keep(t, NULL);
}

/*
 * Answer a sync transaction that will never get its reply: the error goes
 * to the first sender up the chain that is still alive.
 */
void binderc_send_failed_reply(struct binderc_transaction *t, u32 error)
{
	struct binderc_thread *target_thread;
	struct binderc_transaction *next;

	WARN_ON(t->flags & TF_ONE_WAY);
	for (;;) {
		target_thread = binderc_get_txn_from_and_acq_inner(t);
		if (target_thread) {
			binderc_pop_transaction_ilocked(target_thread, t);
			/* Only one error can wait; later ones are dropped. */
			if (target_thread->reply_error.cmd == BR_OK) {
				target_thread->reply_error.cmd = error;
				binderc_enqueue_thread_work_ilocked(target_thread,
					&target_thread->reply_error.work);
				binderc_wake_thread_ilocked(target_thread,
							    false);
			}
			binderc_unlock_inner(target_thread->proc);
			binderc_thread_dec_tmpref(target_thread);
			binderc_free_transaction(t);
			return;
		}
		next = t->from_parent;
		binderc_free_transaction(t);
		if (!next)
			return;
		t = next;
	}
}

void binderc_cleanup_transaction(struct binderc_transaction *t, u32 error)
{
	if (t->buffer->target_node && !(t->flags & TF_ONE_WAY))
		binderc_send_failed_reply(t, error);
	else
		binderc_free_transaction(t);
}

static void binderc_set_txn_from_error(struct binderc_transaction *t, int id,
				       u32 command, s32 param)
{
	struct binderc_thread *from = binderc_get_txn_from_and_acq_inner(t);

	if (!from)
		return;
	/* Keep the first error: it is the cause. */
	if (from->ee.command == BR_OK)
		binderc_set_extended_error(&from->ee, id, command, param);
	binderc_unlock_inner(from->proc);
	binderc_thread_dec_tmpref(from);
}

/*
 * The netlink report of one transaction (report.c): sent for a failure, a
 * oneway queued to a frozen proc and a oneway spam suspect, as in Linux
 * 6.18.  The target is named only once it was settled (@targeted: every
 * check of the lookup passed), as mainline names it only then; a sync
 * call has a target thread only when it goes back down a nested chain.
 * Built from the request and the build state, never from b->t, which the
 * receiver may already own.
 */
static void binderc_txn_report(struct binderc_txn_build *b, u32 error,
			       bool reply, bool targeted)
{
	struct binderc_report r = {
		.error = error,
		.context = b->proc->context->name,
		.from_pid = b->proc->pid,
		.from_tid = b->thread->pid,
		.is_reply = reply,
		.flags = b->tr->flags,
		.code = b->tr->code,
		.data_size = b->tr->data_size,
	};

	if (targeted && b->target_proc) {
		r.to_pid = b->target_proc->pid;
		if (b->target_thread)
			r.to_tid = b->target_thread->pid;
	}
	binderc_report_send(&r);
}

/* ---- finding the target ---------------------------------------------- */

/*
 * BINDER_GET_EXTENDED_ERROR says "this transaction, no error" from here
 * until a failure says otherwise.  Set in the first inner_lock section of
 * each kind of send rather than in one of its own: a failure before it
 * sets the error anyway (binderc_txn_report_error()).
 */
static void binderc_txn_reset_ee_ilocked(struct binderc_txn_build *b)
{
	lockdep_assert_held(&b->proc->inner_lock);
	binderc_set_extended_error(&b->thread->ee, b->debug_id, BR_OK, 0);
}

/*
 * One error type through binderc_transaction(): each of its steps returns
 * 0 or the BR_* code the sender is to get (a u32, as userspace reads it),
 * having recorded it with binderc_txn_fail() in b->return_error, beside
 * the -errno of the extended error in b->return_error_param (an s32, as
 * in struct binder_extended_error).  An -errno from a helper is turned
 * into that pair where it comes back; no step returns one.
 */
static u32 binderc_txn_fail(struct binderc_txn_build *b, u32 cmd, s32 param)
{
	b->return_error = cmd;
	b->return_error_param = param;
	return cmd;
}

static u32 binderc_reply_target(struct binderc_txn_build *b)
{
	struct binderc_thread *thread = b->thread, *target_thread;
	struct binderc_transaction *in_reply_to;

	binderc_lock_inner(b->proc);
	binderc_txn_reset_ee_ilocked(b);
	in_reply_to = thread->transaction_stack;
	if (!in_reply_to || in_reply_to->to_thread != thread) {
		/* Nothing to reply to, or not this thread's to answer. */
		binderc_unlock_inner(b->proc);
		return binderc_txn_fail(b, BR_FAILED_REPLY, -EPROTO);
	}
	thread->transaction_stack = in_reply_to->to_parent;
	binderc_unlock_inner(b->proc);
	b->in_reply_to = in_reply_to;
	binderc_set_nice(in_reply_to->saved_priority);
	/*
	 * A raised thread goes back down only once the reply is queued and
	 * the caller woken: lowered before, it would wait behind whatever
	 * busy task shares its CPU while the caller waits for it.
	 */
	b->sched_restore = in_reply_to->sched_saved;
	b->saved_sched = in_reply_to->saved_sched;
	in_reply_to->sched_saved = false;

	target_thread = binderc_get_txn_from_and_acq_inner(in_reply_to);
	if (!target_thread)
		return binderc_txn_fail(b, BR_DEAD_REPLY, 0);
	if (target_thread->transaction_stack != in_reply_to) {
		binderc_unlock_inner(target_thread->proc);
		binderc_thread_dec_tmpref(target_thread);
		b->in_reply_to = NULL;
		return binderc_txn_fail(b, BR_FAILED_REPLY, -EPROTO);
	}
	b->target_thread = target_thread;
	b->target_proc = target_thread->proc;
	b->target_proc->tmp_ref++;
	binderc_unlock_inner(target_thread->proc);
	return 0;
}

/*
 * Pin @node (a local strong ref and a tmp ref) and its proc for the
 * transaction; BR_DEAD_REPLY if its owner is gone.
 */
static u32 binderc_get_node_refs_for_txn(struct binderc_txn_build *b,
					 struct binderc_node *node)
{
	u32 err = 0;

	binderc_node_inner_lock(node);
	if (node->proc) {
		binderc_inc_node_nilocked(node, 1, 0, NULL);
		binderc_inc_node_tmpref_ilocked(node);
		node->proc->tmp_ref++;
		b->target_proc = node->proc;
		b->target_node = node;
	} else {
		err = BR_DEAD_REPLY;
	}
	binderc_node_inner_unlock(node);
	return err;
}

/* The BR_* code if there is no node to call (not recorded in @b). */
static u32 binderc_lookup_target_node(struct binderc_txn_build *b)
{
	struct binderc_context *ctx = b->proc->context;
	u32 handle = b->tr->target.handle;
	u32 err;

	if (handle) {
		struct binderc_ref *ref;

		/* The caller must hold a strong ref on the target. */
		binderc_lock_outer(b->proc);
		ref = binderc_get_ref_olocked(b->proc, handle, true);
		if (ref)
			err = binderc_get_node_refs_for_txn(b, ref->node);
		else
			err = BR_FAILED_REPLY;
		binderc_unlock_outer(b->proc);
		return err;
	}
	binderc_lock_mgr(ctx);
	if (ctx->mgr_node)
		err = binderc_get_node_refs_for_txn(b, ctx->mgr_node);
	else
		err = BR_DEAD_REPLY;
	binderc_unlock_mgr(ctx);
	return err;
}

/*
 * A sync call from a thread already handling a call: it must be this
 * thread's call, and if a thread of the target proc is waiting further up
 * the stack, the new call goes to that thread.
 */
static int binderc_route_nested_ilocked(struct binderc_txn_build *b)
{
	struct binderc_transaction *tmp = b->thread->transaction_stack;

	lockdep_assert_held(&b->proc->inner_lock);
	if (tmp->to_thread != b->thread)
		return -EPROTO;
	for (; tmp; tmp = tmp->from_parent) {
		struct binderc_thread *from;

		binderc_lock_txn(tmp);
		from = tmp->from;
		if (from && from->proc == b->target_proc) {
			atomic_inc(&from->tmp_ref);
			b->target_thread = from;
			binderc_unlock_txn(tmp);
			break;
		}
		binderc_unlock_txn(tmp);
	}
	return 0;
}

static u32 binderc_call_target(struct binderc_txn_build *b)
{
	bool oneway = b->tr->flags & TF_ONE_WAY;
	struct binderc_thread *thread = b->thread;
	struct binderc_work *w;
	u32 err;
	int ret = 0;

	err = binderc_lookup_target_node(b);
	if (err)
		return binderc_txn_fail(b, err, -EINVAL);
	/* Calling oneself (the ctx mgr via handle 0, too) is refused. */
	if (b->target_proc == b->proc ||
	    (!b->tr->target.handle && b->target_proc->pid == b->proc->pid))
		return binderc_txn_fail(b, BR_FAILED_REPLY, -EINVAL);
	if (security_binder_transaction(b->proc->cred,
					b->target_proc->cred) < 0)
		return binderc_txn_fail(b, BR_FAILED_REPLY, -EPERM);

	binderc_lock_inner(b->proc);
	binderc_txn_reset_ee_ilocked(b);
	w = list_first_entry_or_null(&thread->todo, struct binderc_work, entry);
	/* An incoming call must be read before a new sync call goes out. */
	if (!oneway && w && w->type == BINDERC_WORK_TRANSACTION)
		ret = -EPROTO;
	else if (!oneway && thread->transaction_stack)
		ret = binderc_route_nested_ilocked(b);
	binderc_unlock_inner(b->proc);
	if (ret)
		return binderc_txn_fail(b, BR_FAILED_REPLY, ret);
	return 0;
}

/* ---- building ------------------------------------------------------------ */

static struct binderc_transaction *
binderc_txn_create(struct binderc_txn_build *b, bool reply, int debug_id)
{
	struct binder_transaction_data *tr = b->tr;
	struct binderc_transaction *t;

	t = b->thread->spare_txn;
	if (t) {
		b->thread->spare_txn = NULL;
		memset(t, 0, sizeof(*t));
	} else {
		t = kzalloc(sizeof(*t), GFP_KERNEL);
		if (!t)
			return NULL;
	}
	binderc_count_inc(BINDERC_CNT_TRANSACTION);
	INIT_LIST_HEAD(&t->fd_fixups);
	INIT_LIST_HEAD(&t->work.entry);
	spin_lock_init(&t->lock);
	t->debug_id = debug_id;
	if (!reply && !(tr->flags & TF_ONE_WAY))
		t->from = b->thread;
	t->from_pid = b->proc->pid;
	t->from_tid = b->thread->pid;
	t->sender_euid = task_euid(b->proc->tsk);
	t->to_proc = b->target_proc;
	t->to_thread = b->target_thread;
	t->code = tr->code;
	t->flags = tr->flags;
	t->priority = task_nice(current);
	if (!reply)
		binderc_txn_sched_record(t, b->target_node);
	return t;
}

/*
 * The sender's TRANSACTION_COMPLETE item: the one this thread last read
 * (binderc_read_one() keeps it), else a new one.  A call and its reply
 * then allocate one item less each.
 */
static struct binderc_work *
binderc_tcomplete_create(struct binderc_thread *thread)
{
	struct binderc_work *w = thread->spare_tcomplete;

	if (w)
		thread->spare_tcomplete = NULL;
	else
		w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return NULL;
	INIT_LIST_HEAD(&w->entry);
	w->type = BINDERC_WORK_TRANSACTION_COMPLETE;
	binderc_count_inc(BINDERC_CNT_TRANSACTION_COMPLETE);
	return w;
}

static void binderc_tcomplete_free(struct binderc_work *w)
{
	if (!w)
		return;
	kfree(w);
	binderc_count_dec(BINDERC_CNT_TRANSACTION_COMPLETE);
}

/* A transaction that was never queued: nothing else points at it. */
static void binderc_txn_free_unsent(struct binderc_transaction *t)
{
	if (!t)
		return;
	kfree(t);
	binderc_count_dec(BINDERC_CNT_TRANSACTION);
}

/* Room for the sender's security context at the end of the SG area. */
static int binderc_txn_get_secctx(struct binderc_txn_build *b,
				  struct binderc_secctx *ctx)
{
	size_t added;
	int ret;

	ret = binderc_secctx_get(b->proc->cred, ctx);
	if (ret)
		return ret;
	added = ALIGN(ctx->len, sizeof(u64));
	b->extra_buffers_size += added;
	/* Overflow (CVE-2019-2181). */
	if (b->extra_buffers_size < added) {
		binderc_secctx_release(ctx);
		return -EINVAL;
	}
	b->secctx_size = added;
	return 0;
}

static void binderc_txn_put_secctx(struct binderc_txn_build *b,
				   struct binderc_secctx *ctx)
{
	struct binder_transaction_data *tr = b->tr;
	struct binderc_transaction *t = b->t;
	size_t off;

	off = ALIGN(tr->data_size, sizeof(void *)) +
	      ALIGN(tr->offsets_size, sizeof(void *)) +
	      ALIGN(b->extra_buffers_size, sizeof(void *)) - b->secctx_size;
	if (!binderc_alloc_copy_to_buffer(&b->target_proc->alloc, t->buffer,
					  off, ctx->context, ctx->len))
		t->security_ctx = t->buffer->user_data + off;
	binderc_secctx_release(ctx);
}

static u32 binderc_txn_alloc_buffer(struct binderc_txn_build *b, bool reply)
{
	struct binder_transaction_data *tr = b->tr;
	struct binderc_transaction *t = b->t;
	struct binderc_buffer *buffer;
	struct binderc_secctx secctx = { };
	int ret;

	if (b->target_node && b->target_node->txn_security_ctx) {
		ret = binderc_txn_get_secctx(b, &secctx);
		if (ret)
			return binderc_txn_fail(b, BR_FAILED_REPLY, ret);
	}
	buffer = binderc_alloc_new_buf(&b->target_proc->alloc, tr->data_size,
				       tr->offsets_size, b->extra_buffers_size,
				       !reply && (t->flags & TF_ONE_WAY),
				       current->tgid);
	if (IS_ERR(buffer)) {
		if (secctx.context)
			binderc_secctx_release(&secctx);
		ret = PTR_ERR(buffer);
		/* No mapping (never made or already gone): the peer is dead. */
		return binderc_txn_fail(b, ret == -ESRCH ? BR_DEAD_REPLY :
					BR_FAILED_REPLY, ret);
	}
	t->buffer = buffer;
	if (secctx.context)
		binderc_txn_put_secctx(b, &secctx);
	buffer->debug_id = t->debug_id;
	trace_binderc_transaction_alloc_buf(buffer);
	buffer->transaction = t;
	buffer->target_node = b->target_node;
	buffer->clear_on_free = !!(t->flags & TF_CLEAR_BUF);
	return 0;
}

/* The objects of the call, into its buffer (objects.c). */
static u32 binderc_txn_translate(struct binderc_txn_build *b)
{
	int ret = binderc_translate_buffer(b);

	return ret ? binderc_txn_fail(b, BR_FAILED_REPLY, ret) : 0;
}

/* ---- queueing ------------------------------------------------------------ */

/* A queued oneway call made outdated by a TF_UPDATE_TXN one. */
static void binderc_free_outdated_txn(struct binderc_proc *proc,
				      struct binderc_transaction *t)
{
	struct binderc_buffer *buffer = t->buffer;

	t->buffer = NULL;
	buffer->transaction = NULL;
	trace_binderc_transaction_update_buffer_release(buffer);
	binderc_release_entire_buffer(proc, NULL, buffer, true);
	binderc_alloc_free_buf(&proc->alloc, buffer);
	binderc_free_txn_fixups(t);
	kfree(t);
	binderc_count_dec(BINDERC_CNT_TRANSACTION);
}

/* Behind the node's oneway call in flight; returns what it replaces. */
static struct binderc_transaction *
binderc_queue_async_ilocked(struct binderc_transaction *t,
			    struct binderc_proc *proc,
			    struct binderc_node *node)
{
	struct binderc_transaction *outdated = NULL;

	lockdep_assert_held(&proc->inner_lock);
	if ((t->flags & TF_UPDATE_TXN) && proc->is_frozen) {
		outdated = binderc_find_outdated_txn_ilocked(proc, t,
							     &node->async_todo);
		if (outdated) {
			list_del_init(&outdated->work.entry);
			proc->outstanding_txns--;
		}
	}
	binderc_enqueue_work_ilocked(proc, &t->work, &node->async_todo);
	return outdated;
}

/*
 * Queue @t on @proc: on @thread if given, else on a waiting thread, else
 * on the proc todo.  A oneway call waits on its node while an earlier one
 * is still being handled.  Returns 0, BR_DEAD_REPLY or BR_FROZEN_REPLY, or
 * BR_TRANSACTION_PENDING_FROZEN for a oneway queued to a frozen proc (not
 * an error: the call is queued, and its sender is told it waits).
 */
static u32 binderc_proc_transaction(struct binderc_transaction *t,
				    struct binderc_proc *proc,
				    struct binderc_thread *thread)
{
	struct binderc_node *node = t->buffer->target_node;
	struct binderc_transaction *outdated = NULL;
	bool oneway = t->flags & TF_ONE_WAY;
	bool pending_async = false, frozen;
	struct binderc_thread *boost = NULL;
	bool explicit_thread = thread, idle = false;
	struct binderc_sched want;
	unsigned int gen = 0;

	binderc_lock_node(node);
	if (oneway) {
		if (node->has_async_transaction)
			pending_async = true;
		else
			node->has_async_transaction = true;
	}
	binderc_lock_inner(proc);
	frozen = proc->is_frozen;
	if (frozen) {
		proc->sync_recv |= !oneway;
		proc->async_recv |= oneway;
	}
	if ((frozen && !oneway) || proc->is_dead ||
	    proc->receive_closed || (thread && thread->is_dead)) {
		u32 err = frozen ? BR_FROZEN_REPLY : BR_DEAD_REPLY;

		binderc_unlock_inner(proc);
		binderc_unlock_node(node);
		return err;
	}
	if (!thread && !pending_async)
		thread = binderc_select_thread_ilocked(proc);
	if (thread)
		binderc_enqueue_thread_work_ilocked(thread, &t->work);
	else if (!pending_async)
		binderc_enqueue_work_ilocked(proc, &t->work, &proc->todo);
	else
		outdated = binderc_queue_async_ilocked(t, proc, node);
	if (!pending_async)
		binderc_wakeup_thread_ilocked(proc, thread, !oneway);
	/* The thread that will serve a sync call is raised from here (rtprio.c). */
	if (thread && !oneway && binderc_sched_maybe_owed(t, node) &&
	    binderc_sched_want(t, node, &want)) {
		idle = !explicit_thread;
		boost = thread;
		atomic_inc(&boost->tmp_ref);
		gen = READ_ONCE(boost->sched_gen);
	}
	proc->outstanding_txns++;
	binderc_unlock_inner(proc);
	binderc_unlock_node(node);
	/* Freed outside the locks: it takes the allocator mutex. */
	if (outdated)
		binderc_free_outdated_txn(proc, outdated);
	if (boost) {
		binderc_sched_boost(boost, gen, &want, idle);
		binderc_thread_dec_tmpref(boost);
	}
	return oneway && frozen ? BR_TRANSACTION_PENDING_FROZEN : 0;
}

static u32 binderc_send_reply(struct binderc_txn_build *b,
			      struct binderc_work *tcomplete)
{
	struct binderc_thread *target_thread = b->target_thread;
	struct binderc_proc *target_proc = b->target_proc;

	binderc_enqueue_thread_work(b->thread, tcomplete);
	binderc_lock_inner(target_proc);
	if (target_thread->is_dead || target_proc->receive_closed) {
		binderc_unlock_inner(target_proc);
		return binderc_txn_fail(b, BR_DEAD_REPLY, 0);
	}
	binderc_pop_transaction_ilocked(target_thread, b->in_reply_to);
	binderc_enqueue_thread_work_ilocked(target_thread, &b->t->work);
	target_proc->outstanding_txns++;
	binderc_wake_thread_ilocked(target_thread, true);
	binderc_unlock_inner(target_proc);
	binderc_free_transaction_keep(b->in_reply_to, b->thread);
	return 0;
}

static u32 binderc_send_call(struct binderc_txn_build *b,
			     struct binderc_work *tcomplete)
{
	struct binderc_thread *thread = b->thread;
	struct binderc_transaction *t = b->t;
	u32 err;

	binderc_lock_inner(b->proc);
	/* Read together with the reply: one return to userspace, not two. */
	binderc_enqueue_deferred_thread_work_ilocked(thread, tcomplete);
	t->need_reply = 1;
	t->from_parent = thread->transaction_stack;
	thread->transaction_stack = t;
	binderc_unlock_inner(b->proc);

	err = binderc_proc_transaction(t, b->target_proc, b->target_thread);
	if (err) {
		binderc_lock_inner(b->proc);
		binderc_pop_transaction_ilocked(thread, t);
		binderc_unlock_inner(b->proc);
		return binderc_txn_fail(b, err, 0);
	}
	return 0;
}

/*
 * The sender hears BR_TRANSACTION_PENDING_FROZEN instead of
 * BR_TRANSACTION_COMPLETE when its call waits for a frozen proc (Linux 6.2
 * on).  The completion is queued only after the call, so that its type is
 * final before the sender can read it.
 */
static u32 binderc_send_oneway(struct binderc_txn_build *b,
			       struct binderc_work *tcomplete)
{
	u32 err = binderc_proc_transaction(b->t, b->target_proc, NULL);

	if (err == BR_TRANSACTION_PENDING_FROZEN) {
		tcomplete->type = BINDERC_WORK_TRANSACTION_PENDING_FROZEN;
		binderc_txn_report(b, err, false, true);
		err = 0;
	}
	if (err)
		return binderc_txn_fail(b, err, 0);
	binderc_enqueue_thread_work(b->thread, tcomplete);
	return 0;
}

/* ---- the whole of BC_TRANSACTION / BC_REPLY ------------------------------ */

static void binderc_txn_report_error(struct binderc_txn_build *b, int id)
{
	struct binderc_thread *thread = b->thread;

	if (b->in_reply_to) {
		/* The replier is done; the failure goes to the caller. */
		binderc_set_txn_from_error(b->in_reply_to, id, b->return_error,
					   b->return_error_param);
		thread->return_error.cmd = BR_TRANSACTION_COMPLETE;
		binderc_enqueue_thread_work(thread, &thread->return_error.work);
		binderc_send_failed_reply(b->in_reply_to, b->return_error);
		return;
	}
	binderc_lock_inner(b->proc);
	binderc_set_extended_error(&thread->ee, id, b->return_error,
				   b->return_error_param);
	binderc_unlock_inner(b->proc);
	thread->return_error.cmd = b->return_error;
	binderc_enqueue_thread_work(thread, &thread->return_error.work);
}

static void binderc_txn_log_start(struct binderc_txn_build *b,
				  struct binderc_log_entry *e, int id,
				  bool reply)
{
	e->debug_id = id;
	e->call_type = reply ? 2 : !!(b->tr->flags & TF_ONE_WAY);
	e->from_proc = b->proc->pid;
	e->from_thread = b->thread->pid;
	e->target_handle = b->tr->target.handle;
	e->data_size = b->tr->data_size;
	e->offsets_size = b->tr->offsets_size;
	memcpy(e->context_name, b->proc->context->log_name,
	       sizeof(e->context_name));
}

static void binderc_txn_log_end(struct binderc_txn_build *b,
				struct binderc_log_entry *e, int id)
{
	if (b->target_proc)
		e->to_proc = b->target_proc->pid;
	if (b->target_thread)
		e->to_thread = b->target_thread->pid;
	if (b->return_error) {
		e->return_error = b->return_error;
		e->return_error_param = b->return_error_param;
		binderc_log_copy_failed(e);
	}
	/* Pairs with the readers' smp_rmb(): fields before done. */
	smp_wmb();
	WRITE_ONCE(e->debug_id_done, id);
}

static void binderc_txn_drop_targets(struct binderc_txn_build *b)
{
	if (b->target_thread)
		binderc_thread_dec_tmpref(b->target_thread);
	if (b->target_proc)
		binderc_proc_dec_tmpref(b->target_proc);
}

/* Undo a built transaction whose buffer is allocated. */
static void binderc_txn_unwind_buffer(struct binderc_txn_build *b)
{
	struct binderc_transaction *t = b->t;

	binderc_free_txn_fixups(t);
	trace_binderc_transaction_failed_buffer_release(t->buffer);
	/* This also drops the target node's local strong ref. */
	binderc_transaction_buffer_release(b->target_proc, NULL, t->buffer,
					   b->failed_at, true);
	if (b->target_node)
		binderc_put_node(b->target_node);
	b->target_node = NULL;
	t->buffer->transaction = NULL;
	binderc_alloc_free_buf(&b->target_proc->alloc, t->buffer);
}

void binderc_transaction(struct binderc_proc *proc,
			 struct binderc_thread *thread,
			 struct binder_transaction_data *tr, int reply,
			 binder_size_t extra_buffers_size)
{
	struct binderc_txn_build b = {
		.proc = proc, .thread = thread, .tr = tr,
		.extra_buffers_size = extra_buffers_size,
	};
	int debug_id = binderc_new_debug_id();
	struct binderc_work *tcomplete = NULL;
	struct binderc_log_entry *e = binderc_log_add(false);
	bool targeted = false;
	u32 err;

	b.debug_id = debug_id;
	binderc_txn_log_start(&b, e, debug_id, reply);

	if (reply ? binderc_reply_target(&b) : binderc_call_target(&b))
		goto err_no_txn;
	targeted = true;
	if (b.target_node)
		e->to_node = b.target_node->debug_id;

	b.t = binderc_txn_create(&b, reply, debug_id);
	tcomplete = binderc_tcomplete_create(thread);
	if (!b.t || !tcomplete) {
		binderc_txn_fail(&b, BR_FAILED_REPLY, -ENOMEM);
		goto err_free_txn;
	}
	trace_binderc_transaction(reply, b.t, b.target_node);

	if (binderc_txn_alloc_buffer(&b, reply))
		goto err_free_txn;
	if (binderc_txn_translate(&b))
		goto err_unwind;

	if (b.t->buffer->oneway_spam_suspect) {
		tcomplete->type = BINDERC_WORK_TRANSACTION_ONEWAY_SPAM_SUSPECT;
		binderc_txn_report(&b, BR_ONEWAY_SPAM_SUSPECT, reply, true);
	}
	b.t->work.type = BINDERC_WORK_TRANSACTION;
	if (reply)
		err = binderc_send_reply(&b, tcomplete);
	else if (!(b.t->flags & TF_ONE_WAY))
		err = binderc_send_call(&b, tcomplete);
	else
		err = binderc_send_oneway(&b, tcomplete);
	if (err) {
		binderc_dequeue_work(proc, tcomplete);
		goto err_unwind;
	}

	binderc_txn_log_end(&b, e, debug_id);
	binderc_txn_drop_targets(&b);
	if (b.target_node)
		binderc_put_node(b.target_node);
	if (b.sched_restore)
		binderc_sched_reply_done(thread, &b.saved_sched);
	return;

err_unwind:
	binderc_txn_unwind_buffer(&b);
err_free_txn:
	binderc_tcomplete_free(tcomplete);
	binderc_txn_free_unsent(b.t);
err_no_txn:
	if (b.target_node) {
		/* The local strong ref and the tmp ref of the lookup. */
		binderc_dec_node(b.target_node, 1, 0);
		binderc_put_node(b.target_node);
	}
	/* While the targets are pinned, before anyone hears of the failure. */
	binderc_txn_report(&b, b.return_error, reply, targeted);
	trace_binderc_transaction_failed(&b, debug_id, reply, targeted);
	binderc_txn_log_end(&b, e, debug_id);
	binderc_txn_drop_targets(&b);
	binderc_txn_report_error(&b, debug_id);
	if (b.sched_restore)
		binderc_sched_reply_done(thread, &b.saved_sched);
}

/* ---- BC_FREE_BUFFER ------------------------------------------------------ */

/*
 * Free a buffer the receiver is done with: release what it holds and, for
 * a oneway buffer, let the node's next queued oneway call through.
 */
void binderc_free_buf(struct binderc_proc *proc,
		      struct binderc_thread *thread,
		      struct binderc_buffer *buffer, bool is_failure)
{
	binderc_lock_inner(proc);
	if (buffer->transaction) {
		buffer->transaction->buffer = NULL;
		buffer->transaction = NULL;
	}
	binderc_unlock_inner(proc);

	if (buffer->async_transaction && buffer->target_node) {
		struct binderc_node *node = buffer->target_node;
		struct binderc_work *w;

		binderc_node_inner_lock(node);
		WARN_ON(!node->has_async_transaction);
		w = binderc_dequeue_work_head_ilocked(proc, &node->async_todo);
		if (!w) {
			node->has_async_transaction = false;
		} else {
			binderc_enqueue_work_ilocked(proc, w, &proc->todo);
			binderc_wakeup_proc_ilocked(proc);
		}
		binderc_node_inner_unlock(node);
	}
	binderc_trace_buffer_release(buffer, is_failure);
	binderc_release_entire_buffer(proc, thread, buffer, is_failure);
	binderc_alloc_free_buf(&proc->alloc, buffer);
}
