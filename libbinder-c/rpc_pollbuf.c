/* SPDX-License-Identifier: MIT */
/*
 * A polled server's connection reads ahead (rpc_server_poll.c): what the
 * socket holds is taken without blocking into a buffer of the
 * connection's own, and the protocol code, which reads exact structures
 * and would block on half of one, is only run once a whole one is there.
 * A peer that sends half a command so costs a buffer, not the thread
 * that serves every other connection.
 *
 * The protocol reads the buffer through the connection's ops (the seam
 * of rpc_internal.h), so the command loop is the threaded one.  Only a
 * read that finds the buffer empty waits -- a handler's nested call
 * waiting for the client's reply, as a kernel binder thread waits for
 * one -- and that wait is bounded (@wait_ms), as is every write
 * (SO_SNDTIMEO): a client that stops reading or answering cannot keep
 * the loop for ever.
 *
 * File descriptors (fd mode UNIX) come with the first bytes of the
 * message they belong to; each is kept with the stream offset where its
 * bytes began and handed to the read that takes those bytes, if it asks
 * for fds (a command's header), else closed, as recv() would drop them.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "rpc_internal.h"

/* What a read ahead may hold, beyond the structure being waited for. */
#define POLLBUF_MIN 4096u
/* fds received and not yet handed out: a well-behaved client's are
 * taken with the header they came with, before more is read. */
#define POLLBUF_MAX_FDS (2 * BC_RPC_MAX_FDS)

struct pollbuf {
	const struct rpc_conn_ops *inner; /* the transport's (writes, close) */
	uint8_t *buf;
	size_t cap, start, end; /* [start, end) not yet read */
	uint64_t pos;		/* the stream offset of buf[start] */
	bool eof;		/* the peer closed: nothing after end */
	unsigned wait_ms;	/* bound on a wait for more (0: none) */
	int fd[POLLBUF_MAX_FDS];
	uint64_t fd_at[POLLBUF_MAX_FDS];
	size_t n_fds;
};

static const struct rpc_conn_ops pollbuf_ops;

static struct pollbuf *pb_of(const struct rpc_conn *c)
{
	return c->polled;
}

/* Make room for @need bytes from buf[start] on, at least POLLBUF_MIN. */
static int make_room(struct pollbuf *pb, size_t need)
{
	size_t want = need > POLLBUF_MIN ? need : POLLBUF_MIN;

	if (pb->start) {
		memmove(pb->buf, pb->buf + pb->start, pb->end - pb->start);
		pb->end -= pb->start;
		pb->start = 0;
	}
	if (pb->cap < want) {
		uint8_t *nb = realloc(pb->buf, want);

		if (!nb)
			return -ENOMEM;
		pb->buf = nb;
		pb->cap = want;
	}
	return 0;
}

/* Keep the fds that came in control message @msg with the bytes that
 * start at stream offset @at. */
static int keep_fds(struct pollbuf *pb, struct msghdr *msg, uint64_t at)
{
	size_t room = POLLBUF_MAX_FDS - pb->n_fds, got = bc__rpc_cmsg_fds(msg, pb->fd + pb->n_fds, room);
	size_t kept = got < room ? got : room;

	for (size_t i = 0; i < kept; i++)
		pb->fd_at[pb->n_fds++] = at;
	/* fds beyond the room (closed) had no command to take them; and a
	 * truncated control message lost some: the stream cannot be used */
	if (got > room || (msg->msg_flags & MSG_CTRUNC))
		return -EBADMSG;
	return 0;
}

ssize_t bc__rpc_pollbuf_fill(struct rpc_conn *c, size_t need)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * BC_RPC_MAX_FDS)];
	} ctl;
	struct pollbuf *pb = pb_of(c);
	struct iovec iov;
	struct msghdr msg;
	size_t have = pb->end - pb->start, room;
	ssize_t n;
	int r;

	if (pb->eof)
		return 0;
	r = make_room(pb, need);
	if (r < 0)
		return r;
	room = pb->cap - pb->end;
	/* with fds waiting for their header's read, only the rest of the
	 * structure waited for: the next message's fds must not pile up */
	if (pb->n_fds && need > have && need - have < room)
		room = need - have;
	else if (pb->n_fds && need <= have)
		return -EAGAIN;
	iov = (struct iovec){ .iov_base = pb->buf + pb->end, .iov_len = room };
	msg = (struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			       .msg_controllen = sizeof(ctl.buf) };
	do
		n = recvmsg(c->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : errno == ECONNRESET ? -EPIPE : -errno;
	r = keep_fds(pb, &msg, pb->pos + have);
	if (r < 0)
		return r;
	if (n == 0)
		pb->eof = true;
	pb->end += (size_t)n;
	return n;
}

size_t bc__rpc_pollbuf_have(const struct rpc_conn *c, const uint8_t **data)
{
	const struct pollbuf *pb = pb_of(c);

	if (data)
		*data = pb->buf + pb->start;
	return pb->end - pb->start;
}

bool bc__rpc_pollbuf_eof(const struct rpc_conn *c)
{
	return pb_of(c)->eof;
}

/* Nothing buffered and more wanted: wait, bounded, for the peer. */
static int wait_more(struct rpc_conn *c, struct pollbuf *pb)
{
	struct pollfd p = { .fd = c->fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, pb->wait_ms ? (int)pb->wait_ms : -1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == 0 ? -ETIMEDOUT : 0;
}

static ssize_t pollbuf_read(struct rpc_conn *c, void *buf, size_t len, struct rx_fds *rx)
{
	struct pollbuf *pb = pb_of(c);
	size_t n, kept = 0;

	while (pb->start == pb->end) {
		ssize_t got;
		int r;

		if (pb->eof)
			return 0;
		r = wait_more(c, pb);
		if (r < 0)
			return r;
		got = bc__rpc_pollbuf_fill(c, len);
		if (got < 0 && got != -EAGAIN)
			return got;
	}
	n = pb->end - pb->start < len ? pb->end - pb->start : len;
	memcpy(buf, pb->buf + pb->start, n);
	/* the fds that came with these bytes: the reader's if it takes fds */
	for (size_t i = 0; i < pb->n_fds; i++) {
		if (pb->fd_at[i] >= pb->pos + n) {
			pb->fd[kept] = pb->fd[i];
			pb->fd_at[kept++] = pb->fd_at[i];
		} else if (rx && rx->n < BC_RPC_MAX_FDS) {
			rx->fd[rx->n++] = pb->fd[i];
		} else {
			close(pb->fd[i]);
		}
	}
	pb->n_fds = kept;
	pb->start += n;
	pb->pos += n;
	return (ssize_t)n;
}

static int pollbuf_sendv(struct rpc_conn *c, struct iovec *iov, size_t n, const int *fds, size_t n_fds)
{
	return pb_of(c)->inner->sendv(c, iov, n, fds, n_fds);
}

static bool pollbuf_buffered(const struct rpc_conn *c)
{
	return pb_of(c)->end > pb_of(c)->start;
}

static void pollbuf_close(struct rpc_conn *c)
{
	struct pollbuf *pb = pb_of(c);

	while (pb->n_fds)
		close(pb->fd[--pb->n_fds]);
	c->ops = pb->inner;
	c->polled = NULL;
	free(pb->buf);
	free(pb);
	if (c->ops->close)
		c->ops->close(c);
}

static const struct rpc_conn_ops pollbuf_ops = {
	.sendv = pollbuf_sendv,
	.read = pollbuf_read,
	.buffered = pollbuf_buffered,
	.close = pollbuf_close,
};

int bc__rpc_pollbuf_attach(struct rpc_conn *c, unsigned wait_ms)
{
	struct timeval tv = { .tv_sec = wait_ms / 1000, .tv_usec = (suseconds_t)(wait_ms % 1000) * 1000 };
	struct pollbuf *pb;

	/* a blocked write (a client that reads nothing) gives up too */
	if (setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	pb = calloc(1, sizeof(*pb));
	if (!pb)
		return -ENOMEM;
	pb->inner = c->ops;
	pb->wait_ms = wait_ms;
	c->polled = pb;
	c->ops = &pollbuf_ops;
	return 0;
}
