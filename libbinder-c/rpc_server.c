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
		/* every session and joiner holds a reference: none is left */
		bc_binder_unref(srv->root);
		free(srv->sessions);
		free(srv->listeners);
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

/* The connection's set-up (RpcServer::establishConnection). */
static int accept_session(bc_rpc_server *srv, bc_rpc_session *s)
{
	uint8_t in[BC_RPC_CONN_HEADER_SIZE], resp[BC_RPC_NEW_SESSION_RESPONSE_SIZE], init[BC_RPC_CONN_INIT_SIZE];
	uint8_t skip[BC_RPC_SESSION_ID_SIZE];
	struct bc_rpc_conn_header h;
	int r = bc__rpc_recv(s, in, sizeof(in), false);

	if (r < 0)
		return r;
	r = bc__rpc_conn_header_decode(in, &h);
	if (r < 0)
		return r;
	if (h.session_id_size) {
		/* a join: no session here has a second connection */
		r = bc__rpc_recv(s, skip, h.session_id_size, false);
		return r < 0 ? r : -ENOENT;
	}
	/* a new session must be asked for on an outgoing connection */
	if (h.options & BC_RPC_CONN_OPTION_INCOMING)
		return -EBADMSG;
	s->version = bc__rpc_server_version(h.version, atomic_load(&srv->max_version));
	bc__rpc_new_session_response_encode(s->version, resp);
	r = bc__rpc_send(s, resp, sizeof(resp));
	if (r < 0)
		return r;
	/* Android too answers before it drops an fd mode it does not serve. */
	if (h.fd_mode == BC_RPC_FD_MODE_UNIX && atomic_load(&srv->fds))
		s->fd_mode = BC_RPC_FD_MODE_UNIX;
	else if (h.fd_mode != BC_RPC_FD_MODE_NONE)
		return -EOPNOTSUPP;
	r = bc__rpc_recv(s, init, sizeof(init), false);
	if (r == 0)
		r = bc__rpc_conn_init_check(init);
	return r;
}

int bc_rpc_server_serve_fd(bc_rpc_server *srv, int fd)
{
	bc_rpc_session *s;
	int r;

	if (!srv || fd < 0) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	r = bc__rpc_session_new(fd, true, &s);
	if (r < 0)
		return r;
	s->root = bc_binder_ref(srv->root);
	/* known to the server while served, so that its shutdown ends it */
	r = bc__rpc_server_add_session(srv, s);
	if (r == 0) {
		r = new_session_id(s->id, sizeof(s->id));
		if (r == 0)
			r = accept_session(srv, s);
		if (r == 0)
			r = bc__rpc_serve(s);
		else
			bc__rpc_fail(s, r);
		bc__rpc_server_remove_session(srv, s);
	} else {
		bc__rpc_fail(s, r);
	}
	bc_rpc_session_unref(s);
	return r;
}
