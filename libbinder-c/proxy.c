/* SPDX-License-Identifier: MIT */
/*
 * Kernel proxies: one per handle per process, in the process's handle
 * table (under obj_mu).  The proxy's strong and weak counts are mirrored
 * into the driver (BC_ACQUIRE/BC_RELEASE, BC_INCREFS/BC_DECREFS); its
 * memory outlives the last weak count while death or freeze
 * notifications are outstanding (@mem counts them and the table's hold).
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

static struct bc_proxy *proxy(const bc_binder *b)
{
	return BINDERC_CONTAINER_OF((bc_binder *)b, struct bc_proxy, base);
}

static void kcmd_handle(struct bc_proxy *x, uint32_t cmd, bool may_defer)
{
	uint32_t h = x->handle;

	bc__ref_cmd(x->base.proc, cmd, &h, sizeof(h), may_defer);
}

uint64_t bc__proxy_notify_locked(struct bc_proxy *x, uint32_t cmd)
{
	struct binder_handle_cookie hc = { .handle = x->handle, .cookie = (uintptr_t)&x->base };

	return bc__oq_append_locked(x->base.proc, cmd, &hc, sizeof(hc));
}

struct bc_proxy *bc__proxy_of_cookie(uintptr_t cookie)
{
	return cookie ? proxy((bc_binder *)cookie) : NULL;
}

static void unlink_proxy_locked(struct bc_proxy *x)
{
	for (struct bc_proxy **pp = &x->base.proc->proxies; *pp; pp = &(*pp)->proxy_next) {
		if (*pp == x) {
			*pp = x->proxy_next;
			return;
		}
	}
}

static void proxy_free(struct bc_proxy *x)
{
	/* empty: every slot holds a weak count (proxies of a process being
	 * destroyed have none left) */
	bc__slot_list_put(x->deaths);
	bc__slot_list_put(x->frozen_watches);
	free(x);
}

static void proxy_weak_first(bc_binder *b)
{
	kcmd_handle(proxy(b), BC_INCREFS, false);
}

static void proxy_strong_first(bc_binder *b)
{
	kcmd_handle(proxy(b), BC_ACQUIRE, false);
}

static void proxy_strong_last(bc_binder *b)
{
	/* with the thread's next write: a late release is harmless */
	kcmd_handle(proxy(b), BC_RELEASE, true);
}

/* The last weak count of a proxy is gone: leave the handle table (a
 * lookup racing with us found the count zero and made a new proxy) and
 * the kernel. */
static void proxy_weak_last(bc_binder *b)
{
	struct bc_proxy *x = proxy(b);
	bc_process *proc = b->proc;
	bool ordered, free_it;

	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 3);
	x->in_table = false;
	ordered = bc__death_clear_locked(x);
	ordered |= bc__frozen_clear_locked(x);
	/* After any clear, ours or one still queued (it needs the handle to
	 * exist): in their queue then. */
	ordered |= proc->oq_done != proc->oq_seq;
	if (ordered) {
		uint32_t h = x->handle;

		bc__oq_append_locked(proc, BC_DECREFS, &h, sizeof(h));
	}
	free_it = --x->mem == 0;
	if (free_it)
		unlink_proxy_locked(x);
	pthread_mutex_unlock(&proc->obj_mu);
	if (ordered)
		bc__oq_flush(proc, 0);
	else
		kcmd_handle(x, BC_DECREFS, true);
	if (free_it)
		proxy_free(x);
	/* the proxy's own reference on its process, last */
	bc_process_unref(proc);
}

/* A proxy may take a strong count again while it is in the handle table,
 * i.e. while its weak count holds. */
static bool proxy_revive(bc_binder *b)
{
	if (!bc__inc_not_zero(&b->weak))
		return false;
	bc__binder_strong_add(b);
	bc__binder_weak_dec(b);
	return true;
}

static bool proxy_is_alive(const bc_binder *b)
{
	return !atomic_load(&proxy(b)->dead);
}

static int proxy_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags,
			  int *ret_origin)
{
	return bc__transact(b->proc, proxy(b)->handle, code, data, ret_reply, flags, ret_origin);
}

static int proxy_flatten(bc_binder *b, bool weak, struct flat_binder_object *obj)
{
	obj->hdr.type = weak ? BINDER_TYPE_WEAK_HANDLE : BINDER_TYPE_HANDLE;
	obj->handle = proxy(b)->handle;
	return 0;
}

/* A handle means something only in its own process's driver. */
static int proxy_bind(bc_binder *b, bc_process *proc)
{
	return b->proc == proc ? 0 : -EXDEV;
}

/* A proxy that came with no level (the context object, handle 0, or one
 * read in a dialect without stability words) goes out with the local
 * level, as Android's flattening marks an unmarked binder. */
static int proxy_default_stability(const bc_binder *b, int partition)
{
	(void)b;
	return partition == BINDERC_PARTITION_VENDOR ? BINDERC_STABILITY_VENDOR : BINDERC_STABILITY_SYSTEM;
}

static void proxy_received_stability(bc_binder *b, int level)
{
	b->stability = level;
}

const struct bc_binder_ops bc__proxy_ops = {
	.weak_first = proxy_weak_first,
	.strong_first = proxy_strong_first,
	.strong_last = proxy_strong_last,
	.weak_last = proxy_weak_last,
	.revive = proxy_revive,
	.is_alive = proxy_is_alive,
	.transact = proxy_transact,
	.flatten = proxy_flatten,
	.bind = proxy_bind,
	.default_stability = proxy_default_stability,
	.received_stability = proxy_received_stability,
	.link_to_death = bc__proxy_link_to_death,
	.watch_frozen = bc__proxy_watch_frozen,
	.get_frozen = bc__proxy_get_frozen,
};

int bc_binder_get_handle(const bc_binder *b, uint32_t *ret)
{
	struct bc_proxy *x = bc__as_proxy(b);

	if (!x || !ret)
		return -EINVAL;
	*ret = x->handle;
	return 0;
}

/* A weak count on the proxy of @handle in @proc's table (obj_mu held),
 * or NULL.  A proxy whose count is zero is being destroyed by the thread
 * that dropped it (it leaves the table as soon as that thread gets the
 * lock): it is passed over, and the caller makes a new one. */
static struct bc_proxy *lookup_locked(bc_process *proc, uint32_t handle)
{
	for (struct bc_proxy *x = proc->proxies; x; x = x->proxy_next)
		if (x->in_table && x->handle == handle && bc__inc_not_zero(&x->base.weak))
			return x;
	return NULL;
}

int bc__proxy_get(bc_process *proc, uint32_t handle, bool strong, bc_binder **ret)
{
	struct bc_proxy *x, *fresh = NULL;

	if (!proc)
		return -ENODEV;
	pthread_mutex_lock(&proc->obj_mu);
	x = lookup_locked(proc, handle);
	pthread_mutex_unlock(&proc->obj_mu);
	if (!x) {
		/* Allocated unlocked; another thread may insert one meanwhile. */
		fresh = calloc(1, sizeof(*fresh));
		if (!fresh)
			return -ENOMEM;
		fresh->base.ops = &bc__proxy_ops;
		atomic_init(&fresh->base.strong, 0);
		atomic_init(&fresh->base.weak, 1);
		atomic_init(&fresh->base.proc, proc);
		atomic_init(&fresh->dead, false);
		fresh->handle = handle;
		fresh->in_table = true;
		fresh->mem = 1;
		pthread_mutex_lock(&proc->obj_mu);
		x = lookup_locked(proc, handle);
		if (!x) {
			bc_process_ref(proc); /* the proxy's */
			fresh->proxy_next = proc->proxies;
			proc->proxies = fresh;
		}
		pthread_mutex_unlock(&proc->obj_mu);
		if (!x) {
			/* Ours: its weak count is new to the kernel. */
			x = fresh;
			fresh = NULL;
			kcmd_handle(x, BC_INCREFS, false);
		}
		free(fresh);
	}
	/* We hold a weak count now: it keeps the proxy while a strong one is
	 * taken (the strong era holds its own). */
	if (strong) {
		bc__binder_strong_add(&x->base);
		bc__binder_weak_dec(&x->base);
	}
	*ret = &x->base;
	return 0;
}

void bc__proxy_mem_dec(bc_process *proc, struct bc_proxy *x)
{
	bool free_it = false;

	pthread_mutex_lock(&proc->obj_mu);
	if (--x->mem == 0) {
		unlink_proxy_locked(x);
		free_it = true;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	if (free_it)
		proxy_free(x);
}

void bc__proxy_clear_done(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = bc__proxy_of_cookie(cookie);

	if (x)
		bc__proxy_mem_dec(proc, x);
}

/* ---- slots of a proxy (death.c, frozen.c) ------------------------------ */

int bc__proxy_slot_new(bc_binder *b, const struct bc_slot_ops *ops, void *userdata, bc_slot **ret)
{
	int r = bc__slot_new(ops, b, userdata, ret);

	if (r == 0)
		bc__binder_weak_inc(b); /* the caller holds a count: no command */
	return r;
}

void bc__proxy_slot_detach(bc_slot *s, bc_slot **head, bool (*clear_locked)(struct bc_proxy *x))
{
	bc_binder *b = s->owner;
	bc_process *proc = b->proc;
	bool found;

	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	found = bc__slot_list_remove(head, s);
	if (found && !*head)
		clear_locked(bc__as_proxy(b));
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	if (found)
		bc__slot_put(s);
}

void bc__proxy_free_all(bc_process *proc)
{
	struct bc_proxy *left;

	pthread_mutex_lock(&proc->obj_mu);
	left = proc->proxies;
	proc->proxies = NULL;
	pthread_mutex_unlock(&proc->obj_mu);
	while (left) {
		struct bc_proxy *x = left;

		left = x->proxy_next;
		proxy_free(x);
	}
}
