// SPDX-License-Identifier: MIT
/*
 * binderc-bench: the non-binder contenders.
 *
 *  pipe    two pipes (request, reply) of the default size
 *  socket  an AF_UNIX SOCK_STREAM socketpair (SCM_RIGHTS for the fd row)
 *  futex   shared memory and FUTEX_WAIT/FUTEX_WAKE: the floor for a
 *          synchronous round trip (the payload is copied once, into the
 *          shared area, as binder copies it once into the target mapping)
 *
 * On pipe and socket a message is an 8-byte header {code, len} followed by
 * len payload bytes; a reply is a bare header.  The server reads each
 * message completely (one read for the header, then the payload).
 */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

enum { M_CALL = 1, M_ONEWAY = 2, M_FD = 3 };

struct msg_hdr {
	uint32_t code;
	uint32_t len;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int writev_full(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (uint8_t *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

/* ---- pipe and socket: common server loop --------------------------------- */

/* Read one message header, taking an SCM_RIGHTS fd along if there is one. */
static int stream_read_hdr(int fd, bool sock, struct msg_hdr *h, int *rfd)
{
	*rfd = -1;
	if (!sock)
		return read_full(fd, h, sizeof(*h));
	union {
		struct cmsghdr c;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov = { h, sizeof(*h) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cm.buf,
			    .msg_controllen = sizeof(cm.buf) };
	ssize_t n;

	do
		n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EPIPE;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(rfd, CMSG_DATA(c), sizeof(int));
	if ((size_t)n < sizeof(*h))
		return read_full(fd, (uint8_t *)h + n, sizeof(*h) - (size_t)n);
	return 0;
}

static int stream_serve(int rfd, int wfd, bool sock, const struct workload *w, int ready_fd, int done_fd)
{
	uint8_t *buf = malloc(bench_payload_size ? bench_payload_size : 1);
	long oneways = 0;
	int r;

	if (!buf)
		return bench_fail(-ENOMEM, "server: out of memory");
	if ((r = write_full(ready_fd, "r", 1)) < 0)
		return r;
	for (;;) {
		struct msg_hdr h;
		int pfd;

		r = stream_read_hdr(rfd, sock, &h, &pfd);
		if (r == -EPIPE)
			return 0; /* client done */
		if (r < 0)
			return bench_fail(r, "server: read: %s", strerror(-r));
		if (pfd >= 0)
			close(pfd);
		if (h.len > bench_payload_size)
			return bench_fail(-EPROTO, "server: message of %u bytes", h.len);
		if (h.len && (r = read_full(rfd, buf, h.len)) < 0)
			return bench_fail(r, "server: read payload: %s", strerror(-r));
		if (h.code == M_ONEWAY) {
			if (++oneways == w->iters && done_fd >= 0 && (r = write_full(done_fd, "d", 1)) < 0)
				return r;
			continue;
		}
		struct msg_hdr rep = { h.code, 0 };
		if ((r = write_full(wfd, &rep, sizeof(rep))) < 0)
			return bench_fail(r, "server: write reply: %s", strerror(-r));
	}
}

static int stream_send(int wfd, bool sock, uint32_t code, const struct workload *w, int passfd)
{
	struct msg_hdr h = { code, (uint32_t)w->payload };
	struct iovec iov[2] = { { &h, sizeof(h) }, { bench_payload, w->payload } };

	if (passfd >= 0) {
		union {
			struct cmsghdr c;
			char buf[CMSG_SPACE(sizeof(int))];
		} cm;
		memset(&cm, 0, sizeof(cm));
		struct msghdr m = { .msg_iov = iov, .msg_iovlen = 1, .msg_control = cm.buf,
				    .msg_controllen = sizeof(cm.buf) };
		cm.c.cmsg_level = SOL_SOCKET;
		cm.c.cmsg_type = SCM_RIGHTS;
		cm.c.cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(&cm.c), &passfd, sizeof(int));
		ssize_t n;
		do
			n = sendmsg(wfd, &m, 0);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			return -errno;
		if ((size_t)n < sizeof(h))
			return -EIO;
		return writev_full(wfd, iov + 1, 1);
	}
	(void)sock;
	return writev_full(wfd, iov, w->payload ? 2 : 1);
}

static int stream_call(int rfd, int wfd, bool sock, const struct workload *w, int passfd)
{
	struct msg_hdr rep;
	int r = stream_send(wfd, sock, passfd >= 0 ? M_FD : M_CALL, w, passfd);

	if (r < 0)
		return bench_fail(r, "client: write: %s", strerror(-r));
	if ((r = read_full(rfd, &rep, sizeof(rep))) < 0)
		return bench_fail(r, "client: read reply: %s", strerror(-r));
	return 0;
}

/* ---- pipe: fds = {req read (server), req write, rep read, rep write (server)} */

static int pipe_make(struct chan *c, const struct workload *w, int index)
{
	int a[2], b[2];

	(void)w;
	(void)index;
	if (pipe2(a, O_CLOEXEC) < 0)
		return bench_fail(-errno, "pipe: %s", strerror(errno));
	if (pipe2(b, O_CLOEXEC) < 0) {
		int e = errno;
		close(a[0]);
		close(a[1]);
		return bench_fail(-e, "pipe: %s", strerror(e));
	}
	c->fds[0] = a[0];
	c->fds[1] = a[1];
	c->fds[2] = b[0];
	c->fds[3] = b[1];
	return 0;
}

static int pipe_serve(struct chan *c, const struct workload *w, int ready_fd, int done_fd)
{
	close_fd(&c->fds[1]);
	close_fd(&c->fds[2]);
	return stream_serve(c->fds[0], c->fds[3], false, w, ready_fd, done_fd);
}

static int pipe_connect(struct chan *c, const struct workload *w)
{
	(void)w;
	close_fd(&c->fds[0]);
	close_fd(&c->fds[3]);
	return 0;
}

static int pipe_call(struct chan *c, const struct workload *w)
{
	return stream_call(c->fds[2], c->fds[1], false, w, -1);
}

static int pipe_oneway(struct chan *c, const struct workload *w)
{
	int r = stream_send(c->fds[1], false, M_ONEWAY, w, -1);
	return r < 0 ? bench_fail(r, "client: write: %s", strerror(-r)) : 0;
}

static void chan_close_all(struct chan *c)
{
	for (int i = 0; i < 4; i++)
		close_fd(&c->fds[i]);
}

const struct ipc_ops ipc_pipe = {
	.name = "pipe",
	.can_oneway = true,
	.make = pipe_make,
	.serve = pipe_serve,
	.connect = pipe_connect,
	.call = pipe_call,
	.send_oneway = pipe_oneway,
	.close = chan_close_all,
};

/* ---- socket: fds = {server end, client end, fd to pass, -1} --------------- */

static int sock_make(struct chan *c, const struct workload *w, int index)
{
	int sv[2];

	(void)index;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return bench_fail(-errno, "socketpair: %s", strerror(errno));
	c->fds[0] = sv[1];
	c->fds[1] = sv[0];
	if (w->fd && (c->fds[2] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		return bench_fail(-errno, "open /dev/null: %s", strerror(errno));
	return 0;
}

static int sock_serve(struct chan *c, const struct workload *w, int ready_fd, int done_fd)
{
	close_fd(&c->fds[1]);
	close_fd(&c->fds[2]);
	return stream_serve(c->fds[0], c->fds[0], true, w, ready_fd, done_fd);
}

static int sock_connect(struct chan *c, const struct workload *w)
{
	(void)w;
	close_fd(&c->fds[0]);
	return 0;
}

static int sock_call(struct chan *c, const struct workload *w)
{
	return stream_call(c->fds[1], c->fds[1], true, w, w->fd ? c->fds[2] : -1);
}

static int sock_oneway(struct chan *c, const struct workload *w)
{
	int r = stream_send(c->fds[1], true, M_ONEWAY, w, -1);
	return r < 0 ? bench_fail(r, "client: write: %s", strerror(-r)) : 0;
}

const struct ipc_ops ipc_socket = {
	.name = "socket",
	.can_fd = true,
	.can_oneway = true,
	.make = sock_make,
	.serve = sock_serve,
	.connect = sock_connect,
	.call = sock_call,
	.send_oneway = sock_oneway,
	.close = chan_close_all,
};

/* ---- futex + shared memory ------------------------------------------------ */

struct fx_area {
	_Atomic uint32_t req; /* bumped by the client per request */
	uint32_t pad0[15];
	_Atomic uint32_t rep; /* set to req by the server when done */
	uint32_t pad1[15];
	uint32_t len;
	uint32_t quit;
	uint32_t pad2[14];
	uint8_t data[]; /* 64-byte aligned */
};

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}

/* Wait until *@addr != @old. */
static int fx_wait_change(_Atomic uint32_t *addr, uint32_t old)
{
	while (atomic_load_explicit(addr, memory_order_acquire) == old)
		if (futex(addr, FUTEX_WAIT, old) < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
	return 0;
}

static int fx_make(struct chan *c, const struct workload *w, int index)
{
	(void)w;
	(void)index;
	c->shm_size = sizeof(struct fx_area) + bench_payload_size;
	c->shm = mmap(NULL, c->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->shm == MAP_FAILED) {
		c->shm = NULL;
		return bench_fail(-errno, "mmap shared: %s", strerror(errno));
	}
	return 0;
}

static int fx_serve(struct chan *c, const struct workload *w, int ready_fd, int done_fd)
{
	struct fx_area *a = c->shm;
	uint32_t seen = atomic_load(&a->req);
	int r;

	(void)w;
	(void)done_fd;
	if ((r = write_full(ready_fd, "r", 1)) < 0)
		return r;
	for (;;) {
		if ((r = fx_wait_change(&a->req, seen)) < 0)
			return bench_fail(r, "server: futex wait: %s", strerror(-r));
		seen = atomic_load_explicit(&a->req, memory_order_acquire);
		if (a->quit)
			return 0;
		atomic_store_explicit(&a->rep, seen, memory_order_release);
		futex(&a->rep, FUTEX_WAKE, 1);
	}
}

static int fx_connect(struct chan *c, const struct workload *w)
{
	(void)c;
	(void)w;
	return 0;
}

static int fx_call(struct chan *c, const struct workload *w)
{
	struct fx_area *a = c->shm;
	uint32_t seq = atomic_load_explicit(&a->req, memory_order_relaxed) + 1;
	int r;

	if (w->payload)
		memcpy(a->data, bench_payload, w->payload);
	a->len = (uint32_t)w->payload;
	atomic_store_explicit(&a->req, seq, memory_order_release);
	futex(&a->req, FUTEX_WAKE, 1);
	while (atomic_load_explicit(&a->rep, memory_order_acquire) != seq)
		if ((r = fx_wait_change(&a->rep, seq - 1)) < 0)
			return bench_fail(r, "client: futex wait: %s", strerror(-r));
	return 0;
}

static void fx_close(struct chan *c)
{
	struct fx_area *a = c->shm;

	if (!a)
		return;
	a->quit = 1;
	atomic_fetch_add(&a->req, 1);
	futex(&a->req, FUTEX_WAKE, 1);
	munmap(c->shm, c->shm_size);
	c->shm = NULL;
}

const struct ipc_ops ipc_futex = {
	.name = "futex",
	.make = fx_make,
	.serve = fx_serve,
	.connect = fx_connect,
	.call = fx_call,
	.close = fx_close,
};
