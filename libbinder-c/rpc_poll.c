/* SPDX-License-Identifier: MIT */
/*
 * An incoming connection that the program polls itself, for clients
 * without threads of the library's (rpc.h: bc_rpc_session_join_polled):
 * the server's calls to the client's objects run on the thread that
 * calls bc_rpc_session_handle_polled() when the socket is readable, as a
 * kernel binder client polls its device fd.  Its hang-up is the end of
 * the session, noticed there too: death recipients run on that thread,
 * and no watcher thread is started.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "rpc_internal.h"

int bc_rpc_session_join_polled_fd(bc_rpc_session *s, int fd)
{
	struct rpc_conn *c = NULL;
	bool taken;
	int r;

	if (!s || fd < 0 || s->is_server) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	/* one per session: claimed first, so that two joins cannot race */
	pthread_mutex_lock(&s->mu);
	taken = atomic_exchange(&s->has_polled, true);
	pthread_mutex_unlock(&s->mu);
	if (taken) {
		close(fd);
		return -EBUSY;
	}
	r = bc__rpc_join_conn(s, fd, true, &c);
	pthread_mutex_lock(&s->mu);
	if (r == 0)
		s->polled = c; /* the session's now, freed with it */
	else
		atomic_store(&s->has_polled, false);
	pthread_mutex_unlock(&s->mu);
	return r;
}

int bc_rpc_session_join_polled(bc_rpc_session *s, const char *addr, unsigned flags, int *ret_fd)
{
	int fd, r;

	if (!s || !ret_fd)
		return -EINVAL;
	r = bc_rpc_connect(addr, flags & (BINDERC_RPC_PLAIN_TCP | BINDERC_RPC_TLS), &fd);
	if (r < 0)
		return r;
	r = bc_rpc_session_join_polled_fd(s, fd);
	if (r == 0)
		*ret_fd = fd;
	return r;
}

int bc_rpc_session_handle_polled(bc_rpc_session *s)
{
	struct rpc_conn *c;
	int r = 0;

	if (!s)
		return -EINVAL;
	pthread_mutex_lock(&s->mu);
	c = s->polled;
	pthread_mutex_unlock(&s->mu);
	if (!c)
		return -ENOTCONN;
	/* every command that came, not one: the program polls again only
	 * for what is still to come (a TLS record may hold several) */
	while (r == 0 && !atomic_load(&s->dead)) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		int n;

		if (!bc__rpc_buffered(c)) {
			n = poll(&p, 1, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return n < 0 ? -errno : 0;
		}
		r = bc__rpc_serve_one(s, c);
	}
	/* the server went (or broke the stream): the session's end, and its
	 * obituaries, here */
	bc__rpc_fail(s, r < 0 ? r : -EPIPE);
	bc__rpc_ended(s);
	return -EPIPE;
}
