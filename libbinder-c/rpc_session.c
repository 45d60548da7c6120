/* SPDX-License-Identifier: MIT */
/*
 * An RPC binder session: the object and its life -- made, referenced,
 * ended (by any failure: Android too ends a session on any error, the
 * stream cannot be resynchronised) and freed.  Its pieces:
 *
 *   rpc_msg.c       commands on the wire: headers, bodies, fds
 *   rpc_nodes.c     the table of object addresses both sides know
 *   rpc_parcel.c    binders and fds inside a session's parcels
 *   rpc_dec.c       DEC_STRONG: references given back
 *   rpc_async.c     oneway calls run in the order of their numbers
 *   rpc_dispatch.c  the command loop, and the calls that come in
 *   rpc_call.c      calls that go out, and their replies
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "rpc_session_internal.h"

int bc__rpc_session_new(bool is_server, bc_rpc_session **ret)
{
	bc_rpc_session *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	atomic_init(&s->refs, 1);
	atomic_init(&s->n_conns, 0);
	atomic_init(&s->next_call, 0);
	atomic_init(&s->conn_waiters, 0);
	s->is_server = is_server;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->conn_cv, NULL);
	atomic_init(&s->dead, false);
	atomic_init(&s->error, 0);
	atomic_init(&s->drained, false);
	*ret = s;
	return 0;
}

bc_rpc_session *bc_rpc_session_ref(bc_rpc_session *s)
{
	if (s)
		atomic_fetch_add(&s->refs, 1);
	return s;
}

bool bc__rpc_session_put(bc_rpc_session *s)
{
	size_t n;

	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return false;
	/* No proxy is left (each holds a reference), and no thread of ours
	 * is running a command (each holds one meanwhile). */
	bc__rpc_watcher_stop(s);
	n = atomic_load(&s->n_conns);
	if (!atomic_load(&s->dead))
		bc__rpc_fail(s, -ESHUTDOWN); /* wakes the readers */
	for (size_t i = 0; i < n; i++) {
		struct rpc_conn *c = s->conns[i];

		if (!c->has_reader)
			continue;
		/* a reader dropping the last reference returns at once */
		if (pthread_equal(pthread_self(), c->reader))
			pthread_detach(c->reader);
		else
			pthread_join(c->reader, NULL);
	}
	bc__rpc_drop_nodes(s);
	for (size_t i = 0; i < n; i++)
		bc__rpc_conn_free(s->conns[i]);
	for (size_t i = 0; i < s->n_async; i++)
		bc__rpc_async_free(&s->async_q[i]);
	free(s->async_q);
	bc_binder_unref(s->root);
	bc_rpc_tls_unref(s->tls);
	free(s->nodes);
	free(s->pending);
	pthread_cond_destroy(&s->conn_cv);
	pthread_mutex_destroy(&s->mu);
	free(s);
	return true;
}

bc_rpc_session *bc_rpc_session_unref(bc_rpc_session *s)
{
	bc__rpc_session_put(s);
	return NULL;
}

uint32_t bc_rpc_session_get_version(const bc_rpc_session *s)
{
	return s ? s->version : 0;
}

int bc_rpc_session_get_error(const bc_rpc_session *s)
{
	return s ? atomic_load(&s->error) : -EINVAL;
}

void bc__rpc_fail(bc_rpc_session *s, int err)
{
	int none = 0;

	atomic_compare_exchange_strong(&s->error, &none, err);
	if (!atomic_exchange(&s->dead, true)) {
		if (err != -EPIPE && err != -ESHUTDOWN)
			/* a peer's status may be any int32: no strerror() */
			bc__log("rpc session ended: %d", err);
		size_t n = atomic_load_explicit(&s->n_conns, memory_order_acquire);

		/* wakes the threads blocked on the sockets; the fds stay ours
		 * (a connection added later sees dead and shuts itself) */
		for (size_t i = 0; i < n; i++)
			shutdown(s->conns[i]->fd, SHUT_RDWR);
	}
}

void bc__rpc_ended(bc_rpc_session *s)
{
	bc_binder *root;

	/* A server's session lets go of its root as of every object the
	 * client held: a root that keeps a proxy of the client (a callback)
	 * keeps the session, which would keep the root, for ever. */
	pthread_mutex_lock(&s->mu);
	root = s->root;
	s->root = NULL;
	pthread_mutex_unlock(&s->mu);
	bc_binder_unref(root);
	bc__rpc_drop_nodes(s);
	bc__rpc_send_obituaries(s);
}

void bc_rpc_session_shutdown(bc_rpc_session *s)
{
	if (!s)
		return;
	bc__rpc_fail(s, -ESHUTDOWN);
	bc__rpc_ended(s);
}
