/* SPDX-License-Identifier: MIT */
/*
 * Slots: one registration of a callback (binderc/slot.h).  The caller's
 * references and the library's holds are counted apart: the caller's last
 * drop ends the registration, the last hold frees the memory, so a
 * callback that drops its own slot keeps running on valid memory.  Each
 * thread keeps the calls it is making on a stack (thread-local), which is
 * how a drop from inside a callback knows not to wait for itself.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static _Thread_local struct bc_slot_call *calls;

int bc__slot_new(const struct bc_slot_ops *ops, void *owner, void *userdata, bc_slot **ret)
{
	bc_slot *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	atomic_init(&s->refs, 1);
	atomic_init(&s->mem, 1);
	s->ops = ops;
	s->owner = owner;
	s->userdata = userdata;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	*ret = s;
	return 0;
}

void bc__slot_hold(bc_slot *s)
{
	atomic_fetch_add(&s->mem, 1);
}

void bc__slot_put(bc_slot *s)
{
	if (atomic_fetch_sub(&s->mem, 1) != 1)
		return;
	if (s->ops->release)
		s->ops->release(s);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

bool bc__slot_enter(bc_slot *s, struct bc_slot_call *c)
{
	bool ok;

	pthread_mutex_lock(&s->mu);
	ok = !s->cancelled;
	if (ok)
		s->running++;
	pthread_mutex_unlock(&s->mu);
	if (ok) {
		c->s = s;
		c->up = calls;
		calls = c;
	}
	return ok;
}

void bc__slot_leave(struct bc_slot_call *c)
{
	bc_slot *s = c->s;

	calls = c->up;
	pthread_mutex_lock(&s->mu);
	s->running--;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

/* The caller's last reference: no call starts from now on, the owner lets
 * go, and calls running on other threads are waited for (those of this
 * thread are the caller's own: it is inside them). */
static void slot_end(bc_slot *s)
{
	unsigned mine = 0;

	for (const struct bc_slot_call *c = calls; c; c = c->up)
		mine += c->s == s;
	pthread_mutex_lock(&s->mu);
	s->cancelled = true;
	pthread_mutex_unlock(&s->mu);
	if (s->ops->detach)
		s->ops->detach(s);
	pthread_mutex_lock(&s->mu);
	while (s->running > mine)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
	bc__slot_put(s);
}

BINDERC_DEFINE_REF(bc_slot, bc_slot);
BINDERC_DEFINE_UNREF(bc_slot, bc_slot, slot_end);

void *bc_slot_get_userdata(const bc_slot *s)
{
	return s ? s->userdata : NULL;
}
