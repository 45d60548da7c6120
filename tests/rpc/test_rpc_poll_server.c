/* SPDX-License-Identifier: MIT */
/*
 * A server the program polls itself (bc_rpc_server_listen_polled): one
 * thread runs a plain poll() loop and every handler; the clients are the
 * test's other threads.  Two clients served side by side, a payload
 * larger than one read ahead, a oneway call, a handler's call back into
 * its client (nested, on the loop's thread), a client that stops halfway
 * through a command or sends a malformed one (only its session ends), a
 * set-up that never comes, the session limit, and a shutdown that ends
 * every session.
 */
#include <fcntl.h>
#include <poll.h>

#include "rpcraw.h"

#define LOOP_MAX_FDS 64

/* The program: a poll() loop over the server's fds and a pipe on which
 * the test asks it to shut the server down. */
struct loop {
	struct rpct_adder a;
	bc_rpc_server *srv;
	char addr[96];
	int lfd;
	int wake[2];
	pthread_t thread;
	int result; /* get_pollfds' last: -ESHUTDOWN at the end */
};

static pthread_t loop_thread, handler_thread;
static atomic_int handled;

static int on_transact_note_thread(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
				   void *userdata)
{
	handler_thread = pthread_self();
	atomic_fetch_add(&handled, 1);
	return rpct_on_transact(self, txn, code, in, reply, userdata);
}

static void *loop_main(void *arg)
{
	struct loop *l = arg;
	struct pollfd p[LOOP_MAX_FDS + 1];
	int n, timeout;

	loop_thread = pthread_self();
	while ((n = bc_rpc_server_get_pollfds(l->srv, p + 1, LOOP_MAX_FDS, &timeout)) >= 0) {
		cr_assert_leq(n, LOOP_MAX_FDS);
		p[0] = (struct pollfd){ .fd = l->wake[0], .events = POLLIN };
		if (poll(p, (nfds_t)n + 1, timeout) < 0) {
			cr_assert_eq(errno, EINTR);
			continue;
		}
		if (p[0].revents) {
			bc_rpc_server_shutdown(l->srv); /* from the loop's own thread */
			continue;
		}
		for (int i = 1; i <= n; i++) {
			int r;

			if (!p[i].revents)
				continue;
			r = bc_rpc_server_handle_polled(l->srv, p[i].fd);
			/* an fd gone with an earlier one's session: stale */
			cr_assert(r == 0 || r == -ENOENT, "handle_polled: %d", r);
		}
	}
	l->result = n;
	return NULL;
}

static void loop_start(struct loop *l, unsigned setup_ms, unsigned max_sessions)
{
	static atomic_int seq;
	bc_class *c = NULL;

	memset(l, 0, sizeof(*l));
	memset(&l->a, 0, sizeof(l->a));
	cr_assert_eq(bc_class_new(RPCT_DESCRIPTOR, on_transact_note_thread, rpct_on_destroy, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, &l->a, &l->a.self), 0);
	bc_class_unref(c);
	snprintf(l->addr, sizeof(l->addr), "unix-abstract:binderc-pollsrv-%d-%d", (int)getpid(),
		 atomic_fetch_add(&seq, 1));
	cr_assert_eq(bc_rpc_listen(l->addr, 0, &l->lfd), 0);
	cr_assert_eq(bc_rpc_server_new(l->a.self, &l->srv), 0);
	if (setup_ms)
		cr_assert_eq(bc_rpc_server_set_setup_timeout(l->srv, setup_ms), 0);
	if (max_sessions)
		cr_assert_eq(bc_rpc_server_set_max_sessions(l->srv, max_sessions), 0);
	cr_assert_eq(bc_rpc_server_listen_polled(l->srv, l->lfd), 0);
	cr_assert_eq(bc_rpc_server_listen_polled(l->srv, l->lfd), -EEXIST);
	cr_assert_eq(pipe2(l->wake, O_CLOEXEC), 0);
	l->result = 1;
	cr_assert_eq(pthread_create(&l->thread, NULL, loop_main, l), 0);
}

/* Shut the server down from its loop; the loop's last word. */
static int loop_stop(struct loop *l)
{
	cr_assert_eq(write(l->wake[1], "x", 1), 1);
	cr_assert_eq(pthread_join(l->thread, NULL), 0);
	close(l->wake[0]);
	close(l->wake[1]);
	close(l->lfd);
	bc_rpc_server_unref(l->srv);
	bc_binder_unref(l->a.self);
	/* every session gave its objects back: nothing holds the adder */
	cr_assert_eq(atomic_load(&l->a.destroyed), 1);
	return l->result;
}

static void connect_client(struct loop *l, bc_rpc_session **s, bc_binder **root)
{
	cr_assert_eq(bc_rpc_session_connect(l->addr, BINDERC_RPC_VERSION_DEFAULT, 0, s), 0);
	cr_assert_eq(bc_rpc_session_get_root(*s, root), 0);
	cr_assert_not_null(*root);
}

/* RPCT_ADD with @pad bytes after the two ints (ignored by the handler):
 * a command the server reads ahead in several pieces. */
static int add_padded(bc_binder *b, int32_t x, int32_t y, size_t pad, int32_t *sum)
{
	bc_parcel *d = NULL, *rep = NULL;
	uint8_t *junk = calloc(1, pad + 1);
	int r;

	cr_assert_not_null(junk);
	cr_assert_eq(bc_binder_new_parcel(b, &d), 0);
	cr_assert_eq(bc_parcel_write_int32(d, x), 0);
	cr_assert_eq(bc_parcel_write_int32(d, y), 0);
	cr_assert_eq(bc_parcel_write_raw(d, junk, pad), 0);
	r = bc_binder_transact(b, RPCT_ADD, d, &rep, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_int32(rep, sum);
	bc_parcel_unref(d);
	bc_parcel_unref(rep);
	free(junk);
	return r;
}

/* RPCT_RECORD @v, oneway. */
static void record(bc_binder *b, int32_t v)
{
	bc_parcel *d = NULL;

	cr_assert_eq(bc_binder_new_parcel(b, &d), 0);
	cr_assert_eq(bc_parcel_write_int32(d, v), 0);
	cr_assert_eq(bc_binder_transact(b, RPCT_RECORD, d, NULL, BINDERC_FLAG_ONEWAY, NULL), 0);
	bc_parcel_unref(d);
}

static int32_t get_record(bc_binder *b)
{
	bc_parcel *d = NULL, *rep = NULL;
	int32_t v = 0;

	cr_assert_eq(bc_binder_new_parcel(b, &d), 0);
	cr_assert_eq(bc_binder_transact(b, RPCT_GET_RECORD, d, &rep, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	bc_parcel_unref(d);
	bc_parcel_unref(rep);
	return v;
}

/* Both clients served by the one thread, and a clean end for each when
 * it drops the root (the server's session drained). */
Test(rpc_poll_server, two_clients_payload_oneway)
{
	struct loop l;
	bc_rpc_session *s1, *s2;
	bc_binder *r1, *r2;
	int32_t sum = 0;

	loop_start(&l, 0, 0);
	connect_client(&l, &s1, &r1);
	connect_client(&l, &s2, &r2);
	cr_assert_eq(rpct_add(r1, 40, 2, &sum), 0);
	cr_assert_eq(sum, 42);
	cr_assert(pthread_equal(handler_thread, loop_thread), "a handler ran off the loop's thread");
	cr_assert_eq(rpct_add(r2, 1, 2, &sum), 0);
	cr_assert_eq(sum, 3);
	/* a body of 60 KB: many reads ahead before it is whole */
	cr_assert_eq(add_padded(r2, 7, 8, 60000, &sum), 0);
	cr_assert_eq(sum, 15);
	cr_assert_eq(add_padded(r1, 9, 9, 99000, &sum), 0);
	cr_assert_eq(sum, 18);
	/* a oneway, then a call on the same connection: run in order */
	record(r1, 1234);
	cr_assert_eq(get_record(r1), 1234);
	record(r2, 99);
	cr_assert_eq(get_record(r2), 99);
	cr_assert(pthread_equal(handler_thread, loop_thread));
	/* a clean end of one leaves the other served */
	bc_binder_unref(r1);
	bc_rpc_session_unref(s1);
	cr_assert_eq(rpct_add(r2, 5, 5, &sum), 0);
	cr_assert_eq(sum, 10);
	bc_binder_unref(r2);
	bc_rpc_session_unref(s2);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
}

static int on_client_cb(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	int32_t x = 0;
	int r = bc_parcel_read_int32(in, &x);

	(void)self, (void)txn, (void)code, (void)u;
	return r < 0 ? r : bc_parcel_write_int32(reply, x * 3);
}

/* The handler calls the client's object that came in the call: the
 * nested call's reply is read on the loop's thread, on that connection. */
Test(rpc_poll_server, nested_call_back_into_client)
{
	struct loop l;
	bc_rpc_session *s;
	bc_binder *root, *cb = NULL;
	bc_parcel *d = NULL, *rep = NULL;
	bc_class *c = NULL;
	int32_t v = 0;

	loop_start(&l, 0, 0);
	connect_client(&l, &s, &root);
	cr_assert_eq(bc_class_new("org.binderc.test.ICb", on_client_cb, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &cb), 0);
	bc_class_unref(c);
	cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
	cr_assert_eq(bc_parcel_write_binder(d, cb), 0);
	cr_assert_eq(bc_parcel_write_int32(d, 14), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_CALL_BACK, d, &rep, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_assert_eq(v, 42);
	cr_assert(pthread_equal(handler_thread, loop_thread));
	bc_parcel_unref(d);
	bc_parcel_unref(rep);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(cb);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
}

/* A raw client: set up by hand (the server's answer read back), so that
 * it can stop anywhere. */
static int raw_client(struct loop *l)
{
	struct raw in = { .n = 0 };
	uint8_t resp[BC_RPC_NEW_SESSION_RESPONSE_SIZE];
	int fd;

	cr_assert_eq(bc_rpc_connect(l->addr, 0, &fd), 0);
	raw_client_setup(&in, 1);
	cr_assert_eq(write(fd, in.b, in.n), (ssize_t)in.n);
	cr_assert_eq(read(fd, resp, sizeof(resp)), (ssize_t)sizeof(resp));
	return fd;
}

/* What the server sends @fd until it closes it: true once it did (a
 * guard against a hang, not a timed verdict). */
static bool closed_by_server(int fd)
{
	char buf[256];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (poll(&p, 1, TH_HANG_MS) == 1) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			return n == 0 || errno == ECONNRESET;
	}
	return false;
}

/* Half a command holds nothing but its buffer: the other client is
 * served meanwhile; then its client goes, its session with it. */
Test(rpc_poll_server, half_a_command_then_gone)
{
	struct loop l;
	struct raw half = { .n = 0 };
	bc_rpc_session *s;
	bc_binder *root;
	int32_t sum = 0;
	int fd;

	loop_start(&l, 0, 0);
	fd = raw_client(&l);
	raw_transact(&half, 0, BC_RPC_SPECIAL_GET_MAX_THREADS, 0, 0, NULL, 0);
	cr_assert_eq(write(fd, half.b, 20), 20); /* its header and 4 bytes */
	connect_client(&l, &s, &root);
	atomic_store(&handled, 0);
	cr_assert_eq(rpct_add(root, 20, 22, &sum), 0);
	cr_assert_eq(sum, 42);
	cr_assert_eq(atomic_load(&handled), 1);
	/* the rest, then the end, mid-command */
	cr_assert_eq(write(fd, half.b + 20, half.n - 20), (ssize_t)(half.n - 20));
	{
		/* that command was answered: GET_MAX_THREADS' reply */
		uint8_t h[BC_RPC_WIRE_HEADER_SIZE];
		struct bc_rpc_wire_header wh;

		cr_assert_eq(read(fd, h, sizeof(h)), (ssize_t)sizeof(h));
		cr_assert_eq(bc__rpc_wire_header_decode(h, &wh), 0);
		cr_assert_eq(wh.command, BC_RPC_CMD_REPLY);
	}
	cr_assert_eq(write(fd, half.b, 10), 10);
	close(fd);
	cr_assert_eq(rpct_add(root, 1, 1, &sum), 0);
	cr_assert_eq(sum, 2);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
}

/* A malformed command ends its session (its socket closed by the
 * server), and only that one. */
Test(rpc_poll_server, malformed_stream)
{
	struct loop l;
	struct raw bad = { .n = 0 };
	bc_rpc_session *s;
	bc_binder *root;
	int32_t sum = 0;
	int fd;

	loop_start(&l, 0, 0);
	connect_client(&l, &s, &root);
	fd = raw_client(&l);
	raw_cmd(&bad, 99, 0); /* no such command */
	cr_assert_eq(write(fd, bad.b, bad.n), (ssize_t)bad.n);
	cr_assert(closed_by_server(fd));
	close(fd);
	/* a body beyond the cap: refused from its header alone */
	fd = raw_client(&l);
	bad.n = 0;
	raw_cmd(&bad, BC_RPC_CMD_TRANSACT, BC_RPC_MAX_BODY + 1);
	cr_assert_eq(write(fd, bad.b, bad.n), (ssize_t)bad.n);
	cr_assert(closed_by_server(fd));
	close(fd);
	/* a header that is no header */
	cr_assert_eq(bc_rpc_connect(l.addr, 0, &fd), 0);
	cr_assert_eq(write(fd, "GET / HTTP/1.1\r\n\r\n", 18), 18);
	cr_assert(closed_by_server(fd));
	close(fd);
	cr_assert_eq(rpct_add(root, 2, 3, &sum), 0);
	cr_assert_eq(sum, 5);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
}

/* A client that connects and says nothing is dropped at the set-up
 * timeout: get_pollfds' timeout wakes the loop for it. */
Test(rpc_poll_server, silent_setup_dropped)
{
	struct loop l;
	int fd;

	loop_start(&l, 50, 0);
	cr_assert_eq(bc_rpc_connect(l.addr, 0, &fd), 0);
	cr_assert(closed_by_server(fd));
	close(fd);
	/* and half a header is silence too */
	cr_assert_eq(bc_rpc_connect(l.addr, 0, &fd), 0);
	cr_assert_eq(write(fd, "\0\0\0\0", 4), 4);
	cr_assert(closed_by_server(fd));
	close(fd);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
}

/* At max_sessions, a new client's set-up fails; once one ends, a new
 * one is served. */
Test(rpc_poll_server, session_limit)
{
	struct loop l;
	bc_rpc_session *s1, *s2 = NULL;
	bc_binder *r1;
	int32_t sum = 0;

	loop_start(&l, 0, 1);
	connect_client(&l, &s1, &r1);
	cr_assert_eq(bc_rpc_session_connect(l.addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s2), -EPIPE);
	cr_assert_eq(rpct_add(r1, 1, 2, &sum), 0);
	bc_binder_unref(r1);
	bc_rpc_session_unref(s1);
	/* the ended session leaves the server's count when the loop sees
	 * its end: a retry may race that, the one after it may not */
	for (int64_t end = th_now_ms() + TH_HANG_MS; th_nap_until(end);) {
		if (bc_rpc_session_connect(l.addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s2) == 0)
			break;
	}
	cr_assert_not_null(s2);
	bc_rpc_session_unref(s2);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
}

static atomic_int deaths;

static void on_death(void *u)
{
	(void)u;
	atomic_fetch_add(&deaths, 1);
}

/* A shutdown ends every session: the clients' calls fail, their death
 * recipients run, and the server gave every object back. */
Test(rpc_poll_server, shutdown_ends_every_session)
{
	struct loop l;
	bc_rpc_session *s1, *s2;
	bc_binder *r1, *r2;
	bc_slot *d1 = NULL, *d2 = NULL;
	int32_t sum = 0;

	loop_start(&l, 0, 0);
	connect_client(&l, &s1, &r1);
	connect_client(&l, &s2, &r2);
	cr_assert_eq(rpct_add(r1, 1, 1, &sum), 0);
	cr_assert_eq(rpct_add(r2, 1, 1, &sum), 0);
	cr_assert_eq(bc_binder_link_to_death(r1, on_death, NULL, &d1), 0);
	cr_assert_eq(bc_binder_link_to_death(r2, on_death, NULL, &d2), 0);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN); /* the adder given back */
	cr_assert_neq(rpct_add(r1, 1, 1, &sum), 0);
	cr_assert_neq(rpct_add(r2, 1, 1, &sum), 0);
	for (int64_t end = th_now_ms() + TH_HANG_MS; atomic_load(&deaths) < 2 && th_nap_until(end);)
		;
	cr_assert_eq(atomic_load(&deaths), 2);
	bc_slot_unref(d1);
	bc_slot_unref(d2);
	bc_binder_unref(r1);
	bc_binder_unref(r2);
	bc_rpc_session_unref(s1);
	bc_rpc_session_unref(s2);
}

static void note_fd(void *u, int fd, bool add)
{
	atomic_int *n = u;

	(void)fd;
	atomic_fetch_add(n, add ? 1 : -1);
}

/* The misuses, and the callback an epoll loop would use. */
Test(rpc_poll_server, misuse_and_poll_fn)
{
	struct loop l;
	bc_rpc_server *srv = NULL;
	atomic_int n_fds = 0;
	bc_rpc_session *s;
	bc_binder *root;
	struct pollfd p;
	int t;

	cr_assert_eq(bc_rpc_server_new(NULL, &srv), 0);
	cr_assert_eq(bc_rpc_server_handle_polled(srv, 0), -ENOENT);
	cr_assert_eq(bc_rpc_server_get_pollfds(srv, &p, 1, &t), -ENOENT);
	cr_assert_eq(bc_rpc_server_handle_polled(NULL, 0), -EINVAL);
	cr_assert_eq(bc_rpc_server_listen_polled(srv, -1), -EINVAL);
	bc_rpc_server_shutdown(srv);
	cr_assert_eq(bc_rpc_server_listen_polled(srv, 0), -ESHUTDOWN);
	bc_rpc_server_unref(srv);

	loop_start(&l, 0, 0);
	cr_assert_eq(bc_rpc_server_handle_polled(l.srv, 12345), -ENOENT);
	cr_assert_eq(bc_rpc_server_set_poll_fn(l.srv, note_fd, &n_fds), 0);
	connect_client(&l, &s, &root);
	cr_assert_eq(atomic_load(&n_fds), 1);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(loop_stop(&l), -ESHUTDOWN);
	cr_assert_eq(atomic_load(&n_fds), 0);
}
