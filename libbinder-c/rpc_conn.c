/* SPDX-License-Identifier: MIT */
/*
 * The connections of an RPC session: their sockets, exact reads and
 * writes on them, the read buffer a command's read fills (as much as
 * came, in one system call), and which thread uses which.  Each
 * connection is used in strict request/reply turns by one thread at a
 * time, as in Android: a caller holds one of the connections it calls on
 * until its reply came; a thread serving a connection holds it while it
 * waits for and runs commands.  A handler's own calls go on the
 * connection its thread already holds (nested), never on another.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rpc_internal.h"

/* The connections this thread holds (innermost last), for calls made by
 * a handler running inside a command loop: they go on the same
 * connection, nested.  A handler of one session may call into another,
 * so it is a stack; its depth bounds such chains. */
#define OWNED_MAX 8
static _Thread_local struct owned {
	const bc_rpc_session *s;
	struct rpc_conn *c;
} tl_owned[OWNED_MAX];
static _Thread_local unsigned tl_n_owned;

/* (An entry of NULL hides the thread's connection from a oneway call's
 * handler.) */
struct rpc_conn *bc__rpc_owned(const bc_rpc_session *s)
{
	for (unsigned i = tl_n_owned; i-- > 0;)
		if (tl_owned[i].s == s)
			return tl_owned[i].c;
	return NULL;
}

bool bc__rpc_own_push(bc_rpc_session *s, struct rpc_conn *c)
{
	if (tl_n_owned == OWNED_MAX)
		return false;
	tl_owned[tl_n_owned].s = s;
	tl_owned[tl_n_owned++].c = c;
	return true;
}

void bc__rpc_own_pop(void)
{
	tl_n_owned--;
}

/* Who is at the other end of unix socket @fd, as the kernel saw it at
 * connect() (or socketpair()) time: the identity handlers of calls that
 * come on it get, as kernel binder gives the sender's.  Other families
 * carry none. */
static void peer_credentials(struct rpc_conn *c)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct ucred uc;

	c->peer_pid = 0;
	c->peer_euid = (uid_t)-1;
	if (getsockname(c->fd, (struct sockaddr *)&ss, &len) < 0 || ss.ss_family != AF_UNIX)
		return;
	len = sizeof(uc);
	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0 || len != sizeof(uc))
		return;
	c->peer_pid = uc.pid;
	c->peer_euid = uc.uid; /* the kernel reports the effective uid here */
}

static const struct rpc_conn_ops plain_ops;

int bc__rpc_conn_new(int fd, bool serve, struct rpc_conn **ret)
{
	struct rpc_conn *c = calloc(1, sizeof(*c));

	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->fd = fd;
	c->serve = serve;
	c->ops = &plain_ops;
	pthread_mutex_init(&c->mu, NULL);
	peer_credentials(c);
	*ret = c;
	return 0;
}

void bc__rpc_conn_free(struct rpc_conn *c)
{
	if (!c)
		return;
	if (c->ops->close)
		c->ops->close(c);
	close(c->fd);
	pthread_mutex_destroy(&c->mu);
	free(c->rbuf);
	free(c->big);
	free(c);
}

/* The socket's own timeout serves plain reads; a transport that polls
 * (TLS) reads @timeout_ms. */
int bc__rpc_conn_set_timeout(struct rpc_conn *c, unsigned ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = (suseconds_t)(ms % 1000) * 1000 };

	c->timeout_ms = ms;
	return setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ? -errno : 0;
}

int bc__rpc_timeout_error(int r)
{
	return r == -EAGAIN || r == -EWOULDBLOCK ? -ETIMEDOUT : r;
}

int bc__rpc_conn_add(bc_rpc_session *s, struct rpc_conn *c, unsigned limit)
{
	size_t n;
	int r = 0;

	pthread_mutex_lock(&s->mu);
	n = atomic_load(&s->n_conns);
	if (atomic_load(&s->dead))
		r = -EPIPE;
	else if (n == BC_RPC_MAX_CONNS || (limit && (c->serve ? s->n_serve : s->n_call) >= limit))
		r = -EUSERS;
	if (r == 0) {
		s->conns[n] = c;
		c->s = s;
		if (c->serve)
			s->n_serve++;
		else
			s->n_call++;
		atomic_store_explicit(&s->n_conns, n + 1, memory_order_release);
	}
	pthread_mutex_unlock(&s->mu);
	/* ended meanwhile: bc__rpc_fail() may have missed this one */
	if (r == 0 && atomic_load(&s->dead))
		shutdown(c->fd, SHUT_RDWR);
	return r;
}

/* Whether this thread holds @c already (deeper in its stack). */
static bool held_here(const struct rpc_conn *c)
{
	for (unsigned i = 0; i < tl_n_owned; i++)
		if (tl_owned[i].c == c)
			return true;
	return false;
}

/* One pass over the connections to call on, from a rotating start: a
 * free one, locked; *@any: there are some; *@other: some this thread
 * does not hold already. */
static struct rpc_conn *try_free(bc_rpc_session *s, bool *any, bool *other)
{
	size_t n = atomic_load_explicit(&s->n_conns, memory_order_acquire);
	unsigned start = atomic_fetch_add(&s->next_call, 1);

	for (size_t k = 0; k < n; k++) {
		struct rpc_conn *c = s->conns[(start + k) % n];

		if (c->serve)
			continue;
		*any = true;
		if (!held_here(c))
			*other = true;
		if (pthread_mutex_trylock(&c->mu) == 0)
			return c;
	}
	return NULL;
}

/* Let @c go, and wake a thread waiting for one. */
static void release(struct rpc_conn *c)
{
	bc_rpc_session *s = c->s;

	pthread_mutex_unlock(&c->mu);
	/* a waiter counted after this load finds @c free in its own pass */
	if (atomic_load(&s->conn_waiters)) {
		pthread_mutex_lock(&s->mu);
		pthread_cond_broadcast(&s->conn_cv);
		pthread_mutex_unlock(&s->mu);
	}
}

int bc__rpc_call_conn(bc_rpc_session *s, bool wait, struct rpc_conn **ret)
{
	bool any = false, other = false;
	struct rpc_conn *got = try_free(s, &any, &other);

	if (!got && !any)
		return -ENOTCONN;
	/* (a oneway call's handler, run while its thread waits on the only
	 * connection, must not wait for it: it would wait for itself) */
	if (!got && !other)
		return -EDEADLK;
	if (!got && !wait)
		return -EWOULDBLOCK;
	if (!got) {
		/* all busy: the first one let go, whichever it is (waiting
		 * for one in particular could wait on a call that waits for
		 * ours) */
		pthread_mutex_lock(&s->mu);
		atomic_fetch_add(&s->conn_waiters, 1);
		while (!(got = try_free(s, &any, &other)))
			pthread_cond_wait(&s->conn_cv, &s->mu);
		atomic_fetch_sub(&s->conn_waiters, 1);
		pthread_mutex_unlock(&s->mu);
	}
	if (!bc__rpc_own_push(s, got)) {
		release(got);
		return -ELOOP; /* too many sessions nested on this thread */
	}
	*ret = got;
	return 0;
}

void bc__rpc_call_conn_put(struct rpc_conn *c)
{
	bc__rpc_own_pop();
	release(c);
}

bool bc__rpc_drains(const struct rpc_conn *c)
{
	return c->s && !c->serve;
}

bool bc__rpc_buffered(const struct rpc_conn *c)
{
	return c->rlen > c->rpos || (c->ops->buffered && c->ops->buffered(c));
}

int bc__rpc_send_blocked(struct rpc_conn *c)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN | POLLOUT };

	/* a command the transport read already would never wake poll() */
	if (bc__rpc_buffered(c))
		return bc__rpc_drain_one(c->s, c);
	if (poll(&p, 1, -1) < 0)
		return errno == EINTR ? 0 : -errno;
	if (p.revents & POLLOUT)
		return 0;
	/* the peer writes too (or went): take its command off the socket */
	return bc__rpc_drain_one(c->s, c);
}

/* @iov[0..@n) in as few sendmsg() calls as the socket takes, @n_fds fds
 * (SCM_RIGHTS) with the first bytes: one system call a command where
 * the socket has room, rather than one a piece.  A connection that
 * drains reads the peer's DEC_STRONGs while its write is blocked. */
static int plain_sendv(struct rpc_conn *c, struct iovec *iov, size_t n, const int *fds, size_t n_fds)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * BC_RPC_MAX_FDS)];
	} ctl;
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = n };
	bool drain = bc__rpc_drains(c);

	if (n_fds) {
		struct cmsghdr *cm;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * n_fds);
	}
	while (msg.msg_iovlen) {
		ssize_t sent = sendmsg(c->fd, &msg, MSG_NOSIGNAL | (drain ? MSG_DONTWAIT : 0));

		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0 && drain && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int r = bc__rpc_send_blocked(c);

			if (r < 0)
				return r;
			continue;
		}
		if (sent < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		/* the fds went with the first bytes */
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
		while (msg.msg_iovlen && (size_t)sent >= msg.msg_iov->iov_len) {
			sent -= (ssize_t)msg.msg_iov->iov_len;
			msg.msg_iov++;
			msg.msg_iovlen--;
		}
		if (msg.msg_iovlen) {
			msg.msg_iov->iov_base = (uint8_t *)msg.msg_iov->iov_base + sent;
			msg.msg_iov->iov_len -= (size_t)sent;
		}
	}
	return 0;
}

int bc__rpc_sendv(struct rpc_conn *c, struct iovec *iov, size_t n, const int *fds, size_t n_fds)
{
	return c->ops->sendv(c, iov, n, fds, n_fds);
}

int bc__rpc_send(struct rpc_conn *c, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return len ? bc__rpc_sendv(c, &iov, 1, NULL, 0) : 0;
}

/* Some bytes; with @rx, by recvmsg(), taking the fds (SCM_RIGHTS) that
 * came with them. */
size_t bc__rpc_cmsg_fds(struct msghdr *msg, int *fd, size_t max)
{
	size_t n = 0;

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
		size_t k;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++, n++) {
			int f;

			memcpy(&f, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (n < max)
				fd[n] = f;
			else
				close(f);
		}
	}
	return n;
}

static ssize_t plain_read(struct rpc_conn *c, void *buf, size_t len, struct rx_fds *rx)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * BC_RPC_MAX_FDS)];
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	ssize_t n;

	do
		n = rx ? recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC) : recv(c->fd, buf, len, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == ECONNRESET ? -EPIPE : -errno;
	if (!rx)
		return n;
	{
		size_t room = BC_RPC_MAX_FDS - rx->n, got = bc__rpc_cmsg_fds(&msg, rx->fd + rx->n, room);

		rx->n += got < room ? got : room;
	}
	if (msg.msg_flags & MSG_CTRUNC)
		return -EBADMSG; /* fds were lost: the message cannot be used */
	return n;
}

static const struct rpc_conn_ops plain_ops = {
	.sendv = plain_sendv,
	.read = plain_read,
};

int bc__rpc_recv_fds(struct rpc_conn *c, void *buf, size_t len, bool boundary, struct rx_fds *rx)
{
	uint8_t *p = buf;
	size_t got = 0;

	/* what a command's read brought already */
	if (c->rlen > c->rpos && len) {
		got = c->rlen - c->rpos < len ? c->rlen - c->rpos : len;
		memcpy(p, c->rbuf + c->rpos, got);
		c->rpos += got;
	}
	while (got < len) {
		ssize_t n = c->ops->read(c, p + got, len - got, rx);

		if (n < 0)
			return (int)n;
		if (n == 0)
			/* inside a structure, the stream was cut */
			return got == 0 && boundary ? -EPIPE : -EPROTO;
		got += (size_t)n;
	}
	return 0;
}

int bc__rpc_recv(struct rpc_conn *c, void *buf, size_t len, bool boundary)
{
	return bc__rpc_recv_fds(c, buf, len, boundary, NULL);
}

/* Room in @c's read buffer for @want bytes from rpos (at most its
 * size): what waits moves to the front when the end has too little. */
static int rbuf_room(struct rpc_conn *c, size_t want)
{
	size_t have = c->rlen - c->rpos;

	if (want > BC_RPC_RBUF_SIZE)
		return -EMSGSIZE;
	if (!c->rbuf) {
		c->rbuf = malloc(BC_RPC_RBUF_SIZE);
		if (!c->rbuf)
			return -ENOMEM;
		c->rcap = BC_RPC_RBUF_SIZE;
	}
	if (c->rpos && (c->rcap - c->rpos < want || !have)) {
		memmove(c->rbuf, c->rbuf + c->rpos, have);
		c->rpos = 0;
		c->rlen = have;
	}
	return 0;
}

int bc__rpc_fill(struct rpc_conn *c, size_t want, bool greedy, bool boundary, struct rx_fds *rx)
{
	int r;

	if (c->rlen - c->rpos >= want)
		return 0;
	r = rbuf_room(c, want);
	if (r < 0)
		return r;
	while (c->rlen - c->rpos < want) {
		size_t ask = greedy ? c->rcap - c->rlen : want - (c->rlen - c->rpos);
		ssize_t n = c->ops->read(c, c->rbuf + c->rlen, ask, rx);

		if (n < 0)
			return (int)n;
		if (n == 0)
			/* inside a structure, the stream was cut */
			return c->rlen == c->rpos && boundary ? -EPIPE : -EPROTO;
		c->rlen += (size_t)n;
	}
	return 0;
}
