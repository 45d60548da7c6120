/* SPDX-License-Identifier: MIT */
/*
 * Running a device suite over RPC binder instead (issue 33: the same
 * suite on a second transport, on the host, with no module).  A suite's
 * helpers ask th_rpc() which transport to use: the binder device by
 * default, RPC when BINDERC_TEST_TRANSPORT=rpc or when built with
 * -DTH_RPC_DEFAULT (the host builds: BINDERC_TEST_TRANSPORT=kernel turns
 * it off).  Over RPC an object a suite would publish through its context
 * manager is instead the root of an RPC server on an abstract unix socket
 * named after the test process and the object, and a lookup connects a
 * session there.  Header only: host tests link no harness objects.
 */
#ifndef BINDERC_TH_RPC_H
#define BINDERC_TH_RPC_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/rpc.h>

#include "harness.h"

static inline bool th_rpc(void)
{
	const char *t = getenv("BINDERC_TEST_TRANSPORT");

#ifdef TH_RPC_DEFAULT
	return !t || strcmp(t, "kernel") != 0;
#else
	return t && strcmp(t, "rpc") == 0;
#endif
}

/* The socket of object @name published by the children of test process
 * @test_pid (abstract: nothing to clean up, nothing shared between tests). */
static inline void th_rpc_address(char *buf, size_t size, pid_t test_pid, const char *name)
{
	snprintf(buf, size, "unix-abstract:binderc-test.%d.%s", (int)test_pid, name);
}

/* A server of @root listening at @addr, as the device serves: fds
 * allowed, up to 8 threads per session.  *@ret_fd is its socket. */
static inline int th_rpc_server(bc_binder *root, const char *addr, bc_rpc_server **ret, int *ret_fd)
{
	int r;

	*ret = NULL;
	*ret_fd = -1;
	r = bc_rpc_listen(addr, 0, ret_fd);
	if (r == 0)
		r = bc_rpc_server_new(root, ret);
	if (r == 0)
		r = bc_rpc_server_set_fds(*ret, true);
	if (r == 0)
		r = bc_rpc_server_set_max_threads(*ret, 8);
	if (r < 0 && *ret_fd >= 0)
		close(*ret_fd);
	if (r < 0)
		*ret = bc_rpc_server_unref(*ret);
	return r;
}

struct th_rpc_serving {
	bc_rpc_server *srv;
	int fd;
};

static inline void *th_rpc_serve_main(void *arg)
{
	struct th_rpc_serving *sv = arg;

	bc_rpc_server_join(sv->srv, sv->fd);
	return NULL;
}

/* th_rpc_server(), then serve it on a detached thread of its own until
 * the process ends. */
static inline int th_rpc_serve_in_background(bc_binder *root, const char *addr)
{
	struct th_rpc_serving *sv = malloc(sizeof(*sv));
	pthread_t th;
	int r = sv ? th_rpc_server(root, addr, &sv->srv, &sv->fd) : -ENOMEM;

	if (r == 0 && pthread_create(&th, NULL, th_rpc_serve_main, sv) != 0) {
		close(sv->fd);
		bc_rpc_server_unref(sv->srv);
		r = -EAGAIN;
	}
	if (r < 0) {
		free(sv);
		return r;
	}
	pthread_detach(th); /* @sv lives as long as the server */
	return 0;
}

/* A session to the server at @addr (waiting for it to listen: a
 * hang-catcher), with an incoming connection so that the server may call
 * the client's objects from threads of its own, as over the device. */
static inline int th_rpc_connect(const char *addr, bc_rpc_session **ret)
{
	int r;

	*ret = NULL;
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		r = bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_FDS, ret);
		if (r != -ECONNREFUSED || !th_nap_until(end))
			break;
	}
	if (r == 0)
		r = bc_rpc_session_join(*ret, addr, BINDERC_RPC_FDS, true);
	if (r < 0)
		*ret = bc_rpc_session_unref(*ret);
	return r;
}

#endif
