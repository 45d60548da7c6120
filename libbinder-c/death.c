/* SPDX-License-Identifier: MIT */
/*
 * Death notifications of kernel proxies: one driver registration per
 * proxy (BC_REQUEST_DEATH_NOTIFICATION, cookie = the base's address)
 * however many recipients it has, each a slot in the proxy's list.  The
 * registration holds a memory count of the proxy until
 * BR_CLEAR_DEATH_NOTIFICATION_DONE.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

bool bc__death_clear_locked(struct bc_proxy *x)
{
	if (!x->death_requested)
		return false;
	bc__proxy_notify_locked(x, BC_CLEAR_DEATH_NOTIFICATION);
	x->death_requested = false;
	return true;
}

static void death_detach(bc_slot *s)
{
	bc__proxy_slot_detach(s, &bc__as_proxy(s->owner)->deaths, bc__death_clear_locked);
}

static const struct bc_slot_ops death_slot_ops = {
	.detach = death_detach,
	.release = bc__binder_slot_release,
};

int bc__proxy_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret)
{
	struct bc_proxy *x = bc__as_proxy(b);
	bc_process *proc = b->proc;
	bc_slot *s;
	int r;

	r = bc__proxy_slot_new(b, &death_slot_ops, userdata, &s);
	if (r < 0)
		return r;
	s->fn.death = fn;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	if (atomic_load(&x->dead)) {
		pthread_mutex_unlock(&proc->obj_mu);
		bc_slot_unref(s);
		return -EPIPE;
	}
	bc__slot_push_locked(&x->deaths, s);
	if (!x->death_requested) {
		x->death_requested = true;
		x->mem++;
		bc__proxy_notify_locked(x, BC_REQUEST_DEATH_NOTIFICATION);
	}
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	*ret = s;
	return 0;
}

/* Its memory is safe: the death registration holds a memory count until
 * BR_CLEAR_DEATH_NOTIFICATION_DONE, which the driver sends only after
 * this notice's BC_DEAD_BINDER_DONE. */
void bc__proxy_dead(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);
	bc_slot *list, *frozen;
	uint64_t c = cookie;

	if (!x)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 3);
	atomic_store(&x->dead, true);
	list = x->deaths;
	x->deaths = NULL;
	bc__death_clear_locked(x);
	/* Its watches end silently: the death recipients say why. */
	bc__frozen_clear_locked(x);
	frozen = x->frozen_watches;
	x->frozen_watches = NULL;
	/* After the clear, as before the queue existed. */
	bc__oq_append_locked(proc, BC_DEAD_BINDER_DONE, &c, sizeof(c));
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	bc__slot_list_put(frozen);
	/* The list's holds keep each slot while its recipient runs. */
	while (list) {
		bc_slot *s = list;
		struct bc_slot_call call;

		list = s->next;
		if (bc__slot_enter(s, &call)) {
			s->fn.death(s->userdata);
			bc__slot_leave(&call);
		}
		bc__slot_put(s);
	}
}
