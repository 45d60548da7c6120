/* SPDX-License-Identifier: MIT */
/*
 * The command loop: talking to the driver with BINDER_WRITE_READ, waiting
 * for replies, executing BR_* returns (incoming transactions, reference
 * counts, deaths) and sending replies.
 *
 * Each thread has its own input buffer (struct bc_thread) whose unread
 * part survives between nested waits: a wait stops consuming as soon as
 * what it waited for arrived, and the enclosing wait continues from there.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

enum { W_SYNC = 1, W_ONEWAY, W_REPLY_SENT };
enum { RUN_WAIT, RUN_LOOPER, RUN_POLLED };

struct waiter {
	int kind;
	bool done;
	int status;
	int origin; /* enum bc_error_origin of a failed status */
	bc_parcel *reply;
};

void bc__log(const char *fmt, ...)
{
	static int enabled = -1;
	va_list ap;

	if (enabled < 0)
		enabled = getenv("BINDERC_DEBUG") != NULL;
	if (!enabled)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "libbinder-c[%d]: ", (int)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/*
 * Read more returns into @t's input, after what is still unread: a write
 * found the driver waiting for its BR_ERROR to be read (below).  The
 * thread's command loop handles what was read when it next runs.
 */
static int read_more(struct bc_thread *t)
{
	struct binder_write_read bwr;

	memmove(t->in, t->in + t->in_pos, t->in_len - t->in_pos);
	t->in_len -= t->in_pos;
	t->in_pos = 0;
	/* The driver writes nothing without room for its largest return. */
	if (sizeof(t->in) - t->in_len < 4 + sizeof(struct binder_transaction_data_secctx))
		return -EAGAIN;
	memset(&bwr, 0, sizeof(bwr));
	bwr.read_buffer = (uintptr_t)(t->in + t->in_len);
	bwr.read_size = sizeof(t->in) - t->in_len;
	while (ioctl(t->proc->fd, BINDER_WRITE_READ, &bwr) < 0)
		if (errno != EINTR)
			return -errno;
	t->in_len += bwr.read_consumed;
	return 0;
}

/*
 * Write all of @buf.  While a BR_ERROR waits to be read (the driver failed
 * an allocation, e.g. for a death notification), the driver takes no
 * command: the ioctl succeeds with write_consumed short.  Then the error
 * is read into the calling thread's input and the rest sent again.
 * Returns the bytes written (all, or fewer with -EAGAIN in *@err when no
 * progress is possible) so a caller with a buffer of its own can keep the
 * rest.
 */
static size_t write_all(bc_process *proc, const void *buf, size_t len, int *err)
{
	struct binder_write_read bwr;
	struct bc_thread *t = NULL;

	*err = 0;
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (uintptr_t)buf;
	bwr.write_size = len;
	while (bwr.write_consumed < len) {
		binder_size_t before = bwr.write_consumed;

		if (ioctl(proc->fd, BINDER_WRITE_READ, &bwr) < 0) {
			if (errno == EINTR)
				continue;
			*err = -errno;
			break;
		}
		if (bwr.write_consumed != before)
			continue;
		if (!t)
			t = bc__thread(proc);
		*err = t ? read_more(t) : -ENOMEM;
		if (*err)
			break;
	}
	return bwr.write_consumed;
}

int bc__write(bc_process *proc, const void *buf, size_t len)
{
	int err;

	write_all(proc, buf, len, &err);
	return err;
}

int bc__cmd(bc_process *proc, uint32_t cmd, const void *payload, size_t len)
{
	uint8_t buf[4 + sizeof(struct binder_transaction_data_sg)];

	if (!proc || len > sizeof(buf) - 4)
		return -EINVAL;
	memcpy(buf, &cmd, 4);
	if (len)
		memcpy(buf + 4, payload, len);
	return bc__write(proc, buf, 4 + len);
}

void bc__free_buffer(bc_process *proc, uintptr_t buf, bool may_defer)
{
	uint64_t b;

	/* Keep this one for the next write; free the one kept before now. */
	if (may_defer && (buf = atomic_exchange(&proc->deferred_free, buf)) == 0)
		return;
	b = buf;
	bc__cmd(proc, BC_FREE_BUFFER, &b, sizeof(b));
}

/* Send the thread's pending commands (write only).  What the driver could
 * not take yet stays for the next write (fill() reads first). */
static int flush_out(struct bc_thread *t)
{
	size_t done;
	int r;

	if (!t->out_len)
		return 0;
	done = write_all(t->proc, t->out, t->out_len, &r);
	if (r == -EAGAIN) {
		t->out_len -= done;
		memmove(t->out, t->out + done, t->out_len);
		return 0;
	}
	t->out_len = 0;
	return r;
}

/* Append one command to the thread's pending write. */
static int queue_cmd(struct bc_thread *t, uint32_t cmd, const void *payload, size_t len)
{
	int r;

	if (sizeof(t->out) - t->out_len < 4 + len && (r = flush_out(t)) < 0)
		return r;
	if (sizeof(t->out) - t->out_len < 4 + len)
		return -EAGAIN; /* the driver is not taking commands yet */
	memcpy(t->out + t->out_len, &cmd, 4);
	if (len)
		memcpy(t->out + t->out_len + 4, payload, len);
	t->out_len += 4 + len;
	return 0;
}

void bc__ref_cmd(bc_process *proc, uint32_t cmd, const void *payload, size_t len, bool may_defer)
{
	/* Only a thread in the command loop is sure to write again soon;
	 * another one is not given thread state just for this. */
	struct bc_thread *t = may_defer ? pthread_getspecific(proc->key) : NULL;
	int r;

	if (t && t->loop_depth && queue_cmd(t, cmd, payload, len) == 0)
		return;
	r = bc__cmd(proc, cmd, payload, len);
	if (r < 0)
		bc__log("command %#x failed: %d", cmd, r);
}

void bc__thread_queue_free(struct bc_thread *t, uintptr_t buf)
{
	uint64_t b = buf;

	if (queue_cmd(t, BC_FREE_BUFFER, &b, sizeof(b)) < 0)
		bc__cmd(t->proc, BC_FREE_BUFFER, &b, sizeof(b));
}

/* Move the process's deferred buffer free to this thread's pending write. */
static void take_deferred(struct bc_thread *t)
{
	uintptr_t buf;

	if (!atomic_load_explicit(&t->proc->deferred_free, memory_order_relaxed))
		return;
	buf = atomic_exchange(&t->proc->deferred_free, 0);
	if (buf)
		bc__thread_queue_free(t, buf);
}

/* Write the pending commands (may be none) and read into the thread's empty
 * buffer, in one BINDER_WRITE_READ. */
static int fill(struct bc_thread *t)
{
	struct binder_write_read bwr;
	int r = 0;

	take_deferred(t);
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (uintptr_t)t->out;
	bwr.write_size = t->out_len;
	bwr.read_buffer = (uintptr_t)t->in;
	bwr.read_size = sizeof(t->in);
	for (;;) {
		if (ioctl(t->proc->fd, BINDER_WRITE_READ, &bwr) == 0)
			break;
		if (errno != EINTR) {
			r = -errno;
			break;
		}
		if (bwr.read_consumed > 0)
			break;
	}
	/* A pending BR_ERROR stops the driver taking commands: what it did
	 * not take goes out with the next write, once the error was read. */
	if (r == 0 && bwr.write_consumed < t->out_len) {
		t->out_len -= bwr.write_consumed;
		memmove(t->out, t->out + bwr.write_consumed, t->out_len);
	} else {
		t->out_len = 0;
	}
	t->in_len = r < 0 ? 0 : bwr.read_consumed;
	t->in_pos = 0;
	return r;
}

/* Send the pending commands, reading too when nothing is left unread. */
static int send_out(struct bc_thread *t)
{
	if (t->in_pos >= t->in_len)
		return fill(t);
	take_deferred(t);
	return flush_out(t);
}

static void handle_transaction(struct bc_thread *t, const struct binder_transaction_data *tr);

static bool readable_now(struct bc_thread *t)
{
	struct pollfd pfd = { .fd = t->proc->fd, .events = POLLIN };

	return poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN);
}

static void free_kernel_buffer(bc_process *proc, const struct binder_transaction_data *tr)
{
	bc_parcel *p = NULL;

	/* Wrapping and dropping closes any fds in it and frees the buffer. */
	bc__parcel_from_kernel(proc, tr, &p);
	bc_parcel_unref(p);
}

static void finish_from(struct waiter *w, int status, int origin)
{
	w->done = true;
	w->status = status;
	w->origin = origin;
}

static void finish(struct waiter *w, int status)
{
	finish_from(w, status, BINDERC_ERROR_LOCAL);
}

/* The outcome of a call this thread waits for: a reply parcel, or the
 * status the caller's bc_binder_transact() returns. */
static void take_reply(bc_process *proc, struct waiter *w, const struct binder_transaction_data *tr)
{
	int32_t st = -EBADMSG;

	if (!w || w->kind != W_SYNC) {
		bc__log("unexpected reply");
		free_kernel_buffer(proc, tr);
		return;
	}
	if (tr->flags & TF_STATUS_CODE) {
		if (tr->data_size >= 4)
			memcpy(&st, (const void *)(uintptr_t)tr->data.ptr.buffer, 4);
		free_kernel_buffer(proc, tr);
		finish_from(w, st > 0 ? -EBADMSG : st, BINDERC_ERROR_REMOTE);
		return;
	}
	finish(w, bc__parcel_from_kernel(proc, tr, &w->reply));
	if (w->reply)
		w->reply->flags |= BINDERC_PARCEL_REPLY;
}

/* The driver's reference-count requests on our local objects; the
 * acknowledgements go with the next write. */
static void take_refcount(bc_process *proc, uint32_t cmd, const struct binder_ptr_cookie *pc)
{
	switch (cmd) {
	case BR_INCREFS:
		bc__local_increfs(proc, pc->ptr, pc->cookie);
		bc__ref_cmd(proc, BC_INCREFS_DONE, pc, sizeof(*pc), true);
		break;
	case BR_ACQUIRE:
		bc__local_acquire(proc, pc->ptr, pc->cookie);
		bc__ref_cmd(proc, BC_ACQUIRE_DONE, pc, sizeof(*pc), true);
		break;
	case BR_RELEASE:
		bc__local_release(proc, pc->ptr, pc->cookie);
		break;
	default:
		bc__local_decrefs(proc, pc->ptr, pc->cookie);
		break;
	}
}

/* What a failed call returns to its caller. */
static int failed_call_status(uint32_t cmd)
{
	switch (cmd) {
	case BR_DEAD_REPLY:
		return -EPIPE;
	case BR_FROZEN_REPLY:
		return -EAGAIN;
	default:
		return -ECOMM;
	}
}

/* Act on one return command and its payload (copied out, aligned). */
static void dispatch(struct bc_thread *t, struct waiter *w, uint32_t cmd, const void *payload)
{
	bc_process *proc = t->proc;
	union {
		struct binder_transaction_data tr;
		struct binder_ptr_cookie pc;
		struct binder_frozen_state_info frozen;
		binder_uintptr_t cookie;
	} u;

	switch (cmd) {
	case BR_NOOP:
	case BR_OK:
	case BR_FINISHED:
		break;
	case BR_SPAWN_LOOPER:
		if (proc->pool_started && !atomic_load(&proc->stopping))
			bc__spawn(proc, true);
		break;
	case BR_TRANSACTION_COMPLETE:
	case BR_ONEWAY_SPAM_SUSPECT:
		if (w && (w->kind == W_ONEWAY || w->kind == W_REPLY_SENT))
			finish(w, 0);
		break;
	case BR_TRANSACTION_PENDING_FROZEN:
		/* Sent instead of BR_TRANSACTION_COMPLETE; only a oneway
		 * call gets it. */
		if (w && (w->kind == W_ONEWAY || w->kind == W_REPLY_SENT))
			finish(w, w->kind == W_ONEWAY ? BINDERC_QUEUED_FROZEN : 0);
		break;
	case BR_REPLY:
		memcpy(&u.tr, payload, sizeof(u.tr));
		take_reply(proc, w, &u.tr);
		break;
	case BR_DEAD_REPLY:
	case BR_FAILED_REPLY:
	case BR_FROZEN_REPLY:
		if (w)
			finish_from(w, failed_call_status(cmd), BINDERC_ERROR_TRANSPORT);
		break;
	case BR_TRANSACTION_SEC_CTX:
	case BR_TRANSACTION:
		memcpy(&u.tr, payload, sizeof(u.tr));
		handle_transaction(t, &u.tr);
		break;
	case BR_INCREFS:
	case BR_ACQUIRE:
	case BR_RELEASE:
	case BR_DECREFS:
		memcpy(&u.pc, payload, sizeof(u.pc));
		take_refcount(proc, cmd, &u.pc);
		break;
	case BR_DEAD_BINDER:
		memcpy(&u.cookie, payload, sizeof(u.cookie));
		bc__proxy_dead(proc, u.cookie);
		break;
	case BR_FROZEN_BINDER:
		memcpy(&u.frozen, payload, sizeof(u.frozen));
		bc__proxy_frozen(proc, u.frozen.cookie, u.frozen.is_frozen != 0);
		break;
	case BR_CLEAR_FREEZE_NOTIFICATION_DONE:
	case BR_CLEAR_DEATH_NOTIFICATION_DONE:
		memcpy(&u.cookie, payload, sizeof(u.cookie));
		bc__proxy_clear_done(proc, u.cookie);
		break;
	case BR_ERROR:
		/* An allocation failed in the driver; for a death
		 * notification (the one source in 6.1) no notice
		 * will come. */
		bc__log("BR_ERROR: the driver failed an allocation");
		break;
	default:
		bc__log("unhandled return command %#x", cmd);
		break;
	}
}

/* Take the next return command out of the thread's read buffer; false when
 * the buffer holds no complete one (a torn or unknown tail is dropped). */
static bool next_return(struct bc_thread *t, uint32_t *cmd, void *payload, size_t room)
{
	size_t size;

	if (t->in_len - t->in_pos < 4) {
		t->in_pos = t->in_len;
		return false;
	}
	memcpy(cmd, t->in + t->in_pos, 4);
	/* BR_ERROR is declared with an int, but drivers write the bare
	 * word (mainline 6.1 and binderc alike). */
	size = *cmd == BR_ERROR ? 0 : _IOC_SIZE(*cmd);
	if (size > room || t->in_len - t->in_pos - 4 < size) {
		bc__log("bad return command %#x", *cmd);
		t->in_pos = t->in_len;
		return false;
	}
	memcpy(payload, t->in + t->in_pos + 4, size);
	t->in_pos += 4 + size;
	return true;
}

/* Run the command loop until @w is done (RUN_WAIT), the process stops
 * (RUN_LOOPER), or the driver has nothing more (RUN_POLLED). */
static int run_loop(struct bc_thread *t, struct waiter *w, int mode)
{
	bc_process *proc = t->proc;
	uint8_t payload[sizeof(struct binder_transaction_data_secctx)];
	uint32_t cmd;
	int r;

	for (;;) {
		if (w && w->done)
			return 0;
		if (t->in_pos < t->in_len) {
			if (next_return(t, &cmd, payload, sizeof(payload)))
				dispatch(t, w, cmd, payload);
			continue;
		}
		if (mode == RUN_POLLED && !readable_now(t))
			return 0;
		if (mode == RUN_LOOPER && atomic_load(&proc->stopping))
			return 0;
		r = fill(t);
		if (r < 0) {
			if (w)
				finish(w, r);
			return r;
		}
	}
}

/* Whatever ends the loop, leave nothing pending (a queued buffer free must
 * not wait for a write that may never come). */
static int run(struct bc_thread *t, struct waiter *w, int mode)
{
	int r;

	t->loop_depth++;
	r = run_loop(t, w, mode);
	t->loop_depth--;
	if (t->out_len)
		flush_out(t);
	return r;
}

/* @flags: what the request's flags pass on to its reply (TF_CLEAR_BUF, as
 * Android's IPCThreadState forwards it). */
static void send_reply(struct bc_thread *t, bc_parcel *reply, int status, uint32_t flags)
{
	struct binder_transaction_data tr;
	struct waiter w = { .kind = W_REPLY_SENT };
	int32_t st = status;

	memset(&tr, 0, sizeof(tr));
	if (status == 0 && reply) {
		status = bc__parcel_bind(reply, t->proc);
		st = status;
	}
	if (status == 0 && reply) {
		tr.data_size = reply->size;
		tr.offsets_size = reply->n_offs * sizeof(uint64_t);
		tr.data.ptr.buffer = (uintptr_t)reply->data;
		tr.data.ptr.offsets = (uintptr_t)reply->offs;
	} else {
		tr.flags = TF_STATUS_CODE;
		tr.data_size = sizeof(st);
		tr.data.ptr.buffer = (uintptr_t)&st;
	}
	tr.flags |= flags;
	/* The reply and the read of its BR_TRANSACTION_COMPLETE in one call,
	 * with the freeing of the request's buffer before them. */
	if (queue_cmd(t, BC_REPLY, &tr, sizeof(tr)) < 0 || send_out(t) < 0)
		return;
	run(t, &w, RUN_WAIT);
}

static void handle_transaction(struct bc_thread *t, const struct binder_transaction_data *tr)
{
	bc_process *proc = t->proc;
	bool oneway = tr->flags & TF_ONE_WAY;
	bc_binder *target = NULL;
	bc_parcel *in = NULL;
	bc_txn *txn = NULL;
	int st, r;

	r = bc__parcel_from_kernel(proc, tr, &in);
	if (tr->target.ptr == 0) {
		target = proc->ctx_obj ? bc_binder_ref(proc->ctx_obj) : NULL;
	} else if (bc__local_from_cookie(proc, (uintptr_t)tr->target.ptr, (uintptr_t)tr->cookie, true, &target) <
		   0) {
		target = NULL;
	}
	if (r == 0)
		r = bc__txn_new(proc, tr->code,
				(oneway ? BINDERC_FLAG_ONEWAY : 0) | (tr->flags & TF_CLEAR_BUF ? BINDERC_FLAG_CLEAR_BUF : 0),
				tr->sender_pid, tr->sender_euid, &t->spare, &txn);
	if (r < 0)
		st = r;
	else if (!target)
		st = -EPIPE;
	else
		st = bc__local_dispatch(target, txn, tr->code, in, txn->reply);
	if (st == BINDERC_TXN_DEFERRED && !oneway) {
		/* Keep serving others while this thread waits for the reply. */
		if (proc->pool_started && !atomic_load(&proc->stopping))
			bc__spawn(proc, false);
		st = bc__txn_wait(txn);
	}
	bc__parcel_unref_queued(in, t);
	if (!oneway)
		send_reply(t, txn ? txn->reply : NULL, st == BINDERC_TXN_DEFERRED ? 0 : st, tr->flags & TF_CLEAR_BUF);
	bc__txn_done(txn, &t->spare);
	bc_binder_unref(target);
}

int bc__transact(bc_process *proc, uint32_t handle, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		 uint32_t flags, int *ret_origin)
{
	struct binder_transaction_data tr;
	bool oneway = flags & BINDERC_FLAG_ONEWAY;
	struct waiter w = { .kind = oneway ? W_ONEWAY : W_SYNC, .origin = BINDERC_ERROR_LOCAL };
	struct bc_thread *t;
	int r;

	if (!proc)
		return -ENODEV;
	t = bc__thread(proc);
	if (!t)
		return -ENOMEM;
	if (data) {
		r = bc__parcel_bind(data, proc);
		if (r < 0)
			return r;
	}
	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = TF_ACCEPT_FDS | (oneway ? TF_ONE_WAY : 0) | (flags & BINDERC_FLAG_CLEAR_BUF ? TF_CLEAR_BUF : 0);
	if (data) {
		tr.data_size = data->size;
		tr.offsets_size = data->n_offs * sizeof(uint64_t);
		tr.data.ptr.buffer = (uintptr_t)data->data;
		tr.data.ptr.offsets = (uintptr_t)data->offs;
	}
	/* A deferred buffer free goes first: the reply may need the space. */
	take_deferred(t);
	r = queue_cmd(t, BC_TRANSACTION, &tr, sizeof(tr));
	if (r == 0)
		r = send_out(t);
	if (r < 0)
		return r;
	run(t, &w, RUN_WAIT);
	if (w.status == BINDERC_QUEUED_FROZEN)
		return flags & BINDERC_FLAG_TELL_FROZEN ? BINDERC_QUEUED_FROZEN : 0;
	if (w.status == 0 && !oneway) {
		if (!w.reply)
			w.status = bc_process_new_parcel(proc, &w.reply);
		if (w.status == 0 && ret_reply)
			*ret_reply = w.reply;
		else
			bc_parcel_unref(w.reply);
	} else {
		bc_parcel_unref(w.reply);
	}
	if (w.status < 0)
		*ret_origin = w.origin;
	return w.status;
}

void bc__looper(bc_process *proc, bool registered)
{
	struct bc_thread *t = bc__thread(proc);

	if (!t)
		return;
	bc__cmd(proc, registered ? BC_REGISTER_LOOPER : BC_ENTER_LOOPER, NULL, 0);
	while (!atomic_load(&proc->stopping)) {
		int r = run(t, NULL, RUN_LOOPER);

		if (r < 0 && r != -EAGAIN) {
			bc__log("looper: %d", r);
			if (r == -EBADF || r == -EINVAL)
				break;
		}
	}
	bc__cmd(proc, BC_EXIT_LOOPER, NULL, 0);
}

int bc_process_handle_polled(bc_process *proc)
{
	struct bc_thread *t;

	if (!proc)
		return -EINVAL;
	t = bc__thread(proc);
	if (!t)
		return -ENOMEM;
	return run(t, NULL, RUN_POLLED);
}
