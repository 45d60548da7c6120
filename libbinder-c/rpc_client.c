/* SPDX-License-Identifier: MIT */
/*
 * A client's side of an RPC session: the set-up of a new session on its
 * first connection (RpcSession::setupClient), connections joined to it
 * later with the session id -- outgoing ones, to make calls in parallel,
 * and incoming ones, on which the server calls the client's objects
 * whenever it likes and which a thread of ours serves -- and the root.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_internal.h"

int bc_rpc_session_get_root(bc_rpc_session *s, bc_binder **ret)
{
	bc_parcel *reply = NULL;
	int origin = BINDERC_ERROR_LOCAL;
	int r;

	if (!s || !ret)
		return -EINVAL;
	*ret = NULL;
	r = bc__rpc_transact(s, 0, BC_RPC_SPECIAL_GET_ROOT, NULL, &reply, 0, &origin);
	/* a client session answers GET_ROOT with an empty parcel */
	if (r == 0 && bc_parcel_remaining(reply))
		r = bc_parcel_read_binder(reply, ret);
	/* a root the session cannot take: the server is not to be trusted */
	if (r == -EBADMSG)
		bc__rpc_fail(s, r);
	bc_parcel_unref(reply);
	return r;
}

/* What a new client session waits for each set-up read, in ms (0: for
 * ever): process-wide, as there is no session to hold it before
 * bc_rpc_session_connect_fd() makes one. */
static atomic_uint default_setup_ms = BINDERC_RPC_SETUP_TIMEOUT_MS_DEFAULT;

void bc_rpc_client_set_setup_timeout(unsigned ms)
{
	atomic_store(&default_setup_ms, ms);
}

int bc_rpc_session_set_setup_timeout(bc_rpc_session *s, unsigned ms)
{
	if (!s || s->is_server)
		return -EINVAL;
	atomic_store(&s->setup_timeout_ms, ms);
	return 0;
}

/* A special call during set-up, its reply in *@ret. */
static int setup_call(bc_rpc_session *s, uint32_t code, bc_parcel **ret)
{
	int origin = BINDERC_ERROR_LOCAL;

	return bc__rpc_transact(s, 0, code, NULL, ret, 0, &origin);
}

/* A new session on @fd, over TLS with @tls unless it is NULL. */
static int connect_fd(int fd, uint32_t max_version, unsigned flags, bc_rpc_tls *tls, bc_rpc_session **ret)
{
	struct bc_rpc_conn_header h = { .version = max_version, .fd_mode = BC_RPC_FD_MODE_NONE };
	uint8_t out[BC_RPC_CONN_HEADER_SIZE + BC_RPC_CONN_INIT_SIZE], resp[BC_RPC_NEW_SESSION_RESPONSE_SIZE];
	bc_parcel *reply = NULL;
	struct rpc_conn *c = NULL;
	bc_rpc_session *s;
	const void *id = NULL;
	size_t id_len = 0;
	int32_t threads = 0;
	int r;

	if (flags & BINDERC_RPC_FDS)
		h.fd_mode = BC_RPC_FD_MODE_UNIX;
	if (fd < 0 || !ret || max_version > BC_RPC_V_MAX || (flags & ~BINDERC_RPC_FDS)) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	/* no fds over TLS (Android's TLS transport carries none) */
	r = !tls ? 0 : (flags & BINDERC_RPC_FDS) ? -EOPNOTSUPP : bc__rpc_tls_ready(tls);
	if (r < 0) {
		close(fd);
		return r;
	}
	r = bc__rpc_conn_new(fd, false, &c);
	if (r < 0)
		return r;
	r = bc__rpc_session_new(false, &s);
	if (r < 0) {
		bc__rpc_conn_free(c);
		return r;
	}
	/* a server that does not take the mode closes the connection */
	s->fd_mode = h.fd_mode;
	s->tls = bc_rpc_tls_ref(tls);
	atomic_store(&s->setup_timeout_ms, atomic_load(&default_setup_ms));
	/* a server that accepts and says nothing must not hold us for ever:
	 * the handshake and each read below (the answer, the replies of the
	 * special calls) time out */
	r = bc__rpc_conn_set_timeout(c, atomic_load(&s->setup_timeout_ms));
	if (r == 0 && tls)
		r = bc__rpc_tls_start(c, tls, false);
	if (r == 0)
		r = bc__rpc_conn_add(s, c, 0);
	if (r < 0) {
		bc__rpc_conn_free(c);
		bc_rpc_session_unref(s);
		return r;
	}
	/* header and "cci" first, the answer after (as Android's client) */
	bc__rpc_conn_header_encode(&h, out);
	bc__rpc_conn_init_encode(out + BC_RPC_CONN_HEADER_SIZE);
	r = bc__rpc_send(c, out, sizeof(out));
	if (r == 0)
		r = bc__rpc_recv(c, resp, sizeof(resp), false);
	if (r == -EPROTO)
		r = -EPIPE; /* nothing came back */
	if (r == 0) {
		bc__rpc_new_session_response_decode(resp, &s->version);
		if (!bc__rpc_client_accepts(max_version, s->version))
			r = -EPROTONOSUPPORT;
	}
	/* what Android's client asks next: how many connections the server
	 * serves per session (joins beyond it are refused) and the id */
	if (r == 0)
		r = setup_call(s, BC_RPC_SPECIAL_GET_MAX_THREADS, &reply);
	if (r == 0)
		r = bc_parcel_read_int32(reply, &threads);
	reply = bc_parcel_unref(reply);
	if (r == 0)
		s->peer_threads = threads < 1 ? 1 : (uint32_t)threads;
	if (r == 0)
		r = setup_call(s, BC_RPC_SPECIAL_GET_SESSION_ID, &reply);
	if (r == 0)
		r = bc_parcel_read_byte_array(reply, &id, &id_len);
	if (r == 0 && id_len != BC_RPC_SESSION_ID_SIZE)
		r = -EBADMSG;
	if (r == 0)
		memcpy(s->id, id, id_len);
	bc_parcel_unref(reply);
	if (r == 0)
		r = bc__rpc_conn_set_timeout(c, 0); /* a session may idle */
	r = bc__rpc_timeout_error(r);
	if (r < 0) {
		bc__rpc_fail(s, r);
		bc_rpc_session_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}

int bc_rpc_session_connect_fd(int fd, uint32_t max_version, unsigned flags, bc_rpc_session **ret)
{
	return connect_fd(fd, max_version, flags, NULL, ret);
}

int bc_rpc_session_connect_fd_tls(int fd, uint32_t max_version, unsigned flags, bc_rpc_tls *tls,
				  bc_rpc_session **ret)
{
	if (!tls) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	return connect_fd(fd, max_version, flags, tls, ret);
}

/* ---- incoming connections ---------------------------------------------------- */

struct reader {
	bc_rpc_session *s;
	struct rpc_conn *c;
};

/* A reference unless the session is already being freed. */
static bool ref_not_zero(bc_rpc_session *s)
{
	int n = atomic_load(&s->refs);

	while (n > 0)
		if (atomic_compare_exchange_weak(&s->refs, &n, n + 1))
			return true;
	return false;
}

/*
 * The thread serving an incoming connection: the server's calls to our
 * objects, one command at a time.  It holds no reference while it waits
 * (the session must be freed when its user and proxies let go), one
 * while it runs a command; the session being freed shuts the socket down
 * and joins it -- or, when its own reference was the last, lets it go.
 */
static void *reader_main(void *arg)
{
	struct reader rd = *(struct reader *)arg;
	bc_rpc_session *s = rd.s;
	struct rpc_conn *c = rd.c;

	free(arg);
	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		int r;

		/* (a command the transport read already is not the socket's:
		 * only this thread reads here, so no lock to ask) */
		if (!bc__rpc_buffered(c) && poll(&p, 1, -1) < 0 && errno == EINTR)
			continue;
		if (!ref_not_zero(s))
			return NULL;
		r = bc__rpc_serve_one(s, c);
		if (r < 0) {
			/* the server went (or broke the stream): the session's end */
			bc__rpc_fail(s, r);
			bc__rpc_ended(s);
			bc__rpc_session_put(s);
			return NULL;
		}
		if (bc__rpc_session_put(s))
			return NULL;
	}
}

/* ---- joins ----------------------------------------------------------------------- */

int bc__rpc_join_conn(bc_rpc_session *s, int fd, bool incoming, struct rpc_conn **ret)
{
	struct bc_rpc_conn_header h = { .session_id_size = BC_RPC_SESSION_ID_SIZE };
	uint8_t out[BC_RPC_CONN_HEADER_SIZE + BC_RPC_SESSION_ID_SIZE + BC_RPC_CONN_INIT_SIZE];
	uint8_t init[BC_RPC_CONN_INIT_SIZE];
	struct rpc_conn *c = NULL;
	size_t len = BC_RPC_CONN_HEADER_SIZE + BC_RPC_SESSION_ID_SIZE;
	unsigned have;
	int r;

	if (!s || fd < 0 || s->is_server) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	r = bc__rpc_conn_new(fd, incoming, &c);
	if (r < 0)
		return r;
	/* Android's server drops an outgoing connection beyond its thread
	 * count only once it is used, ending the session: refuse it here */
	pthread_mutex_lock(&s->mu);
	have = s->n_call;
	pthread_mutex_unlock(&s->mu);
	if (!incoming && have >= s->peer_threads)
		r = -EUSERS;
	/* the version and fd mode of a join are not read; ours, for form */
	h.version = s->version;
	h.fd_mode = (uint8_t)s->fd_mode;
	h.options = incoming ? BC_RPC_CONN_OPTION_INCOMING : 0;
	bc__rpc_conn_header_encode(&h, out);
	memcpy(out + BC_RPC_CONN_HEADER_SIZE, s->id, BC_RPC_SESSION_ID_SIZE);
	if (!incoming) {
		/* the side that will call sends "cci" */
		bc__rpc_conn_init_encode(out + len);
		len += BC_RPC_CONN_INIT_SIZE;
	}
	/* over TLS, the handshake first, bounded as the rest of a set-up */
	if (r == 0 && s->tls) {
		r = bc__rpc_conn_set_timeout(c, atomic_load(&s->setup_timeout_ms));
		if (r == 0)
			r = bc__rpc_tls_start(c, s->tls, false);
		if (r == 0)
			r = bc__rpc_conn_set_timeout(c, 0);
		r = bc__rpc_timeout_error(r);
	}
	if (r == 0)
		r = bc__rpc_send(c, out, len);
	if (r == 0 && incoming) {
		/* the server's "cci", or the end of a refused join; a server
		 * that says neither must not hold us for ever */
		r = bc__rpc_conn_set_timeout(c, atomic_load(&s->setup_timeout_ms));
		if (r == 0)
			r = bc__rpc_recv(c, init, sizeof(init), true);
		if (r == 0)
			r = bc__rpc_conn_init_check(init);
		if (r == 0)
			r = bc__rpc_conn_set_timeout(c, 0);
		r = bc__rpc_timeout_error(r);
	}
	if (r == 0)
		r = bc__rpc_conn_add(s, c, 0);
	if (r < 0) {
		bc__rpc_conn_free(c);
		return r;
	}
	*ret = c;
	return 0;
}

int bc_rpc_session_join_fd(bc_rpc_session *s, int fd, bool incoming)
{
	struct reader *rd = malloc(sizeof(*rd));
	struct rpc_conn *c = NULL;
	int r = rd ? 0 : -ENOMEM;

	if (r == 0)
		r = bc__rpc_join_conn(s, fd, incoming, &c);
	else if (fd >= 0)
		close(fd);
	if (r < 0 || !incoming) {
		free(rd);
		return r;
	}
	/* From here the connection is the session's, freed with it. */
	rd->s = s;
	rd->c = c;
	pthread_mutex_lock(&s->mu);
	r = -pthread_create(&c->reader, NULL, reader_main, rd);
	c->has_reader = r == 0;
	pthread_mutex_unlock(&s->mu);
	if (r < 0) {
		free(rd);
		/* the server may call on it already: no reader, no session */
		bc__rpc_fail(s, r);
	}
	return r;
}

int bc_rpc_session_join(bc_rpc_session *s, const char *addr, unsigned flags, bool incoming)
{
	int fd, r;

	if (!s)
		return -EINVAL;
	r = bc_rpc_connect(addr, (flags & BINDERC_RPC_PLAIN_TCP) | (s->tls ? BINDERC_RPC_TLS : 0), &fd);
	if (r < 0)
		return r;
	return bc_rpc_session_join_fd(s, fd, incoming);
}
