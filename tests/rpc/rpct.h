/* SPDX-License-Identifier: MIT */
/* Helpers of the RPC binder host tests: a server thread on one end of a
 * socketpair, and a small adder service as its root object. */
#ifndef BINDERC_RPCT_H
#define BINDERC_RPCT_H

#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/rpc.h>

#include "harness.h"

#define RPCT_DESCRIPTOR "org.binderc.test.IAdder"
#define RPCT_ADD 1	  /* int32 a, int32 b -> int32 a + b */
#define RPCT_FAIL 2	  /* -> status -EPERM */
#define RPCT_RECORD 3	  /* oneway int32 v: remembered */
#define RPCT_GET_RECORD 4 /* -> the last int32 recorded */
#define RPCT_SEND_BINDER 5 /* -> a binder object in the reply */
#define RPCT_CALL_BACK 6   /* binder cb, int32 x -> what cb's code 1 answers to x */
#define RPCT_FD 7	   /* fd: 4 bytes read from it -> those bytes, and an fd to read "pong" from */
#define RPCT_WHO 8	   /* -> int32 calling pid, int32 calling euid */
#define RPCT_KEEP 9	   /* binder: kept in the adder's @kept */
#define RPCT_RELAY 10	   /* int32 a, int32 b -> RPCT_ADD on the adder's @other */

struct rpct_adder {
	atomic_int recorded;
	atomic_int destroyed;
	bc_binder *self;
	bc_binder *kept;  /* RPCT_KEEP's (the test drops it) */
	bc_binder *other; /* RPCT_RELAY's target (the test's) */
};

static inline int rpct_add(bc_binder *b, int32_t x, int32_t y, int32_t *sum);

static inline int rpct_on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
				   void *userdata)
{
	struct rpct_adder *a = userdata;
	int32_t x = 0, y = 0;
	int r;

	switch (code) {
	case RPCT_ADD:
		r = bc_parcel_read_int32(in, &x);
		if (r == 0)
			r = bc_parcel_read_int32(in, &y);
		/* wrapping, as a peer may send anything */
		return r < 0 ? r : bc_parcel_write_int32(reply, (int32_t)((uint32_t)x + (uint32_t)y));
	case RPCT_FAIL:
		return -EPERM;
	case RPCT_RECORD:
		r = bc_parcel_read_int32(in, &x);
		if (r == 0)
			atomic_store(&a->recorded, x);
		return r;
	case RPCT_WHO:
		r = bc_parcel_write_int32(reply, (int32_t)bc_txn_get_calling_pid(txn));
		return r < 0 ? r : bc_parcel_write_int32(reply, (int32_t)bc_txn_get_calling_euid(txn));
	case RPCT_KEEP:
		if (a->kept)
			return -EBUSY;
		return bc_parcel_read_binder(in, &a->kept);
	case RPCT_RELAY:
		r = bc_parcel_read_int32(in, &x);
		if (r == 0)
			r = bc_parcel_read_int32(in, &y);
		if (r == 0)
			r = a->other ? rpct_add(a->other, x, y, &x) : -EINVAL;
		return r < 0 ? r : bc_parcel_write_int32(reply, x);
	case RPCT_GET_RECORD:
		return bc_parcel_write_int32(reply, atomic_load(&a->recorded));
	case RPCT_SEND_BINDER:
		return bc_parcel_write_binder(reply, self);
	case RPCT_FD: {
		char buf[4];
		int fd = -1, pfd[2];

		r = bc_parcel_read_fd(in, &fd);
		if (r < 0)
			return r;
		if (read(fd, buf, 4) != 4)
			return -EIO;
		r = bc_parcel_write_raw(reply, buf, 4);
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
	}
	case RPCT_CALL_BACK: {
		/* a call back into the caller while its call waits: nested, on
		 * the same connection */
		bc_binder *cb = NULL;
		bc_parcel *d = NULL, *rep = NULL;

		r = bc_parcel_read_binder(in, &cb);
		if (r == 0)
			r = bc_parcel_read_int32(in, &x);
		if (r == 0 && !cb)
			r = -EINVAL;
		if (r == 0)
			r = bc_binder_new_parcel(cb, &d);
		if (r == 0)
			r = bc_parcel_write_int32(d, x);
		if (r == 0)
			r = bc_binder_transact(cb, 1, d, &rep, 0, NULL);
		if (r == 0)
			r = bc_parcel_read_int32(rep, &y);
		if (r == 0)
			r = bc_parcel_write_int32(reply, y);
		bc_parcel_unref(d);
		bc_parcel_unref(rep);
		bc_binder_unref(cb);
		return r;
	}
	default:
		return -EBADMSG;
	}
}

static inline void rpct_on_destroy(void *userdata)
{
	struct rpct_adder *a = userdata;

	atomic_fetch_add(&a->destroyed, 1);
}

/* A new adder object (its first reference in a->self). */
static inline void rpct_adder_new(struct rpct_adder *a)
{
	bc_class *c = NULL;

	memset(a, 0, sizeof(*a));
	cr_assert_eq(bc_class_new(RPCT_DESCRIPTOR, rpct_on_transact, rpct_on_destroy, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, a, &a->self), 0);
	bc_class_unref(c);
}

/* A server serving one connection on a thread. */
struct rpct_server {
	bc_rpc_server *srv;
	int fd;
	int result;
	pthread_t thread;
};

static inline void *rpct_serve_main(void *arg)
{
	struct rpct_server *t = arg;

	t->result = bc_rpc_server_serve_fd(t->srv, t->fd);
	return NULL;
}

/* Start serving @root (may be NULL) at version cap @cap; *@client_fd is
 * the other end. */
static inline void rpct_server_start(struct rpct_server *t, bc_binder *root, uint32_t cap, int *client_fd)
{
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_server_new(root, &t->srv), 0);
	cr_assert_eq(bc_rpc_server_set_max_version(t->srv, cap), 0);
	t->fd = sv[1];
	t->result = 1;
	cr_assert_eq(pthread_create(&t->thread, NULL, rpct_serve_main, t), 0);
	*client_fd = sv[0];
}

/* Wait for the server thread; its result. */
static inline int rpct_server_join(struct rpct_server *t)
{
	cr_assert_eq(pthread_join(t->thread, NULL), 0);
	bc_rpc_server_unref(t->srv);
	return t->result;
}

/* A call of RPCT_ADD on @b: a + b, or the error. */
static inline int rpct_add(bc_binder *b, int32_t x, int32_t y, int32_t *sum)
{
	bc_parcel *data = NULL, *reply = NULL;
	int r;

	cr_assert_eq(bc_parcel_new(&data), 0);
	cr_assert_eq(bc_parcel_write_int32(data, x), 0);
	cr_assert_eq(bc_parcel_write_int32(data, y), 0);
	r = bc_binder_transact(b, RPCT_ADD, data, &reply, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_int32(reply, sum);
	bc_parcel_unref(data);
	bc_parcel_unref(reply);
	return r;
}

/* The usual start of a test: an adder served at version cap @cap (fds
 * allowed when @flags has BINDERC_RPC_FDS) on one end of a socketpair, a
 * client session proposing @version with @flags on the other, and the
 * server's root in *@root. */
static inline void rpct_session_start(struct rpct_adder *a, struct rpct_server *t, uint32_t cap, uint32_t version,
				      unsigned flags, bc_rpc_session **s, bc_binder **root)
{
	int fd;

	rpct_adder_new(a);
	rpct_server_start(t, a->self, cap, &fd);
	if (flags & BINDERC_RPC_FDS)
		cr_assert_eq(bc_rpc_server_set_fds(t->srv, true), 0);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, version, flags, s), 0);
	cr_assert_eq(bc_rpc_session_get_root(*s, root), 0);
}

/* The usual end: the root dropped (the server, given its object back,
 * ends the session cleanly), then the session and the adder, which is
 * destroyed: nothing kept it. */
static inline void rpct_session_stop(struct rpct_adder *a, struct rpct_server *t, bc_rpc_session *s, bc_binder *root)
{
	bc_binder_unref(root);
	cr_assert_eq(rpct_server_join(t), 0);
	bc_rpc_session_unref(s);
	bc_binder_unref(a->self);
	cr_assert_eq(atomic_load(&a->destroyed), 1);
}

/* ---- a server joined on a listening socket ---- */

struct joiner {
	bc_rpc_server *srv;
	int lfd;
	int result;
	pthread_t thread;
};

static inline void *join_main(void *arg)
{
	struct joiner *j = arg;

	j->result = bc_rpc_server_join(j->srv, j->lfd);
	return NULL;
}

/* A server of @root joined (bc_rpc_server_join) on a fresh abstract
 * unix address, written to @addr; at most @max_sessions (0: default). */
static inline void joiner_start(struct joiner *j, bc_binder *root, unsigned max_sessions, char *addr, size_t size)
{
	static atomic_int seq;

	memset(j, 0, sizeof(*j));
	snprintf(addr, size, "unix-abstract:binderc-listen-%d-%d", (int)getpid(), atomic_fetch_add(&seq, 1));
	cr_assert_eq(bc_rpc_listen(addr, 0, &j->lfd), 0);
	cr_assert_eq(bc_rpc_server_new(root, &j->srv), 0);
	if (max_sessions)
		cr_assert_eq(bc_rpc_server_set_max_sessions(j->srv, max_sessions), 0);
	j->result = 1;
	cr_assert_eq(pthread_create(&j->thread, NULL, join_main, j), 0);
}

static inline int joiner_stop(struct joiner *j)
{
	bc_rpc_server_shutdown(j->srv);
	cr_assert_eq(pthread_join(j->thread, NULL), 0);
	close(j->lfd);
	bc_rpc_server_unref(j->srv);
	return j->result;
}

#endif
