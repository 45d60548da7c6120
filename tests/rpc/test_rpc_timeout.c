/* SPDX-License-Identifier: MIT */
/*
 * A client's bounded set-up: a server that accepts and then stays
 * silent (one end of a socketpair nobody answers on) makes
 * bc_rpc_session_connect_fd() and an incoming join give up with
 * -ETIMEDOUT instead of hanging.  The timeouts are short so that the
 * tests are quick; they assert the error, never the time it took.
 */
#include <time.h>

#include "rpcraw.h"

/* Short, but the silent peer never answers however long we wait. */
#define SHORT_MS 20u

/* The first bytes of a client's set-up, sent to the silent peer: its
 * connection header. */
static void assert_header_sent(int fd)
{
	uint8_t b[BC_RPC_CONN_HEADER_SIZE];
	struct bc_rpc_conn_header h;

	cr_assert_eq(read(fd, b, sizeof(b)), (ssize_t)sizeof(b));
	cr_assert_eq(bc__rpc_conn_header_decode(b, &h), 0);
}

Test(rpc_timeout, connect_to_silent_peer)
{
	bc_rpc_session *s = NULL;
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	bc_rpc_client_set_setup_timeout(SHORT_MS);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_1, 0, &s), -ETIMEDOUT);
	cr_assert_null(s);
	assert_header_sent(sv[1]);
	close(sv[1]);
}

/* The answer to the header comes, the replies to the first calls never:
 * the wait for a reply is bounded too. */
Test(rpc_timeout, silent_after_answer)
{
	uint8_t b[BC_RPC_NEW_SESSION_RESPONSE_SIZE];
	bc_rpc_session *s = NULL;
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	bc__rpc_new_session_response_encode(BINDERC_RPC_VERSION_1, b);
	cr_assert_eq(write(sv[1], b, sizeof(b)), (ssize_t)sizeof(b));
	bc_rpc_client_set_setup_timeout(SHORT_MS);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_1, 0, &s), -ETIMEDOUT);
	cr_assert_null(s);
	close(sv[1]);
}

/* An incoming join the server never answers fails alone: the session
 * goes on serving calls. */
Test(rpc_timeout, incoming_join_to_silent_peer)
{
	struct rpct_server t;
	struct rpct_adder a;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int sv[2];
	int32_t sum = 0;

	/* the real server's set-up is not bounded here: the host may be slow */
	bc_rpc_client_set_setup_timeout(0);
	rpct_session_start(&a, &t, BINDERC_RPC_VERSION_1, BINDERC_RPC_VERSION_1, 0, &s, &root);
	cr_assert_eq(bc_rpc_session_set_setup_timeout(s, SHORT_MS), 0);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_session_join_fd(s, sv[0], true), -ETIMEDOUT);
	assert_header_sent(sv[1]);
	close(sv[1]);
	cr_assert_eq(bc_rpc_session_get_error(s), 0);
	cr_assert_eq(rpct_add(root, 2, 3, &sum), 0);
	cr_assert_eq(sum, 5);
	rpct_session_stop(&a, &t, s, root);
}

/* The peer of lifted_after_setup: it reads the client's GET_ROOT call,
 * lets more than the set-up timeout pass, then answers it. */
static void *late_answer_main(void *arg)
{
	int fd = *(int *)arg;
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE], body[256];
	struct bc_rpc_wire_header h;
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 20 * (long)SHORT_MS * 1000000 };
	struct raw r = { .n = 0 };

	/* not synchronisation: the call has been read, so the client waits
	 * on its reply; this only makes the wait outlast the timeout */
	cr_assert_eq(read(fd, hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
	cr_assert_eq(bc__rpc_wire_header_decode(hdr, &h), 0);
	cr_assert_eq(h.command, BC_RPC_CMD_TRANSACT);
	cr_assert_leq(h.body_size, sizeof(body));
	cr_assert_eq(read(fd, body, h.body_size), (ssize_t)h.body_size);
	nanosleep(&ts, NULL);
	raw_reply(&r, BINDERC_RPC_VERSION_1, 0, NULL, 0);
	cr_assert_eq(write(fd, r.b, r.n), (ssize_t)r.n);
	return NULL;
}

/* The bound is on the set-up only: a session keeps none once set up, so
 * a reply that comes later than the timeout is still taken.  (The whole
 * set-up is written before the client reads, so that it fits any
 * timeout however slow the host.) */
Test(rpc_timeout, lifted_after_setup)
{
	uint8_t skip[BC_RPC_CONN_HEADER_SIZE + BC_RPC_CONN_INIT_SIZE];
	struct raw r = { .n = 0 };
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	pthread_t th;
	int sv[2];

	raw_server_setup(&r, BINDERC_RPC_VERSION_1);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(write(sv[1], r.b, r.n), (ssize_t)r.n);
	bc_rpc_client_set_setup_timeout(1);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_1, 0, &s), 0);
	/* the client's header and "cci", then its two set-up calls */
	cr_assert_eq(read(sv[1], skip, sizeof(skip)), (ssize_t)sizeof(skip));
	for (int i = 0; i < 2; i++) {
		uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE], body[256];
		struct bc_rpc_wire_header h;

		cr_assert_eq(read(sv[1], hdr, sizeof(hdr)), (ssize_t)sizeof(hdr));
		cr_assert_eq(bc__rpc_wire_header_decode(hdr, &h), 0);
		cr_assert_eq(read(sv[1], body, h.body_size), (ssize_t)h.body_size);
	}
	cr_assert_eq(pthread_create(&th, NULL, late_answer_main, &sv[1]), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_null(root); /* an empty answer: no root */
	cr_assert_eq(pthread_join(th, NULL), 0);
	cr_assert_eq(bc_rpc_session_get_error(s), 0);
	bc_rpc_session_unref(s);
	close(sv[1]);
}

Test(rpc_timeout, arguments)
{
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	int fd;

	cr_assert_eq(bc_rpc_session_set_setup_timeout(NULL, 1), -EINVAL);
	/* the default bounds a real server's set-up generously */
	rpct_server_start(&t, NULL, BINDERC_RPC_VERSION_1, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_1, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_set_setup_timeout(s, 0), 0);
	bc_rpc_session_unref(s);
	cr_assert_eq(rpct_server_join(&t), 0);
}
