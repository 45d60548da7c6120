/* SPDX-License-Identifier: MIT */
/*
 * Commands of every size through a connection's read buffer (rpc_msg.c):
 * one read takes a command and whatever came after it, a command larger
 * than the buffer is read into one of its own, which the parcel of its
 * data takes.  Bodies around the buffer's size and the largest there is,
 * both ways, in calls nested in calls, with and without fd transport
 * (where each read stops at the command's end); the bytes must come back
 * as they went.
 */
#include <fcntl.h>
#include <stdlib.h>

#include "rpct.h"
#include "rpc_internal.h"

#define ECHO 1      /* raw bytes -> the same bytes */
#define CALL_ECHO 2 /* binder cb, int32 n -> ECHO of n bytes on cb, checked; -> int32 n */
#define FD_ECHO 3   /* fd, raw bytes -> the same bytes, and an fd to read "pong" from */

/* The byte at @i of a payload of @n bytes: differs from call to call. */
static uint8_t pattern(size_t n, size_t i)
{
	return (uint8_t)(i * 7u + n);
}

static void fill(uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = pattern(n, i);
}

static bool same(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != pattern(n, i))
			return false;
	return true;
}

static int echo_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	size_t n = bc_parcel_size(in);
	const void *got = NULL;
	bc_binder *cb = NULL;
	bc_parcel *d = NULL, *rep = NULL;
	uint8_t *buf;
	char ping[4];
	int32_t len = 0;
	int fd = -1, pfd[2], r;

	(void)self;
	(void)txn;
	(void)ud;
	switch (code) {
	case ECHO:
		/* (nothing for 0: a parcel without a buffer yet) */
		return n ? bc_parcel_write_raw(reply, bc_parcel_data(in), n) : 0;
	case CALL_ECHO:
		r = bc_parcel_read_binder(in, &cb);
		if (r == 0)
			r = bc_parcel_read_int32(in, &len);
		if (r == 0 && (!cb || len < 0))
			r = -EINVAL;
		buf = malloc(len > 0 ? (size_t)len : 1);
		if (r == 0 && !buf)
			r = -ENOMEM;
		if (r == 0) {
			fill(buf, (size_t)len);
			r = bc_binder_new_parcel(cb, &d);
		}
		if (r == 0 && len)
			r = bc_parcel_write_raw(d, buf, (size_t)len);
		/* nested: on the connection this call came on */
		if (r == 0)
			r = bc_binder_transact(cb, ECHO, d, &rep, 0, NULL);
		if (r == 0 && (bc_parcel_size(rep) != (size_t)len || !same(bc_parcel_data(rep), (size_t)len)))
			r = -EBADMSG;
		if (r == 0)
			r = bc_parcel_write_int32(reply, len);
		free(buf);
		bc_parcel_unref(d);
		bc_parcel_unref(rep);
		bc_binder_unref(cb);
		return r;
	case FD_ECHO:
		r = bc_parcel_read_fd(in, &fd);
		if (r == 0 && read(fd, ping, 4) != 4)
			r = -EIO;
		n -= bc_parcel_get_position(in);
		if (r == 0)
			r = bc_parcel_read_raw(in, n, &got);
		if (r == 0 && n)
			r = bc_parcel_write_raw(reply, got, n);
		if (r == 0 && pipe(pfd) == 0) {
			if (write(pfd[1], "pong", 4) != 4)
				r = -EIO;
			close(pfd[1]);
			if (r == 0)
				r = bc_parcel_write_fd(reply, pfd[0], true);
			else
				close(pfd[0]);
		}
		return r;
	default:
		return -EBADMSG;
	}
}

static bc_binder *echo_new(void)
{
	bc_class *c = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new("org.binderc.test.IEcho", echo_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &b), 0);
	bc_class_unref(c);
	return b;
}

/* ECHO of @n bytes on @b: they come back as they went. */
static void echo(bc_binder *b, size_t n)
{
	uint8_t *buf = malloc(n ? n : 1);
	bc_parcel *d = NULL, *rep = NULL;
	int r;

	cr_assert(buf);
	fill(buf, n);
	cr_assert_eq(bc_binder_new_parcel(b, &d), 0);
	if (n)
		cr_assert_eq(bc_parcel_write_raw(d, buf, n), 0);
	r = bc_binder_transact(b, ECHO, d, &rep, 0, NULL);
	cr_assert_eq(r, 0, "%zu bytes: %d", n, r);
	cr_assert_eq(bc_parcel_size(rep), n, "%zu bytes", n);
	cr_assert(same(bc_parcel_data(rep), n), "%zu bytes came back changed", n);
	/* read-only, as any received parcel */
	cr_assert_lt(bc_parcel_write_int32(rep, 1), 0);
	bc_parcel_unref(d);
	bc_parcel_unref(rep);
	free(buf);
}

/* A request of this many data bytes fills the read buffer exactly. */
#define REQ_FITS (BC_RPC_RBUF_SIZE - BC_RPC_WIRE_HEADER_SIZE - BC_RPC_TRANSACTION_SIZE)
/* ... and a reply (version 1 on) */
#define REP_FITS (BC_RPC_RBUF_SIZE - BC_RPC_WIRE_HEADER_SIZE - BC_RPC_REPLY_SIZE)
/* The largest request (no object table). */
#define REQ_MAX (BC_RPC_MAX_BODY - BC_RPC_TRANSACTION_SIZE)

static const size_t sizes[] = {
	0,
	4,
	128,
	4096,
	REQ_FITS - 4,
	REQ_FITS,
	REQ_FITS + 4,
	REP_FITS - 4,
	REP_FITS,
	REP_FITS + 4,
	2 * BC_RPC_RBUF_SIZE,
	50000,
	65536,
	REQ_MAX & ~(size_t)3,
};
#define N_SIZES (sizeof(sizes) / sizeof(sizes[0]))

/* Every size, then small and large in turns (what a large one leaves in
 * the buffer, and what a small one's read brings of the next). */
static void echo_sizes(bc_binder *root)
{
	for (size_t i = 0; i < N_SIZES; i++)
		echo(root, sizes[i]);
	for (size_t i = 0; i < 2 * N_SIZES; i++)
		echo(root, i % 2 ? sizes[N_SIZES - 1 - i / 2] : sizes[i / 2]);
}

Test(rpc_stream, sizes)
{
	for (uint32_t v = 0; v <= 2; v++) {
		struct rpct_server t;
		bc_binder *echo_root = echo_new(), *root = NULL;
		bc_rpc_session *s = NULL;
		int fd;

		rpct_server_start(&t, echo_root, v, &fd);
		cr_assert_eq(bc_rpc_session_connect_fd(fd, v, 0, &s), 0);
		cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
		echo_sizes(root);
		bc_binder_unref(root);
		cr_assert_eq(rpct_server_join(&t), 0);
		bc_rpc_session_unref(s);
		bc_binder_unref(echo_root);
	}
}

/* The server calls the client back while the client's call waits: the
 * client's connection to call on reads a large command nested in its
 * call, and the server's answers it. */
Test(rpc_stream, nested)
{
	struct rpct_server t;
	bc_binder *echo_root = echo_new(), *cb = echo_new(), *root = NULL;
	bc_rpc_session *s = NULL;
	int fd;

	rpct_server_start(&t, echo_root, 2, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, 2, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	for (size_t i = 0; i < N_SIZES; i++) {
		bc_parcel *d = NULL, *rep = NULL;
		int32_t got = -1;
		int r;

		cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
		cr_assert_eq(bc_parcel_write_binder(d, cb), 0);
		/* (the reply is 20 bytes smaller than the request: the
		 * largest request is too large a reply by nothing) */
		cr_assert_eq(bc_parcel_write_int32(d, (int32_t)sizes[i]), 0);
		r = bc_binder_transact(root, CALL_ECHO, d, &rep, 0, NULL);
		cr_assert_eq(r, 0, "%zu bytes: %d", sizes[i], r);
		cr_assert_eq(bc_parcel_read_int32(rep, &got), 0);
		cr_assert_eq(got, (int32_t)sizes[i]);
		bc_parcel_unref(d);
		bc_parcel_unref(rep);
		echo(root, sizes[N_SIZES - 1 - i]);
	}
	bc_binder_unref(root);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_rpc_session_unref(s);
	bc_binder_unref(echo_root);
	bc_binder_unref(cb);
}

static int open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

/* With fd transport every read stops at its command's end: fds and large
 * bodies together, each fd where it was sent. */
Test(rpc_stream, fds)
{
	int before = open_fds();

	for (uint32_t v = 1; v <= 2; v++) {
		struct rpct_server t;
		bc_binder *echo_root = echo_new(), *root = NULL;
		bc_rpc_session *s = NULL;
		int fd;

		rpct_server_start(&t, echo_root, v, &fd);
		cr_assert_eq(bc_rpc_server_set_fds(t.srv, true), 0);
		cr_assert_eq(bc_rpc_session_connect_fd(fd, v, BINDERC_RPC_FDS, &s), 0);
		cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
		for (size_t i = 0; i < N_SIZES; i++) {
			size_t n = sizes[i] > REQ_MAX - 64 ? REQ_MAX - 64 : sizes[i];
			uint8_t *buf = malloc(n ? n : 1);
			bc_parcel *d = NULL, *rep = NULL;
			const void *got = NULL;
			char pong[4];
			int pfd[2], rfd = -1, r;

			cr_assert(buf);
			fill(buf, n);
			cr_assert_eq(pipe(pfd), 0);
			cr_assert_eq(write(pfd[1], "ping", 4), 4);
			close(pfd[1]);
			cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
			cr_assert_eq(bc_parcel_write_fd(d, pfd[0], true), 0);
			if (n)
				cr_assert_eq(bc_parcel_write_raw(d, buf, n), 0);
			r = bc_binder_transact(root, FD_ECHO, d, &rep, 0, NULL);
			cr_assert_eq(r, 0, "version %u, %zu bytes: %d", v, n, r);
			cr_assert_eq(bc_parcel_read_raw(rep, n, &got), 0);
			cr_assert(same(got, n), "%zu bytes came back changed", n);
			cr_assert_eq(bc_parcel_read_fd(rep, &rfd), 0);
			cr_assert_eq(read(rfd, pong, 4), 4);
			cr_assert(memcmp(pong, "pong", 4) == 0);
			bc_parcel_unref(d);
			bc_parcel_unref(rep);
			free(buf);
			/* and one without an fd between */
			echo(root, sizes[N_SIZES - 1 - i]);
		}
		bc_binder_unref(root);
		cr_assert_eq(rpct_server_join(&t), 0);
		bc_rpc_session_unref(s);
		bc_binder_unref(echo_root);
	}
	cr_assert_eq(open_fds(), before, "fds leaked");
}
