/* SPDX-License-Identifier: MIT */
/*
 * Death notifications of kernel proxies: one driver registration per
 * proxy (BC_REQUEST_DEATH_NOTIFICATION, cookie = the base's address)
 * however many recipients it has.  The registration holds a memory count
 * of the proxy until BR_CLEAR_DEATH_NOTIFICATION_DONE.
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

void bc__death_free_all(struct bc_proxy *x)
{
	while (x->deaths) {
		struct bc_death_reg *d = x->deaths;

		x->deaths = d->next;
		free(d);
	}
}

int bc__proxy_link_to_death(bc_binder *b, bc_death_fn fn, void *cookie)
{
	struct bc_proxy *x = bc__as_proxy(b);
	bc_process *proc = b->proc;
	struct bc_death_reg *d;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->fn = fn;
	d->cookie = cookie;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	if (atomic_load(&x->dead)) {
		pthread_mutex_unlock(&proc->obj_mu);
		free(d);
		return -EPIPE;
	}
	d->next = x->deaths;
	x->deaths = d;
	if (!x->death_requested) {
		x->death_requested = true;
		x->mem++;
		bc__proxy_notify_locked(x, BC_REQUEST_DEATH_NOTIFICATION);
	}
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	return 0;
}

int bc__proxy_unlink_to_death(bc_binder *b, bc_death_fn fn, void *cookie)
{
	struct bc_proxy *x = bc__as_proxy(b);
	bc_process *proc = b->proc;
	struct bc_death_reg *found = NULL;

	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	for (struct bc_death_reg **pp = &x->deaths; *pp; pp = &(*pp)->next) {
		if ((*pp)->fn == fn && (*pp)->cookie == cookie) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	if (found && !x->deaths)
		bc__death_clear_locked(x);
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	free(found);
	return found ? 0 : -ENOENT;
}

/* Its memory is safe: the death registration holds a memory count until
 * BR_CLEAR_DEATH_NOTIFICATION_DONE, which the driver sends only after
 * this notice's BC_DEAD_BINDER_DONE. */
void bc__proxy_dead(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);
	struct bc_death_reg *list;
	struct bc_frozen_reg *frozen;
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
	frozen = bc__frozen_take_locked(x);
	/* After the clear, as before the queue existed. */
	bc__oq_append_locked(proc, BC_DEAD_BINDER_DONE, &c, sizeof(c));
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	bc__frozen_free_list(frozen);
	while (list) {
		struct bc_death_reg *d = list;

		list = d->next;
		d->fn(d->cookie);
		free(d);
	}
}
