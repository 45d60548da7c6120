/* SPDX-License-Identifier: MIT */
/*
 * A server the program polls itself (rpc.h: bc_rpc_server_listen_polled),
 * for single-threaded programs, as a kernel binder server polls its
 * device fd: no thread of the library's; the program's loop polls the
 * listening socket and every connection, and
 * bc_rpc_server_handle_polled() accepts, sets up or serves whatever is
 * there, never waiting for more.
 *
 * Each connection reads ahead (rpc_pollbuf.c) and goes through the
 * stages of a set-up -- its header; a join's session id (and "cci"); a
 * new session's "cci" after our answer -- each run only once its bytes
 * are all buffered, by the threaded server's own code (rpc_server.c);
 * then it serves, one whole command at a time, by the threaded loop's
 * serve-one step.  A set-up has the server's set-up timeout to finish:
 * the deadline the program's poll() waits for (get_pollfds' timeout).
 *
 * The sessions are the server's as any (its list, its limits, its
 * shutdown); what is here is only which fds the program polls, each
 * entry holding its session (or, in a set-up, its connection).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "rpc_internal.h"

/* Set-ups accepted per call on a listener: the other fds get their turn
 * (the listener stays readable). */
#define ACCEPT_BURST 16
/* Bytes read per call on a connection: a client that writes without a
 * pause cannot keep the loop; the rest waits in its socket. */
#define READ_BUDGET (256u << 10)

enum stage {
	ST_LISTEN, /* a listening socket (the program's) */
	ST_HEADER, /* the connection header */
	ST_JOIN,   /* a join's session id, and "cci" for an outgoing one */
	ST_INIT,   /* a new session's "cci", after our answer */
	ST_SERVE,  /* commands */
};

struct entry {
	int fd;
	enum stage stage;
	struct rpc_conn *c;	 /* ours until a session takes it */
	bc_rpc_session *s;	 /* referenced, once it has one */
	struct bc_rpc_conn_header h;
	int64_t deadline;	 /* of a set-up (ms, monotonic), 0: none */
};

struct rpc_server_polled {
	/* held while the program's thread is in here (handlers run under
	 * it), and by a shutdown from another thread */
	pthread_mutex_t mu;
	struct entry *e;
	size_t n, cap;
	bc_rpc_server_poll_fn fn;
	void *userdata;
	bool stopped;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct rpc_server_polled *polled_of(bc_rpc_server *srv, bool make)
{
	struct rpc_server_polled *p;

	pthread_mutex_lock(&srv->mu);
	p = srv->polled;
	if (!p && make && (p = calloc(1, sizeof(*p)))) {
		pthread_mutex_init(&p->mu, NULL);
		srv->polled = p;
	}
	pthread_mutex_unlock(&srv->mu);
	return p;
}

static void notify(struct rpc_server_polled *p, int fd, bool add)
{
	if (p->fn)
		p->fn(p->userdata, fd, add);
}

static int entry_add(struct rpc_server_polled *p, const struct entry *e)
{
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		struct entry *ne = realloc(p->e, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		p->e = ne;
		p->cap = cap;
	}
	p->e[p->n++] = *e;
	return 0;
}

static ssize_t entry_find(const struct rpc_server_polled *p, int fd)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->e[i].fd == fd)
			return (ssize_t)i;
	return -1;
}

/* Entry @i leaves the poll set: the program told first, then its
 * connection closed (a set-up's) or its session reference dropped. */
static void entry_drop(struct rpc_server_polled *p, size_t i)
{
	struct entry e = p->e[i];

	p->e[i] = p->e[--p->n];
	if (e.stage != ST_LISTEN)
		notify(p, e.fd, false);
	if (e.s)
		bc_rpc_session_unref(e.s); /* the session closes its sockets */
	else
		bc__rpc_conn_free(e.c);
}

/* End session @s with @err (the first error stays): its end run here
 * (objects given back, obituaries), out of the server's list, and every
 * connection of it out of the poll set. */
static void end_session(bc_rpc_server *srv, struct rpc_server_polled *p, bc_rpc_session *s, int err)
{
	bc_rpc_session_ref(s);
	bc__rpc_fail(s, err);
	bc__rpc_ended(s);
	bc__rpc_server_remove_session(srv, s);
	for (size_t i = p->n; i-- > 0;)
		if (p->e[i].s == s)
			entry_drop(p, i);
	bc_rpc_session_unref(s);
}

/* Entry @i failed with @r: a set-up's connection dropped, or its
 * session ended (-EPIPE: a clean end). */
static void entry_fail(bc_rpc_server *srv, struct rpc_server_polled *p, size_t i, int r)
{
	if (p->e[i].s)
		end_session(srv, p, p->e[i].s, r);
	else
		entry_drop(p, i);
}

static unsigned n_setups(const struct rpc_server_polled *p)
{
	unsigned n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->e[i].stage != ST_LISTEN && p->e[i].stage != ST_SERVE;
	return n;
}

/* Set-ups past their deadline, and sessions ended elsewhere (a call of
 * the program's that failed, another thread's shutdown of one): out. */
static int64_t expire(bc_rpc_server *srv, struct rpc_server_polled *p)
{
	int64_t now = now_ms(), next = -1;

	for (size_t i = p->n; i-- > 0;) {
		struct entry *e = &p->e[i];

		if (e->s && atomic_load(&e->s->dead)) {
			end_session(srv, p, e->s, -EPIPE);
			i = p->n; /* several may have gone */
		} else if (e->deadline && e->deadline <= now) {
			entry_fail(srv, p, i, -ETIMEDOUT);
			i = p->n;
		} else if (e->deadline && (next < 0 || e->deadline - now < next)) {
			next = e->deadline - now;
		}
	}
	return next;
}

/* Accept what waits on listener @lfd: each a set-up, unless the server
 * is at its limit (closed at once, as bc_rpc_server_join() does; the
 * set-ups under way count too, each an fd and a buffer). */
static int accept_some(bc_rpc_server *srv, struct rpc_server_polled *p, int lfd)
{
	for (int k = 0; k < ACCEPT_BURST; k++) {
		struct entry e = { .stage = ST_HEADER };
		unsigned timeout, max;
		bool tls;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC), r;

		if (fd < 0 && (errno == EINTR || errno == ECONNABORTED || errno == EPROTO))
			continue;
		if (fd < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		pthread_mutex_lock(&srv->mu);
		timeout = srv->setup_timeout_ms;
		max = srv->max_sessions;
		tls = srv->tls != NULL;
		pthread_mutex_unlock(&srv->mu);
		r = bc__rpc_server_may_add(srv);
		if (r == 0 && (tls || n_setups(p) >= max))
			r = -EUSERS; /* (TLS: refused when it was set, see rpc.h) */
		if (r == 0)
			r = bc__rpc_server_peer_allowed(srv, fd);
		if (r < 0) {
			close(fd);
			continue;
		}
		r = bc__rpc_conn_new(fd, true, &e.c);
		if (r < 0)
			continue;
		e.fd = fd;
		e.deadline = timeout ? now_ms() + timeout : 0;
		r = bc__rpc_pollbuf_attach(e.c, timeout);
		if (r == 0)
			r = entry_add(p, &e);
		if (r < 0) {
			bc__rpc_conn_free(e.c);
			continue;
		}
		notify(p, fd, true);
	}
	return 0;
}

/* The bytes entry @e's stage waits for, in all. */
static size_t need(const struct entry *e)
{
	const uint8_t *d;
	size_t have = bc__rpc_pollbuf_have(e->c, &d);
	uint32_t body;

	switch (e->stage) {
	case ST_HEADER:
		return BC_RPC_CONN_HEADER_SIZE;
	case ST_JOIN:
		return BC_RPC_SESSION_ID_SIZE +
		       (e->h.options & BC_RPC_CONN_OPTION_INCOMING ? 0 : BC_RPC_CONN_INIT_SIZE);
	case ST_INIT:
		return BC_RPC_CONN_INIT_SIZE;
	default:
		if (have < BC_RPC_WIRE_HEADER_SIZE)
			return BC_RPC_WIRE_HEADER_SIZE;
		/* (a body over the cap: the header alone, which the command
		 * loop refuses) */
		body = bc__get_le32(d + 4);
		return BC_RPC_WIRE_HEADER_SIZE + (body > BC_RPC_MAX_BODY ? 0 : body);
	}
}

/* One stage of entry @i, its bytes buffered: 0 (it may go on), 1 (it
 * left the poll set), or -errno (it must be dropped). */
static int step(bc_rpc_server *srv, struct rpc_server_polled *p, size_t i)
{
	struct entry *e = &p->e[i];
	uint8_t in[BC_RPC_CONN_HEADER_SIZE];
	bc_rpc_session *s = NULL;
	int r;

	switch (e->stage) {
	case ST_HEADER:
		r = bc__rpc_recv(e->c, in, sizeof(in), false);
		if (r == 0)
			r = bc__rpc_conn_header_decode(in, &e->h);
		if (r == 0)
			e->stage = e->h.session_id_size ? ST_JOIN : ST_INIT;
		if (r < 0 || e->stage == ST_JOIN)
			return r;
		/* a new session: made, counted and answered (or the
		 * connection freed) */
		r = bc__rpc_server_open_session(srv, e->c, &e->h, &s);
		if (r < 0)
			e->c = NULL;
		e->s = s;
		return r < 0 ? r : 0;
	case ST_JOIN:
		r = bc__rpc_server_add_join(srv, e->c, &e->h, &s);
		if (r < 0) {
			e->c = NULL; /* freed */
			return r;
		}
		e->s = s;
		if (e->c->serve) {
			e->stage = ST_SERVE;
			e->deadline = 0;
			return 0;
		}
		/* the client's incoming connection: the session's, written
		 * to by our calls, read only for their replies */
		entry_drop(p, i);
		return 1;
	case ST_INIT:
		r = bc__rpc_server_conn_init(e->c);
		if (r == 0) {
			e->stage = ST_SERVE;
			e->deadline = 0;
		}
		return r;
	default:
		return bc__rpc_serve_one(e->s, e->c);
	}
}

/* Input on connection entry @fd: every stage and command whose bytes are
 * all there run, then more read, until the socket has no more now. */
static void conn_input(bc_rpc_server *srv, struct rpc_server_polled *p, int fd)
{
	size_t total = 0;

	for (;;) {
		ssize_t i = entry_find(p, fd), n;
		int r = 0;

		if (i < 0)
			return;
		while (r == 0 && bc__rpc_pollbuf_have(p->e[i].c, NULL) >= need(&p->e[i]))
			r = step(srv, p, (size_t)i);
		if (r == 1)
			return;
		if (r == 0 && p->e[i].s && atomic_load(&p->e[i].s->dead))
			r = -EPIPE; /* ended by a handler, or another connection */
		/* the rest when the program polls again: no whole structure
		 * is left buffered, where its poll() would not see it */
		if (r == 0 && total >= READ_BUDGET)
			return;
		if (r == 0) {
			n = bc__rpc_pollbuf_fill(p->e[i].c, need(&p->e[i]));
			if (n == -EAGAIN)
				return; /* nothing more now */
			if (n > 0)
				total += (size_t)n;
			/* the end of the stream: clean between commands only */
			if (n == 0)
				r = bc__rpc_pollbuf_have(p->e[i].c, NULL) || p->e[i].stage != ST_SERVE ? -EPROTO
													 : -EPIPE;
			else if (n < 0)
				r = (int)n;
		}
		if (r < 0) {
			/* (-EAGAIN here: a write that timed out) */
			entry_fail(srv, p, (size_t)i, bc__rpc_timeout_error(r));
			return;
		}
	}
}

int bc_rpc_server_listen_polled(bc_rpc_server *srv, int listen_fd)
{
	struct entry e = { .fd = listen_fd, .stage = ST_LISTEN };
	struct rpc_server_polled *p;
	int fl, r;

	if (!srv || listen_fd < 0)
		return -EINVAL;
	pthread_mutex_lock(&srv->mu);
	r = srv->shut_down ? -ESHUTDOWN : srv->tls ? -EOPNOTSUPP : 0;
	pthread_mutex_unlock(&srv->mu);
	if (r < 0)
		return r;
	p = polled_of(srv, true);
	if (!p)
		return -ENOMEM;
	/* a spurious wake-up must not block in accept() */
	fl = fcntl(listen_fd, F_GETFL);
	if (fl < 0 || fcntl(listen_fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	pthread_mutex_lock(&p->mu);
	if (p->stopped)
		r = -ESHUTDOWN;
	else if (entry_find(p, listen_fd) >= 0)
		r = -EEXIST;
	else
		r = entry_add(p, &e);
	pthread_mutex_unlock(&p->mu);
	return r;
}

int bc_rpc_server_set_poll_fn(bc_rpc_server *srv, bc_rpc_server_poll_fn fn, void *userdata)
{
	struct rpc_server_polled *p = srv ? polled_of(srv, true) : NULL;

	if (!srv)
		return -EINVAL;
	if (!p)
		return -ENOMEM;
	pthread_mutex_lock(&p->mu);
	p->fn = fn;
	p->userdata = userdata;
	pthread_mutex_unlock(&p->mu);
	return 0;
}

/* The program's thread in: the polled state in *@ret, locked; or
 * -ENOENT (nothing polled), -ESHUTDOWN. */
static int enter(bc_rpc_server *srv, struct rpc_server_polled **ret)
{
	struct rpc_server_polled *p = srv ? polled_of(srv, false) : NULL;

	if (!srv)
		return -EINVAL;
	if (!p)
		return -ENOENT;
	pthread_mutex_lock(&p->mu);
	if (p->stopped) {
		pthread_mutex_unlock(&p->mu);
		return -ESHUTDOWN;
	}
	*ret = p;
	return 0;
}

int bc_rpc_server_get_pollfds(bc_rpc_server *srv, struct pollfd *fds, size_t max, int *ret_timeout_ms)
{
	struct rpc_server_polled *p;
	int64_t next;
	size_t n;
	int r = max && !fds ? -EINVAL : enter(srv, &p);

	if (r < 0)
		return r;
	next = expire(srv, p);
	n = p->n;
	for (size_t i = 0; i < n && i < max; i++)
		fds[i] = (struct pollfd){ .fd = p->e[i].fd, .events = POLLIN };
	pthread_mutex_unlock(&p->mu);
	if (ret_timeout_ms)
		*ret_timeout_ms = next < 0 ? -1 : next > 0x7fffffff ? 0x7fffffff : (int)next;
	return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

int bc_rpc_server_handle_polled(bc_rpc_server *srv, int fd)
{
	struct rpc_server_polled *p;
	ssize_t i;
	int r = enter(srv, &p);

	if (r < 0)
		return r;
	expire(srv, p);
	i = fd < 0 ? -1 : entry_find(p, fd);
	if (fd >= 0 && i < 0)
		r = -ENOENT; /* gone already: its revents were stale */
	else if (i >= 0 && p->e[i].stage == ST_LISTEN)
		r = accept_some(srv, p, fd);
	else if (i >= 0)
		conn_input(srv, p, fd);
	pthread_mutex_unlock(&p->mu);
	return r;
}

/* Every entry out: sessions ended (their end run here), set-ups
 * dropped, listeners forgotten. */
static void drop_all(bc_rpc_server *srv, struct rpc_server_polled *p)
{
	while (p->n) {
		struct entry *e = &p->e[p->n - 1];

		if (e->s)
			end_session(srv, p, e->s, -ESHUTDOWN);
		else
			entry_drop(p, p->n - 1);
	}
}

void bc__rpc_server_polled_stop(bc_rpc_server *srv)
{
	struct rpc_server_polled *p = polled_of(srv, false);

	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	p->stopped = true;
	drop_all(srv, p);
	pthread_mutex_unlock(&p->mu);
}

void bc__rpc_server_polled_free(bc_rpc_server *srv)
{
	struct rpc_server_polled *p = srv->polled;

	if (!p)
		return;
	drop_all(srv, p);
	free(p->e);
	pthread_mutex_destroy(&p->mu);
	free(p);
	srv->polled = NULL;
}
