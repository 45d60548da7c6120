/* SPDX-License-Identifier: MIT */
/*
 * Oneway calls of an RPC session, in the order of their async numbers
 * per object: one that comes before its turn is held (its body and fds)
 * until the ones numbered before it have run, however many connections
 * carried them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpc_session_internal.h"

void bc__rpc_async_free(struct rpc_async *a)
{
	for (size_t i = 0; i < a->n_fds; i++)
		close(a->fds[i]);
	free(a->fds);
	free(a->body);
}

/* Hold oneway call @t (its body *@body and the fds in @rx, both taken)
 * until the calls numbered before it to the same object have run (mu
 * held).  Several connections carry oneway calls in any order -- and a
 * session of one connection may not stay one: the client's joins may
 * reach us after calls it made on them, so an early number is never a
 * violation by itself; the limits bound what a peer can make us hold. */
int bc__rpc_async_hold_locked(bc_rpc_session *s, struct rpc_conn *cn, const struct bc_rpc_transaction *t,
			      uint8_t **body, size_t len, struct rx_fds *rx)
{
	struct rpc_async *a;

	for (size_t i = 0; i < s->n_async; i++)
		if (s->async_q[i].addr == t->address && s->async_q[i].number == t->async_number)
			return -EBADMSG; /* the same number twice */
	if (s->n_async == BC_RPC_MAX_ASYNC_QUEUED || len > BC_RPC_MAX_ASYNC_BYTES - s->async_bytes)
		return -ENOBUFS;
	if (s->n_async == s->cap_async) {
		/* rare (calls overtaking each other), so allocated here */
		size_t cap = s->cap_async ? s->cap_async * 2 : 8;
		struct rpc_async *nq = realloc(s->async_q, cap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		s->async_q = nq;
		s->cap_async = cap;
	}
	a = &s->async_q[s->n_async];
	memset(a, 0, sizeof(*a));
	if (rx->n) {
		a->fds = malloc(rx->n * sizeof(int));
		if (!a->fds)
			return -ENOMEM;
		memcpy(a->fds, rx->fd, rx->n * sizeof(int));
		a->n_fds = rx->n;
		rx->n = 0;
	}
	a->addr = t->address;
	a->number = t->async_number;
	a->body = *body;
	a->len = len;
	a->conn = cn;
	*body = NULL;
	s->n_async++;
	s->async_bytes += len;
	return 0;
}

bool bc__rpc_async_held_locked(const bc_rpc_session *s, uint64_t addr)
{
	for (size_t i = 0; i < s->n_async; i++)
		if (s->async_q[i].addr == addr)
			return true;
	return false;
}

/* Take the call held for @addr numbered @number out of the queue. */
static bool take_locked(bc_rpc_session *s, uint64_t addr, uint64_t number, struct rpc_async *next)
{
	for (size_t i = 0; i < s->n_async; i++) {
		if (s->async_q[i].addr == addr && s->async_q[i].number == number) {
			*next = s->async_q[i];
			s->async_bytes -= next->len;
			s->async_q[i] = s->async_q[--s->n_async];
			return true;
		}
	}
	return false;
}

/*
 * A oneway call to @addr has run: count it, and take the next one held
 * for the object, if it came already (*@next, removed from the queue;
 * with a strong reference on the object in *@b).
 *
 * When no call with the next number is held but one numbered 0 is, the
 * peer's numbering started again: its node for the object went when it
 * gave back every reference it had received, and came back new with the
 * next one, while our node stayed because we had sent the object again
 * meanwhile (a reference on its way crossed the peer's DEC_STRONG; both
 * sides keep one counter per node, as Android's RpcState does, so that
 * race is the protocol's).  Only a peer that recreated its node sends 0
 * again; refusing it would end the session over a race.
 */
bool bc__rpc_async_next(bc_rpc_session *s, uint64_t addr, struct rpc_async *next, bc_binder **b)
{
	struct rpc_node *n;
	bool found = false;

	pthread_mutex_lock(&s->mu);
	n = bc__rpc_node_of_addr_locked(s, addr);
	if (n) {
		n->async_next++;
		found = take_locked(s, addr, n->async_next, next);
		if (!found && take_locked(s, addr, 0, next)) {
			n->async_next = 0;
			found = true;
		}
		*b = found && n->local && bc__binder_strong_inc(n->local) ? n->local : NULL;
		n->async_running = found && *b;
	}
	pthread_mutex_unlock(&s->mu);
	if (found && !*b) {
		bc__rpc_async_free(next); /* the object went meanwhile */
		found = false;
	}
	return found;
}
