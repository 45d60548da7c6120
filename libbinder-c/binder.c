/* SPDX-License-Identifier: MIT */
/*
 * The binder base: reference counts every kind shares, and the public
 * calls that every kind answers through its operations (binder_internal.h
 * says which file holds which kind).
 *
 * Counts are atomics: a strong count above zero holds one weak count, and
 * the kind hears when a count leaves or reaches zero (a proxy mirrors that
 * into the kernel, a local object runs its on_destroy and is freed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* ---- counting --------------------------------------------------------- */

bool bc__inc_not_zero(atomic_uint *c)
{
	unsigned v = atomic_load(c);

	while (v != 0)
		if (atomic_compare_exchange_weak(c, &v, v + 1))
			return true;
	return false;
}

/* The kind's hook for a new first count goes out here, before the caller
 * returns, so the matching decrement always comes after it. */
void bc__binder_weak_inc(bc_binder *b)
{
	if (atomic_fetch_add(&b->weak, 1) == 0 && b->ops->weak_first)
		b->ops->weak_first(b);
}

void bc__binder_strong_add(bc_binder *b)
{
	if (atomic_fetch_add(&b->strong, 1) == 0) {
		bc__binder_weak_inc(b);
		if (b->ops->strong_first)
			b->ops->strong_first(b);
	}
}

void bc__binder_weak_dec(bc_binder *b)
{
	if (atomic_fetch_sub(&b->weak, 1) == 1)
		b->ops->weak_last(b);
}

void bc__binder_strong_dec(bc_binder *b)
{
	if (atomic_fetch_sub(&b->strong, 1) != 1)
		return;
	if (b->ops->strong_last)
		b->ops->strong_last(b);
	bc__binder_weak_dec(b);
}

bool bc__binder_strong_inc(bc_binder *b)
{
	return b->ops->revive(b);
}

bc_binder *bc_binder_ref(bc_binder *b)
{
	if (b)
		bc__binder_strong_add(b);
	return b;
}

bc_binder *bc_binder_unref(bc_binder *b)
{
	if (b)
		bc__binder_strong_dec(b);
	return NULL;
}

/* ---- what every kind answers ------------------------------------------ */

bool bc_binder_is_remote(const bc_binder *b)
{
	/* whatever is not served here */
	return b && !bc__as_local(b);
}

bc_process *bc_binder_get_process(const bc_binder *b)
{
	return b ? b->proc : NULL;
}

bool bc_binder_is_alive(const bc_binder *b)
{
	return b && b->ops->is_alive(b);
}

int bc__binder_flatten(bc_binder *b, bool weak, struct flat_binder_object *obj)
{
	memset(obj, 0, sizeof(*obj));
	return b->ops->flatten(b, weak, obj);
}

int bc__parcel_bind(bc_parcel *p, bc_process *proc)
{
	for (size_t i = 0; i < p->n_binders; i++) {
		bc_binder *b = p->binders[i];
		int r = b->ops->bind(b, proc);

		if (r < 0)
			return r;
	}
	return 0;
}

void bc__process_release_objects(bc_process *proc)
{
	bc__local_release_all(proc);
	/* What is left are proxies waiting for BR_CLEAR_DEATH_NOTIFICATION_DONE
	 * or BR_CLEAR_FREEZE_NOTIFICATION_DONE (nothing else runs now). */
	bc__proxy_free_all(proc);
}

int bc_binder_new_parcel(bc_binder *b, bc_parcel **ret)
{
	int r = bc_parcel_new(ret);

	if (r == 0 && b && b->proc)
		bc_parcel_set_wire(*ret, b->proc->wire, b->proc->partition);
	if (r == 0 && b && b->ops->prepare_parcel)
		b->ops->prepare_parcel(b, *ret);
	return r;
}

int bc_binder_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags,
		       bc_error *ret_error)
{
	int origin = BINDERC_ERROR_LOCAL;
	int r = -EINVAL;

	if (b && !(flags & ~(BINDERC_FLAG_ONEWAY | BINDERC_FLAG_TELL_FROZEN | BINDERC_FLAG_CLEAR_BUF))) {
		if (ret_reply)
			*ret_reply = NULL;
		/* Android's proxies mark the request when they make it; this
		 * covers callers that did not (its earlier copies, if it grew
		 * unmarked, are theirs). */
		if (flags & BINDERC_FLAG_CLEAR_BUF)
			bc_parcel_mark_sensitive(data);
		r = bc__binder_check_call(b, code);
		if (r == 0)
			r = b->ops->transact(b, code, data, ret_reply, flags, &origin);
		if (r >= 0 && ret_reply && (flags & BINDERC_FLAG_CLEAR_BUF))
			bc_parcel_mark_sensitive(*ret_reply);
	}
	if (ret_error) {
		ret_error->origin = r < 0 ? origin : BINDERC_ERROR_NONE;
		ret_error->error = r < 0 ? r : 0;
	}
	return r;
}

int bc_binder_ping(bc_binder *b)
{
	bc_parcel *reply = NULL;
	int r = bc_binder_transact(b, BINDERC_PING_TRANSACTION, NULL, &reply, 0, NULL);

	bc_parcel_unref(reply);
	return r;
}

int bc_binder_get_interface(bc_binder *b, char **ret)
{
	bc_parcel *reply = NULL;
	char *d = NULL;
	int r;

	if (!ret)
		return -EINVAL;
	r = bc_binder_transact(b, BINDERC_INTERFACE_TRANSACTION, NULL, &reply, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_string16(reply, &d, NULL);
	if (r == 0 && !d)
		r = -EBADMSG;
	bc_parcel_unref(reply);
	if (r == 0)
		*ret = d;
	return r;
}

/* ---- notifications: kinds without them say -ENOSYS ---------------------- */

int bc_binder_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret)
{
	if (!b || !fn || !ret)
		return -EINVAL;
	return b->ops->link_to_death ? b->ops->link_to_death(b, fn, userdata, ret) : -ENOSYS;
}

int bc_binder_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *userdata, bc_slot **ret)
{
	if (!b || !fn || !ret)
		return -EINVAL;
	return b->ops->watch_frozen ? b->ops->watch_frozen(b, fn, userdata, ret) : -ENOSYS;
}

int bc_binder_get_frozen(const bc_binder *b, bool *ret)
{
	if (!b || !ret)
		return -EINVAL;
	return b->ops->get_frozen ? b->ops->get_frozen(b, ret) : -ENOSYS;
}

/* ---- slots of a binder -------------------------------------------------- */

bool bc__slot_list_remove(bc_slot **head, bc_slot *s)
{
	for (bc_slot **pp = head; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			return true;
		}
	}
	return false;
}

void bc__slot_push_locked(bc_slot **head, bc_slot *s)
{
	bc__slot_hold(s);
	s->next = *head;
	*head = s;
}

void bc__slot_list_put(bc_slot *list)
{
	while (list) {
		bc_slot *s = list;

		list = s->next;
		bc__slot_put(s);
	}
}

/* The weak count keeps the binder's memory (and a proxy's handle) for
 * the slot's detach, whenever the caller drops it. */
void bc__binder_slot_release(bc_slot *s)
{
	bc__binder_weak_dec(s->owner);
}
