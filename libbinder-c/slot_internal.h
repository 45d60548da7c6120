/* SPDX-License-Identifier: MIT */
/*
 * Slots inside the library (slot.c): what every registration of a
 * callback shares.  The kind of registration (death.c, frozen.c, the
 * service manager's watches) keeps the slot in its own list and runs the
 * callback between bc__slot_enter() and bc__slot_leave(); the slot waits
 * for running calls when the caller drops it.  Included by internal.h;
 * self-contained for the files that do not need the rest of it.
 */
#ifndef BINDERC_SLOT_INTERNAL_H
#define BINDERC_SLOT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include <binderc/binderc.h>

struct bc_slot_ops {
	/* The caller dropped its last reference: take the registration out
	 * of its owner (bc__slot_put() for the owner's hold, if it had
	 * one).  Called once, with no lock held, before the wait for
	 * running calls. */
	void (*detach)(bc_slot *s);
	/* The memory goes: release what @s->owner holds (NULL: nothing). */
	void (*release)(bc_slot *s);
};

struct bc_slot {
	atomic_int refs; /* the caller's references */
	/* Holds on the memory: one for all the caller's references, one for
	 * the owner's list, one per call being made. */
	atomic_int mem;
	const struct bc_slot_ops *ops;
	union {
		bc_death_fn death;
		bc_frozen_fn frozen;
		bc_sm_notify_fn notify;
		bc_sm_clients_fn clients;
	} fn;
	void *userdata;
	void *owner;		/* the kind's: a binder (weak count) or its state */
	struct bc_slot *next;	/* in the owner's list, under the owner's lock */
	pthread_mutex_t mu;	/* cancelled, running */
	pthread_cond_t cv;	/* a call ended */
	bool cancelled;
	unsigned running;
};

/* One call of a slot's callback on this thread (on the caller's stack). */
struct bc_slot_call {
	bc_slot *s;
	struct bc_slot_call *up;
};

/* A slot with one caller reference and its memory hold. */
int bc__slot_new(const struct bc_slot_ops *ops, void *owner, void *userdata, bc_slot **ret);
/* Another hold on the memory (the owner's list, a call to be made). */
void bc__slot_hold(bc_slot *s);
/* Drop a hold; the last one frees.  Never under the owner's lock. */
void bc__slot_put(bc_slot *s);
/* Before calling the callback: false if the registration ended (do not
 * call it).  @c records the call for bc__slot_leave(). */
bool bc__slot_enter(bc_slot *s, struct bc_slot_call *c);
void bc__slot_leave(struct bc_slot_call *c);

#endif
