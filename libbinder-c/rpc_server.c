/* SPDX-License-Identifier: MIT */
/*
 * RPC servers: a root object and the highest protocol version agreed to;
 * each connection a client opens is served on the thread that hands it
 * over (bc_rpc_server_serve_fd, or a thread of bc_rpc_server_join's), as
 * a session of its own (new sessions only: a session is one connection
 * here).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_internal.h"


int bc_rpc_server_new(bc_binder *root, bc_rpc_server **ret)
{
	bc_rpc_server *srv;

	if (!ret)
		return -EINVAL;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	atomic_init(&srv->refs, 1);
	atomic_init(&srv->max_version, BINDERC_RPC_VERSION_DEFAULT);
	atomic_init(&srv->fds, false);
	pthread_mutex_init(&srv->mu, NULL);
	pthread_cond_init(&srv->cv, NULL);
	srv->max_sessions = BINDERC_RPC_MAX_SESSIONS_DEFAULT;
	srv->max_threads = 1; /* Android's default */
	srv->max_incoming = BINDERC_RPC_MAX_INCOMING_DEFAULT;
	srv->setup_timeout_ms = BINDERC_RPC_SETUP_TIMEOUT_MS_DEFAULT;
	srv->root = bc_binder_ref(root);
	*ret = srv;
	return 0;
}

bc_rpc_server *bc_rpc_server_ref(bc_rpc_server *srv)
{
	if (srv)
		atomic_fetch_add(&srv->refs, 1);
	return srv;
}

bc_rpc_server *bc_rpc_server_unref(bc_rpc_server *srv)
{
	if (srv && atomic_fetch_sub(&srv->refs, 1) == 1) {
		/* every session and joiner holds a reference: none is left
		 * but the polled ones', which nobody will poll now */
		bc__rpc_server_polled_free(srv);
		bc_binder_unref(srv->root);
		bc_rpc_tls_unref(srv->tls);
		free(srv->sessions);
		free(srv->listeners);
		free(srv->vsock_cids);
		pthread_mutex_destroy(&srv->mu);
		pthread_cond_destroy(&srv->cv);
		free(srv);
	}
	return NULL;
}

int bc_rpc_server_set_max_version(bc_rpc_server *srv, uint32_t version)
{
	if (!srv || version > BC_RPC_V_MAX)
		return -EINVAL;
	atomic_store(&srv->max_version, version);
	return 0;
}

int bc_rpc_server_set_fds(bc_rpc_server *srv, bool allow)
{
	if (!srv)
		return -EINVAL;
	atomic_store(&srv->fds, allow);
	return 0;
}

int bc_rpc_server_set_tls(bc_rpc_server *srv, bc_rpc_tls *tls)
{
	bc_rpc_tls *old;
	int r;

	if (!srv)
		return -EINVAL;
	r = tls ? bc__rpc_tls_ready(tls) : 0;
	if (r < 0)
		return r;
	pthread_mutex_lock(&srv->mu);
	old = srv->tls;
	srv->tls = bc_rpc_tls_ref(tls);
	pthread_mutex_unlock(&srv->mu);
	bc_rpc_tls_unref(old);
	return 0;
}

/* Android's ids come from /dev/urandom; a session id only has to be
 * unguessable by other clients. */
static int new_session_id(uint8_t *id, size_t len)
{
	while (len) {
		ssize_t n = getrandom(id, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		id += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The answer to a new session's header @h, read on its first connection
 * @c (RpcServer::establishConnection): the version chosen, and whether
 * the fd mode asked for is served. */
static int answer_new(bc_rpc_server *srv, bc_rpc_session *s, struct rpc_conn *c, const struct bc_rpc_conn_header *h)
{
	uint8_t resp[BC_RPC_NEW_SESSION_RESPONSE_SIZE];
	int r;

	/* a new session must be asked for on an outgoing connection */
	if (h->options & BC_RPC_CONN_OPTION_INCOMING)
		return -EBADMSG;
	s->version = bc__rpc_server_version(h->version, atomic_load(&srv->max_version));
	bc__rpc_new_session_response_encode(s->version, resp);
	r = bc__rpc_send(c, resp, sizeof(resp));
	if (r < 0)
		return r;
	/* Android too answers before it drops an fd mode it does not serve
	 * (and over TLS it serves none). */
	if (h->fd_mode == BC_RPC_FD_MODE_UNIX && atomic_load(&srv->fds) && !c->tls)
		s->fd_mode = BC_RPC_FD_MODE_UNIX;
	else if (h->fd_mode != BC_RPC_FD_MODE_NONE)
		return -EOPNOTSUPP;
	return 0;
}

int bc__rpc_server_open_session(bc_rpc_server *srv, struct rpc_conn *c, const struct bc_rpc_conn_header *h,
				bc_rpc_session **ret)
{
	bc_rpc_session *s;
	int r = bc__rpc_session_new(true, &s);

	if (r < 0) {
		bc__rpc_conn_free(c);
		return r;
	}
	s->root = bc_binder_ref(srv->root);
	pthread_mutex_lock(&srv->mu);
	s->max_threads = srv->max_threads;
	pthread_mutex_unlock(&srv->mu);
	/* the id first: a join looks sessions up by it */
	r = new_session_id(s->id, sizeof(s->id));
	if (r == 0)
		r = bc__rpc_conn_add(s, c, 0);
	if (r < 0) {
		bc__rpc_conn_free(c);
		bc_rpc_session_unref(s);
		return r;
	}
	/* known to the server while served, so that its shutdown ends it */
	r = bc__rpc_server_add_session(srv, s);
	if (r == 0) {
		r = answer_new(srv, s, c, h);
		if (r < 0)
			bc__rpc_server_remove_session(srv, s);
	}
	if (r < 0) {
		bc__rpc_fail(s, r);
		bc_rpc_session_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}

int bc__rpc_server_conn_init(struct rpc_conn *c)
{
	uint8_t init[BC_RPC_CONN_INIT_SIZE];
	int r = bc__rpc_recv(c, init, sizeof(init), false);

	if (r == 0)
		r = bc__rpc_conn_init_check(init);
	if (r == 0)
		r = bc__rpc_conn_set_timeout(c, 0);
	return bc__rpc_timeout_error(r);
}

/* A new session on @c: set up, then served on this thread. */
static int serve_new(bc_rpc_server *srv, struct rpc_conn *c, const struct bc_rpc_conn_header *h)
{
	bc_rpc_session *s;
	int r = bc__rpc_server_open_session(srv, c, h, &s);

	if (r < 0)
		return r;
	r = bc__rpc_server_conn_init(c);
	if (r == 0)
		r = bc__rpc_serve(s, c);
	else
		bc__rpc_fail(s, r);
	bc__rpc_server_remove_session(srv, s);
	bc_rpc_session_unref(s);
	return r;
}

int bc__rpc_server_add_join(bc_rpc_server *srv, struct rpc_conn *c, const struct bc_rpc_conn_header *h,
			    bc_rpc_session **ret)
{
	uint8_t id[BC_RPC_SESSION_ID_SIZE], init[BC_RPC_CONN_INIT_SIZE];
	bool incoming = h->options & BC_RPC_CONN_OPTION_INCOMING;
	bc_rpc_session *s = NULL;
	unsigned limit;
	int r = bc__rpc_recv(c, id, sizeof(id), false);

	if (r == 0) {
		s = bc__rpc_server_find_session(srv, id);
		if (!s)
			r = -ENOENT; /* Android drops it too, saying nothing */
	}
	if (r == 0 && !incoming) {
		r = bc__rpc_recv(c, init, sizeof(init), false);
		if (r == 0)
			r = bc__rpc_conn_init_check(init);
	}
	/* (an incoming one is only written to, by the session's callers) */
	if (r == 0)
		r = bc__rpc_conn_set_timeout(c, 0);
	r = bc__rpc_timeout_error(r);
	pthread_mutex_lock(&srv->mu);
	limit = incoming ? srv->max_incoming : srv->max_threads;
	pthread_mutex_unlock(&srv->mu);
	if (r == 0 && incoming) {
		/* we call on it: we send "cci", once it is counted */
		c->serve = false;
		r = limit ? bc__rpc_conn_add(s, c, limit) : -EUSERS;
		if (r == 0) {
			bc__rpc_conn_init_encode(init);
			r = bc__rpc_send(c, init, sizeof(init));
			/* the session's now: a failed write ends the session */
			if (r < 0) {
				bc__rpc_fail(s, r);
				bc_rpc_session_unref(s);
				return r;
			}
			*ret = s;
			return 0;
		}
	} else if (r == 0) {
		r = bc__rpc_conn_add(s, c, limit);
		if (r == 0) {
			*ret = s;
			return 0;
		}
	}
	bc__rpc_conn_free(c);
	bc_rpc_session_unref(s);
	return r;
}

/* A connection @c joining an existing session: one more to serve here
 * (the client's outgoing), or one to call the client on (its incoming:
 * only handed over). */
static int serve_join(bc_rpc_server *srv, struct rpc_conn *c, const struct bc_rpc_conn_header *h)
{
	bc_rpc_session *s;
	int r = bc__rpc_server_add_join(srv, c, h, &s);

	if (r < 0)
		return r;
	if (c->serve)
		r = bc__rpc_serve(s, c);
	bc_rpc_session_unref(s);
	return r;
}

int bc_rpc_server_serve_fd(bc_rpc_server *srv, int fd)
{
	uint8_t in[BC_RPC_CONN_HEADER_SIZE];
	struct bc_rpc_conn_header h;
	struct rpc_conn *c;
	bc_rpc_tls *tls;
	unsigned timeout;
	int r;

	if (!srv || fd < 0) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	/* turned away before a byte is read: at the limit (or stopped), or
	 * from an address not allowed */
	r = bc__rpc_server_may_add(srv);
	if (r == 0)
		r = bc__rpc_server_peer_allowed(srv, fd);
	if (r < 0) {
		close(fd);
		return r;
	}
	r = bc__rpc_conn_new(fd, true, &c);
	if (r < 0)
		return r;
	pthread_mutex_lock(&srv->mu);
	timeout = srv->setup_timeout_ms;
	tls = bc_rpc_tls_ref(srv->tls);
	pthread_mutex_unlock(&srv->mu);
	/* a TLS handshake first, before the header, bounded as the rest */
	r = bc__rpc_conn_set_timeout(c, timeout);
	if (r == 0 && tls)
		r = bc__rpc_tls_start(c, tls, true);
	bc_rpc_tls_unref(tls);
	if (r == 0)
		r = bc__rpc_recv(c, in, sizeof(in), false);
	if (r == 0)
		r = bc__rpc_conn_header_decode(in, &h);
	if (r < 0) {
		bc__rpc_conn_free(c);
		return bc__rpc_timeout_error(r);
	}
	return h.session_id_size ? serve_join(srv, c, &h) : serve_new(srv, c, &h);
}
