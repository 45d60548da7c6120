/* SPDX-License-Identifier: MIT */
/*
 * DEC_STRONG: references given back.  Ours to the peer wait until a
 * connection is free (or go before the next reply), merged per address;
 * the peer's lower what we count as sent, and let our object go at 0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpc_session_internal.h"

/* Send the DEC_STRONGs waiting on @cn (the caller holds it). */
int bc__rpc_flush_decs(bc_rpc_session *s, struct rpc_conn *cn)
{
	if (!atomic_load(&s->n_pending))
		return 0;
	for (;;) {
		struct rpc_dec d;
		uint8_t body[BC_RPC_DEC_STRONG_SIZE];
		int r;

		pthread_mutex_lock(&s->mu);
		if (!s->n_pending) {
			pthread_mutex_unlock(&s->mu);
			return 0;
		}
		d = s->pending[--s->n_pending];
		pthread_mutex_unlock(&s->mu);
		bc__rpc_dec_strong_encode(d.addr, d.amount, body);
		r = bc__rpc_send_cmd(cn, BC_RPC_CMD_DEC_STRONG, body, sizeof(body), NULL);
		if (r < 0)
			return r;
	}
}

/* Flush on a connection to call on that is free (never the caller's
 * own: a trylock of it fails): its holder flushes before it lets go
 * otherwise, and a serving thread before its next reply. */
void bc__rpc_try_flush(bc_rpc_session *s)
{
	struct rpc_conn *cn;

	if (atomic_load(&s->dead) || !atomic_load(&s->n_pending))
		return;
	while (bc__rpc_call_conn(s, false, &cn) == 0) {
		int r = bc__rpc_flush_decs(s, cn);

		bc__rpc_call_conn_put(cn);
		if (r < 0)
			bc__rpc_fail(s, r);
		pthread_mutex_lock(&s->mu);
		r = s->n_pending != 0;
		pthread_mutex_unlock(&s->mu);
		if (!r || atomic_load(&s->dead))
			break;
	}
}

void bc__rpc_queue_dec(bc_rpc_session *s, uint64_t addr, uint32_t amount)
{
	struct rpc_dec *np = NULL;
	size_t np_cap = 0, want = 0;
	bool done = false;

	if (atomic_load(&s->dead) || !amount)
		return;
	while (!done) {
		pthread_mutex_lock(&s->mu);
		/* one DEC_STRONG per address, however many wait: oneway calls
		 * leave theirs pending until a reply carries them (below) */
		for (size_t i = 0; i < s->n_pending && !done; i++) {
			if (s->pending[i].addr == addr && s->pending[i].amount <= UINT32_MAX - amount) {
				s->pending[i].amount += amount;
				done = true;
			}
		}
		if (done) {
			pthread_mutex_unlock(&s->mu);
			break;
		}
		if (s->n_pending == s->cap_pending && np && np_cap > s->cap_pending) {
			/* the buffer made unlocked, if nobody grew it meanwhile */
			if (s->n_pending)
				memcpy(np, s->pending, s->n_pending * sizeof(*np));
			free(s->pending);
			s->pending = np;
			s->cap_pending = np_cap;
			np = NULL;
		}
		if (s->n_pending < s->cap_pending) {
			s->pending[s->n_pending++] = (struct rpc_dec){ addr, amount };
			done = true;
		} else {
			want = s->cap_pending ? s->cap_pending * 2 : 4;
		}
		pthread_mutex_unlock(&s->mu);
		if (!done) {
			free(np);
			np_cap = want;
			np = malloc(np_cap * sizeof(*np));
			if (!np)
				return; /* the peer keeps a reference: a leak, not an error */
		}
	}
	free(np);
	bc__rpc_try_flush(s);
}

int bc__rpc_process_dec_strong(bc_rpc_session *s, const uint8_t *body, size_t len)
{
	bc_binder *drop = NULL;
	struct rpc_node *n;
	uint64_t addr;
	uint32_t amount;
	int r = bc__rpc_dec_strong_decode(body, len, &addr, &amount);

	if (r < 0)
		return r;
	pthread_mutex_lock(&s->mu);
	n = bc__rpc_node_of_addr_locked(s, addr);
	/* Unknown addresses and amounts above what was sent are ignored, as
	 * in Android; for a proxy's address (a call's target given back) we
	 * count nothing, so there is nothing to lower. */
	if (n && n->local && amount <= n->sent) {
		n->sent -= amount;
		if (!n->sent && !n->pinned) {
			drop = n->local;
			n->local = NULL;
			bc__rpc_node_gc_locked(s, n);
		}
	}
	/* A server whose peer holds nothing more ends the session. */
	if (s->is_server && s->n_nodes == 0)
		atomic_store(&s->drained, true);
	pthread_mutex_unlock(&s->mu);
	bc_binder_unref(drop);
	return 0;
}
