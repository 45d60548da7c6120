/* SPDX-License-Identifier: MIT */
/*
 * RPC proxies: the third kind of binder (binder_internal.h), a peer's
 * object in an RPC session, named by its wire address.  Calls go over the
 * session's socket; what only the kernel can carry (flattening into a
 * kernel parcel, binding to a driver) says -EXDEV.  The references
 * received with it go back in one DEC_STRONG when its last strong count
 * goes (BpBinder::onLastStrongRef); it is never revived after that, since
 * the peer may have dropped its object.
 */
#include <errno.h>
#include <stdlib.h>

#include "rpc_internal.h"

static struct bc_rpc_proxy *rproxy(const bc_binder *b)
{
	return BINDERC_CONTAINER_OF((bc_binder *)b, struct bc_rpc_proxy, base);
}

static void rpc_proxy_strong_last(bc_binder *b)
{
	struct bc_rpc_proxy *x = rproxy(b);
	uint32_t amount;

	pthread_mutex_lock(&x->s->mu);
	amount = x->recd;
	x->recd = 0;
	pthread_mutex_unlock(&x->s->mu);
	bc__rpc_queue_dec(x->s, x->addr, amount);
}

static void rpc_proxy_weak_last(bc_binder *b)
{
	struct bc_rpc_proxy *x = rproxy(b);

	bc__rpc_forget_proxy(x->s, x);
	bc_rpc_session_unref(x->s);
	free(x);
}

static bool rpc_proxy_revive(bc_binder *b)
{
	return bc__inc_not_zero(&b->strong);
}

static bool rpc_proxy_is_alive(const bc_binder *b)
{
	return !atomic_load(&rproxy(b)->s->dead);
}

static int rpc_proxy_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags,
			      int *ret_origin)
{
	struct bc_rpc_proxy *x = rproxy(b);

	return bc__rpc_transact(x->s, x->addr, code, data, ret_reply, flags, ret_origin);
}

static int rpc_proxy_flatten(bc_binder *b, bool weak, struct flat_binder_object *obj)
{
	(void)b;
	(void)weak;
	(void)obj;
	return -EXDEV;
}

static int rpc_proxy_bind(bc_binder *b, bc_process *proc)
{
	(void)b;
	(void)proc;
	return -EXDEV;
}

static int rpc_proxy_default_stability(const bc_binder *b, int partition)
{
	(void)b;
	(void)partition;
	return BINDERC_STABILITY_UNDECLARED;
}

static void rpc_proxy_received_stability(bc_binder *b, int level)
{
	b->stability = level;
}

/* Binders written into a request are addressed in the proxy's session. */
static void rpc_proxy_prepare_parcel(bc_binder *b, bc_parcel *p)
{
	p->rpc = bc_rpc_session_ref(rproxy(b)->s);
}

/* Deaths when the session ends (rpc_death.c); no frozen notifications:
 * RPC binder has no freezing. */
const struct bc_binder_ops bc__rpc_proxy_ops = {
	.strong_last = rpc_proxy_strong_last,
	.weak_last = rpc_proxy_weak_last,
	.revive = rpc_proxy_revive,
	.is_alive = rpc_proxy_is_alive,
	.transact = rpc_proxy_transact,
	.flatten = rpc_proxy_flatten,
	.bind = rpc_proxy_bind,
	.default_stability = rpc_proxy_default_stability,
	.received_stability = rpc_proxy_received_stability,
	.prepare_parcel = rpc_proxy_prepare_parcel,
	.link_to_death = bc__rpc_link_to_death,
};
