/* SPDX-License-Identifier: MIT */
/*
 * Death notifications of RPC proxies: a session that ends, for whatever
 * reason, sends an obituary to every recipient linked to any of its
 * proxies, once (RpcState::sendObituaries).
 *
 * Who notices the end: a server session is always read by its serving
 * thread, which sees the client go.  A client session's connection is
 * read only while a call waits, so a client that links a death recipient
 * gets a watcher thread that polls the socket for the peer's hang-up
 * (POLLRDHUP, never POLLIN: the replies are the callers') -- the role
 * Android gives a client's incoming connection.  Any end of the session
 * shuts its socket down, which the watcher sees too, so the watcher is
 * also how a session failed from any thread sends its obituaries.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#include "rpc_internal.h"

void bc__rpc_send_obituaries(bc_rpc_session *s)
{
	bc_slot *list = NULL, **tail = &list;

	if (!atomic_load(&s->dead) || atomic_exchange(&s->obituaries_sent, true))
		return;
	pthread_mutex_lock(&s->mu);
	for (size_t i = 0; i < s->n_nodes; i++) {
		struct bc_rpc_proxy *x = s->nodes[i].proxy;

		if (!x || !x->deaths)
			continue;
		/* the lists are spliced: each slot is in one list only */
		*tail = x->deaths;
		x->deaths = NULL;
		while (*tail)
			tail = &(*tail)->next;
	}
	pthread_mutex_unlock(&s->mu);
	/* The list's holds keep each slot (and its proxy, by the slot's weak
	 * count) while its recipient runs; @s may go with the last of them. */
	while (list) {
		bc_slot *slot = list;
		struct bc_slot_call call;

		list = slot->next;
		if (bc__slot_enter(slot, &call)) {
			slot->fn.death(slot->userdata);
			bc__slot_leave(&call);
		}
		bc__slot_put(slot);
	}
}

/* A reference unless the session is already being freed. */
static bool session_ref_not_zero(bc_rpc_session *s)
{
	int n = atomic_load(&s->refs);

	while (n > 0)
		if (atomic_compare_exchange_weak(&s->refs, &n, n + 1))
			return true;
	return false;
}

static void *watcher_main(void *arg)
{
	bc_rpc_session *s = arg;

	for (;;) {
		/* a client's first connection, there since its set-up */
		struct pollfd p = { .fd = s->conns[0]->fd, .events = POLLRDHUP };
		int n = poll(&p, 1, -1);

		if (n < 0 && errno == EINTR)
			continue;
		/* a poll error is no better than a hang-up: end the session */
		if (n < 0 || (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
			break;
	}
	/* The session being freed shut the socket down to wake us, and waits
	 * for us: nothing to do then. */
	if (!session_ref_not_zero(s))
		return NULL;
	/* Only between calls: a caller's reply may still be in the socket
	 * ahead of the end, and is the caller's to read. */
	pthread_mutex_lock(&s->conns[0]->mu);
	bc__rpc_fail(s, -EPIPE);
	pthread_mutex_unlock(&s->conns[0]->mu);
	bc__rpc_ended(s);
	/* may free the session, from this thread (see bc__rpc_watcher_stop) */
	bc__rpc_session_put(s);
	return NULL;
}

void bc__rpc_watcher_stop(bc_rpc_session *s)
{
	if (!s->watcher_started)
		return;
	/* wakes the watcher (its poll sees the hang-up) */
	bc__rpc_fail(s, -ESHUTDOWN);
	if (pthread_equal(pthread_self(), s->watcher))
		pthread_detach(s->watcher); /* it returns without touching @s */
	else
		pthread_join(s->watcher, NULL);
}

static void rpc_death_detach(bc_slot *slot)
{
	struct bc_rpc_proxy *x = BINDERC_CONTAINER_OF((bc_binder *)slot->owner, struct bc_rpc_proxy, base);
	bool found;

	pthread_mutex_lock(&x->s->mu);
	found = bc__slot_list_remove(&x->deaths, slot);
	pthread_mutex_unlock(&x->s->mu);
	/* not found: the obituaries took it and put its hold */
	if (found)
		bc__slot_put(slot);
}

static const struct bc_slot_ops rpc_death_slot_ops = {
	.detach = rpc_death_detach,
	.release = bc__binder_slot_release,
};

/* A client session's watcher, started once (the proxy's session
 * reference keeps the session while this runs). */
static int start_watcher(bc_rpc_session *s)
{
	bool no = false;
	int r;

	/* a polled incoming connection is the program's watch: its hang-up
	 * ends the session in bc_rpc_session_handle_polled() */
	if (s->is_server || atomic_load(&s->has_polled) ||
	    !atomic_compare_exchange_strong(&s->watcher_starting, &no, true))
		return 0;
	r = -pthread_create(&s->watcher, NULL, watcher_main, s);
	if (r < 0) {
		atomic_store(&s->watcher_starting, false);
		return r;
	}
	s->watcher_started = true;
	return 0;
}

int bc__rpc_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret)
{
	struct bc_rpc_proxy *x = BINDERC_CONTAINER_OF(b, struct bc_rpc_proxy, base);
	bc_rpc_session *s = x->s;
	bc_slot *slot;
	int r = start_watcher(s);

	if (r < 0)
		return r;
	r = bc__slot_new(&rpc_death_slot_ops, b, userdata, &slot);
	if (r < 0)
		return r;
	bc__binder_weak_inc(b); /* for the slot's detach (its release drops it) */
	slot->fn.death = fn;
	pthread_mutex_lock(&s->mu);
	/* the session's end is marked before its obituaries are collected
	 * under mu: a recipient is either refused here or collected there */
	if (atomic_load(&s->dead)) {
		pthread_mutex_unlock(&s->mu);
		bc_slot_unref(slot);
		return -EPIPE;
	}
	bc__slot_push_locked(&x->deaths, slot);
	pthread_mutex_unlock(&s->mu);
	*ret = slot;
	return 0;
}
