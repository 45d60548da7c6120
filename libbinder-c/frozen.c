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
	bc__proxy_notify_locked(x, BC__BC_CLEAR_FREEZE_NOTIFICATION);
	x->frozen_requested = false;
	x->frozen_known = false;
	return true;
}

struct bc_frozen_reg *bc__frozen_take_locked(struct bc_proxy *x)
{
	struct bc_frozen_reg *f = x->frozen_watches;

	x->frozen_watches = NULL;
	return f;
}

void bc__frozen_free_list(struct bc_frozen_reg *f)
{
	while (f) {
		struct bc_frozen_reg *next = f->next;

		free(f);
		f = next;
	}
}

/*
 * The first watch on a proxy queues the driver's request and waits until
 * it was written: a driver before Linux 6.12 refuses it (EINVAL, an
 * unknown command; the proxy holds a live reference, so nothing else),
 * and the caller is told -EOPNOTSUPP.  Watches added while the request is
 * on its way wait for it too and share its outcome.
 */
int bc__proxy_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *cookie)
{
	struct bc_frozen_reg *f;
	struct bc_proxy *x;
	bc_process *proc;
	uint64_t seq = 0;
	int r = 0;

	x = bc__as_proxy(b);
	proc = b->proc;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->fn = fn;
	f->cookie = cookie;
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
			x->freeze_req_seq = bc__proxy_notify_locked(x, BC__BC_REQUEST_FREEZE_NOTIFICATION);
		}
		seq = x->freeze_req_seq;
		f->next = x->frozen_watches;
		x->frozen_watches = f;
		f = NULL;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	free(f);
	if (r < 0)
		return r;
	bc__oq_flush(proc, seq);
	pthread_mutex_lock(&proc->obj_mu);
	if (x->freeze_fail_seq == seq)
		r = -EOPNOTSUPP; /* its watches are gone with it */
	pthread_mutex_unlock(&proc->obj_mu);
	return r;
}

void bc__proxy_freeze_refused(bc_process *proc, uintptr_t cookie, uint64_t seq, int err)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);
	struct bc_frozen_reg *watches = NULL;

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
	while (watches) {
		struct bc_frozen_reg *f = watches;

		watches = f->next;
		free(f);
	}
	/* the request's memory count: no clear will ever be done */
	bc__proxy_mem_dec(proc, x);
}

int bc__proxy_unwatch_frozen(bc_binder *b, bc_frozen_fn fn, void *cookie)
{
	struct bc_frozen_reg *found = NULL;
	struct bc_proxy *x;
	bc_process *proc;

	x = bc__as_proxy(b);
	proc = b->proc;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	for (struct bc_frozen_reg **pp = &x->frozen_watches; *pp; pp = &(*pp)->next) {
		if ((*pp)->fn == fn && (*pp)->cookie == cookie) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	if (found && !x->frozen_watches)
		bc__frozen_clear_locked(x);
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	free(found);
	return found ? 0 : -ENOENT;
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

/* Copy up to @n watches of @x into @out (obj_mu held); returns how many. */
static size_t copy_watches_locked(const struct bc_proxy *x, struct bc_frozen_reg *out, size_t n)
{
	size_t i = 0;

	for (const struct bc_frozen_reg *f = x->frozen_watches; f && i < n; f = f->next)
		out[i++] = *f;
	return i;
}

/*
 * BR_FROZEN_BINDER for the proxy named by @cookie.  Its memory is safe: the
 * driver's watch holds a count on it until BR_CLEAR_FREEZE_NOTIFICATION_DONE,
 * which never comes before this notice's BC_FREEZE_NOTIFICATION_DONE.  The
 * watchers run without the lock, from a copy (allocated unlocked: counted
 * first, then filled with at most that many); the ack goes after them, so
 * changes meanwhile are merged by the driver rather than queued.
 */
void bc__proxy_frozen(bc_process *proc, uintptr_t cookie, bool is_frozen)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);
	struct bc_frozen_reg *copy = NULL;
	uint64_t c = cookie;
	size_t n = 0;

	if (!x)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	for (const struct bc_frozen_reg *f = x->frozen_watches; f; f = f->next)
		n++;
	pthread_mutex_unlock(&proc->obj_mu);
	if (n)
		copy = calloc(n, sizeof(*copy));
	pthread_mutex_lock(&proc->obj_mu);
	if (x->frozen_requested) {
		x->frozen_known = true;
		x->is_frozen = is_frozen;
		n = copy ? copy_watches_locked(x, copy, n) : 0;
	} else {
		n = 0;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	for (size_t i = 0; i < n; i++)
		copy[i].fn(is_frozen, copy[i].cookie);
	free(copy);
	bc__ref_cmd(proc, BC__BC_FREEZE_NOTIFICATION_DONE, &c, sizeof(c), true);
}

