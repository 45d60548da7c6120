/* SPDX-License-Identifier: MIT */
/*
 * Frozen-state notifications of kernel proxies (Linux 6.12): one driver
 * watch per proxy however many watchers it has; the same cookie as the
 * death registration (the driver keeps the two kinds apart).  The watch
 * holds a memory count of the proxy until its clear is done.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

/* Appends at most one command. */
bool bc__frozen_clear_locked(struct bc_proxy *x)
{
	if (!x->frozen_requested)
		return false;
	bc__proxy_notify_locked(x, BC_CLEAR_FREEZE_NOTIFICATION);
	x->frozen_requested = false;
	x->frozen_known = false;
	return true;
}

static void frozen_detach(bc_slot *s)
{
	bc__proxy_slot_detach(s, &bc__as_proxy(s->owner)->frozen_watches, bc__frozen_clear_locked);
}

static const struct bc_slot_ops frozen_slot_ops = {
	.detach = frozen_detach,
	.release = bc__binder_slot_release,
};

/*
 * The first watch on a proxy queues the driver's request and waits until
 * it was written: a driver before Linux 6.12 refuses it (EINVAL, an
 * unknown command; the proxy holds a live reference, so nothing else),
 * and the caller is told -EOPNOTSUPP.  Watches added while the request is
 * on its way wait for it too and share its outcome.
 */
int bc__proxy_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *userdata, bc_slot **ret)
{
	struct bc_proxy *x = bc__as_proxy(b);
	bc_process *proc = b->proc;
	uint64_t seq = 0;
	bc_slot *s;
	int r;

	r = bc__proxy_slot_new(b, &frozen_slot_ops, userdata, &s);
	if (r < 0)
		return r;
	s->fn.frozen = fn;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	if (atomic_load(&x->dead)) {
		r = -EPIPE;
	} else {
		if (!x->frozen_requested) {
			/* One driver watch per proxy; the first state comes
			 * with it. */
			x->frozen_requested = true;
			x->mem++;
			x->freeze_req_seq = bc__proxy_notify_locked(x, BC_REQUEST_FREEZE_NOTIFICATION);
		}
		seq = x->freeze_req_seq;
		bc__slot_push_locked(&x->frozen_watches, s);
	}
	pthread_mutex_unlock(&proc->obj_mu);
	if (r == 0) {
		bc__oq_flush(proc, seq);
		pthread_mutex_lock(&proc->obj_mu);
		if (x->freeze_fail_seq == seq)
			r = -EOPNOTSUPP; /* its watches are gone with it */
		pthread_mutex_unlock(&proc->obj_mu);
	}
	if (r < 0) {
		bc_slot_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}

void bc__proxy_freeze_refused(bc_process *proc, uintptr_t cookie, uint64_t seq, int err)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);
	bc_slot *watches = NULL;

	if (!x)
		return;
	bc__log("freeze notification refused: %d", err);
	pthread_mutex_lock(&proc->obj_mu);
	x->freeze_fail_seq = seq;
	/* Unless a clear already ended it (that clear fails too). */
	if (x->frozen_requested && x->freeze_req_seq == seq) {
		x->frozen_requested = false;
		x->frozen_known = false;
		watches = x->frozen_watches;
		x->frozen_watches = NULL;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	bc__slot_list_put(watches);
	/* the request's memory count: no clear will ever be done */
	bc__proxy_mem_dec(proc, x);
}

int bc__proxy_get_frozen(const bc_binder *b, bool *ret)
{
	struct bc_proxy *x;
	bc_process *proc;
	int r = -ENODATA;

	x = bc__as_proxy(b);
	proc = b->proc;
	pthread_mutex_lock(&proc->obj_mu);
	if (x->frozen_known) {
		*ret = x->is_frozen;
		r = 0;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	return r;
}

/* Hold up to @n watches of @x into @out (obj_mu held); returns how many. */
static size_t hold_watches_locked(const struct bc_proxy *x, bc_slot **out, size_t n)
{
	size_t i = 0;

	for (bc_slot *s = x->frozen_watches; s && i < n; s = s->next) {
		bc__slot_hold(s);
		out[i++] = s;
	}
	return i;
}

/*
 * BR_FROZEN_BINDER for the proxy named by @cookie.  Its memory is safe: the
 * driver's watch holds a count on it until BR_CLEAR_FREEZE_NOTIFICATION_DONE,
 * which never comes before this notice's BC_FREEZE_NOTIFICATION_DONE.  The
 * watchers run without the lock, each slot held (the array allocated
 * unlocked: counted first, then filled with at most that many); the ack
 * goes after them, so changes meanwhile are merged by the driver rather
 * than queued.
 */
void bc__proxy_frozen(bc_process *proc, uintptr_t cookie, bool is_frozen)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);
	bc_slot **held = NULL;
	uint64_t c = cookie;
	size_t n = 0;

	if (!x)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	for (const bc_slot *s = x->frozen_watches; s; s = s->next)
		n++;
	pthread_mutex_unlock(&proc->obj_mu);
	if (n)
		held = calloc(n, sizeof(*held));
	pthread_mutex_lock(&proc->obj_mu);
	if (x->frozen_requested) {
		x->frozen_known = true;
		x->is_frozen = is_frozen;
		n = held ? hold_watches_locked(x, held, n) : 0;
	} else {
		n = 0;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	for (size_t i = 0; i < n; i++) {
		struct bc_slot_call call;

		if (bc__slot_enter(held[i], &call)) {
			held[i]->fn.frozen(is_frozen, held[i]->userdata);
			bc__slot_leave(&call);
		}
		bc__slot_put(held[i]);
	}
	free(held);
	bc__ref_cmd(proc, BC_FREEZE_NOTIFICATION_DONE, &c, sizeof(c), true);
}
