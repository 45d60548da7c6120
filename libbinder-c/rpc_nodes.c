/* SPDX-License-Identifier: MIT */
/*
 * The object table of an RPC session: every address both sides know
 * (RpcState's BinderNodes), ours held while the peer holds them and the
 * peer's as proxies, with the addresses allocated as ours go out
 * (RpcState::onBinderLeaving) and looked up as the peer's come in
 * (onBinderEntering).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpc_session_internal.h"

struct rpc_node *bc__rpc_node_of_addr_locked(bc_rpc_session *s, uint64_t addr)
{
	for (size_t i = 0; i < s->n_nodes; i++)
		if (s->nodes[i].addr == addr)
			return &s->nodes[i];
	return NULL;
}

static struct rpc_node *node_of_local_locked(bc_rpc_session *s, bc_binder *b)
{
	for (size_t i = 0; i < s->n_nodes; i++)
		if (s->nodes[i].local == b)
			return &s->nodes[i];
	return NULL;
}

/* A node with neither an object held nor a proxy is forgotten
 * (RpcState::tryEraseNode). */
void bc__rpc_node_gc_locked(bc_rpc_session *s, struct rpc_node *n)
{
	if (n->local || n->proxy)
		return;
	*n = s->nodes[--s->n_nodes];
}

static struct rpc_node *node_add_locked(bc_rpc_session *s, uint64_t addr)
{
	struct rpc_node *n;

	if (s->n_nodes == s->cap_nodes)
		return NULL;
	n = &s->nodes[s->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->addr = addr;
	return n;
}

/* Room for one more node, made unlocked (no allocation under mu). */
static int reserve_node(bc_rpc_session *s)
{
	size_t cap;
	void *nb;

	pthread_mutex_lock(&s->mu);
	cap = s->n_nodes < s->cap_nodes ? 0 : (s->cap_nodes ? s->cap_nodes * 2 : 4);
	pthread_mutex_unlock(&s->mu);
	if (!cap)
		return 0;
	nb = malloc(cap * sizeof(*s->nodes));
	if (!nb)
		return -ENOMEM;
	pthread_mutex_lock(&s->mu);
	if (cap > s->cap_nodes) {
		if (s->n_nodes)
			memcpy(nb, s->nodes, s->n_nodes * sizeof(*s->nodes));
		free(s->nodes); /* a free of our own buffer: cheap and bounded */
		s->nodes = nb;
		s->cap_nodes = cap;
		nb = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	free(nb);
	return 0;
}

/* The address of our object @b, allocated the first time it goes out
 * (RpcState::onBinderLeaving); one more reference sent. */
int bc__rpc_binder_leaving(bc_rpc_session *s, bc_binder *b, uint64_t *ret)
{
	struct rpc_node *n;
	bool first = false;
	int r;

retry:
	r = reserve_node(s);
	if (r < 0)
		return r;
	pthread_mutex_lock(&s->mu);
	n = node_of_local_locked(s, b);
	if (!n && s->n_nodes == s->cap_nodes) {
		/* another thread took the room made */
		pthread_mutex_unlock(&s->mu);
		goto retry;
	}
	if (!n) {
		uint32_t opts = BC_RPC_ADDR_CREATED | (s->is_server ? BC_RPC_ADDR_FOR_SERVER : 0);
		uint64_t a;

		/* the next id not in use (the table is far below 2^32) */
		do
			a = bc__rpc_addr(opts, s->next_id++);
		while (bc__rpc_node_of_addr_locked(s, a));
		n = node_add_locked(s, a);
		n->local = b;
	}
	first = n->sent++ == 0 && !n->pinned;
	*ret = n->addr;
	pthread_mutex_unlock(&s->mu);
	if (first)
		bc_binder_ref(b); /* held while the peer holds it */
	return 0;
}

/* The object the peer names by @addr (RpcState::onBinderEntering): ours
 * (given back at once), or the proxy of a peer's. */
int bc__rpc_binder_entering(bc_rpc_session *s, uint64_t addr, int stability, bc_binder **ret)
{
	struct bc_rpc_proxy *fresh;
	struct rpc_node *n;
	bc_binder *b = NULL;
	int r = bc__rpc_addr_check(addr);

	if (r < 0)
		return r;
	if (stability != BINDERC_STABILITY_VENDOR && stability != BINDERC_STABILITY_SYSTEM &&
	    stability != BINDERC_STABILITY_VINTF)
		return -EBADMSG;
	fresh = calloc(1, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
retry:
	r = reserve_node(s);
	if (r < 0) {
		free(fresh);
		return r;
	}
	pthread_mutex_lock(&s->mu);
	n = bc__rpc_node_of_addr_locked(s, addr);
	if (!n && s->n_nodes == s->cap_nodes) {
		/* another thread took the room made */
		pthread_mutex_unlock(&s->mu);
		goto retry;
	}
	if (n && n->local) {
		b = n->local;
	} else if (n && n->proxy && bc__inc_not_zero(&n->proxy->base.strong)) {
		n->proxy->recd++;
		b = &n->proxy->base;
	} else if (!n && !!(bc__rpc_addr_options(addr) & BC_RPC_ADDR_FOR_SERVER) == s->is_server) {
		/* an address we would have allocated, but never did */
		r = -EBADMSG;
	} else {
		if (!n)
			n = node_add_locked(s, addr);
		/* else: the old proxy is on its way out; it gives back its own */
		fresh->base.ops = &bc__rpc_proxy_ops;
		atomic_init(&fresh->base.strong, 1);
		atomic_init(&fresh->base.weak, 1);
		atomic_init(&fresh->base.proc, NULL);
		fresh->base.stability = stability;
		fresh->s = bc_rpc_session_ref(s);
		fresh->addr = addr;
		fresh->recd = 1;
		n->proxy = fresh;
		b = &fresh->base;
		fresh = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	free(fresh);
	if (r < 0)
		return r;
	if (bc__as_local(b)) {
		/* ours came back: a strong reference for the caller, and the
		 * peer's sent reference returned right away */
		if (!bc__binder_strong_inc(b))
			return -EBADMSG;
		bc__rpc_queue_dec(s, addr, 1);
	}
	*ret = b;
	return 0;
}

/*
 * A call of ours that carries our object waits for its reply on one
 * connection; the peer's DEC_STRONG for that very reference may come on
 * another (it gives back what it received as soon as it is done with it,
 * once the reply is sent) and be read first -- and the reply's binders
 * are looked up only when the program reads them.  Without a pin the
 * node would go with the DEC_STRONG, and a reply that hands the object
 * back would name an address we no longer know.  So the nodes of the
 * objects a call carries are pinned from the call until its reply is
 * freed.
 */
static void pin_one(bc_rpc_session *s, bc_binder *b, bool pin, bc_binder **drop)
{
	struct rpc_node *n;

	*drop = NULL;
	pthread_mutex_lock(&s->mu);
	n = node_of_local_locked(s, b);
	if (n && pin) {
		n->pinned++;
	} else if (n && n->pinned && !--n->pinned && !n->sent) {
		*drop = n->local;
		n->local = NULL;
		bc__rpc_node_gc_locked(s, n);
	}
	pthread_mutex_unlock(&s->mu);
}

void bc__rpc_pin_request(bc_rpc_session *s, const bc_parcel *data)
{
	bc_binder *drop;

	for (size_t i = 0; i < data->n_binders; i++)
		if (bc__as_local(data->binders[i]))
			pin_one(s, data->binders[i], true, &drop);
}

void bc__rpc_unpin(bc_rpc_session *s, bc_binder **v, size_t n)
{
	bc_binder *drop;

	for (size_t i = 0; i < n; i++) {
		pin_one(s, v[i], false, &drop);
		bc_binder_unref(drop);
		bc_binder_unref(v[i]);
	}
}

void bc__rpc_pins_to_reply(bc_rpc_session *s, const bc_parcel *data, bc_parcel *reply)
{
	bc_binder **v;
	size_t n = 0;

	for (size_t i = 0; i < data->n_binders; i++)
		n += bc__as_local(data->binders[i]) != NULL;
	if (!n)
		return;
	/* with no room for the list, the pins go now (the race above is
	 * then possible again, not a leak) */
	v = reply && !reply->rpc_pins ? malloc(n * sizeof(*v)) : NULL;
	n = 0;
	for (size_t i = 0; i < data->n_binders; i++) {
		bc_binder *b = data->binders[i], *drop;

		if (!bc__as_local(b))
			continue;
		if (v) {
			v[n++] = bc_binder_ref(b);
			continue;
		}
		pin_one(s, b, false, &drop);
		bc_binder_unref(drop);
	}
	if (v) {
		reply->rpc_pins = v;
		reply->n_rpc_pins = n;
	}
}

void bc__rpc_forget_proxy(bc_rpc_session *s, struct bc_rpc_proxy *x)
{
	struct rpc_node *n;

	pthread_mutex_lock(&s->mu);
	n = bc__rpc_node_of_addr_locked(s, x->addr);
	if (n && n->proxy == x) {
		n->proxy = NULL;
		bc__rpc_node_gc_locked(s, n);
	}
	pthread_mutex_unlock(&s->mu);
}

/* Give every held object back (the session is over: the peer will not
 * give them back) and forget them, so that an object holding a proxy of
 * its own session does not keep that session for ever. */
void bc__rpc_drop_nodes(bc_rpc_session *s)
{
	for (;;) {
		bc_binder *b = NULL;

		pthread_mutex_lock(&s->mu);
		for (size_t i = 0; i < s->n_nodes && !b; i++) {
			if (s->nodes[i].local && s->nodes[i].sent) {
				b = s->nodes[i].local;
				s->nodes[i].sent = 0;
				s->nodes[i].local = NULL;
			}
		}
		pthread_mutex_unlock(&s->mu);
		if (!b)
			break;
		bc_binder_unref(b);
	}
}
