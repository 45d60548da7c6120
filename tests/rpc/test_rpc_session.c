/* SPDX-License-Identifier: MIT */
/*
 * RPC binder sessions over a socketpair: a client gets the server's root
 * object as an ordinary bc_binder and calls it; versions; references
 * given back when the proxy goes (the server then ends the session).
 */
#include <fcntl.h>

#include "rpct.h"

Test(rpc_session, root_calls)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_parcel *data = NULL, *reply = NULL;
	bc_error err;
	char *desc = NULL;
	int32_t v = 0;
	int fd;

	rpct_adder_new(&a);
	rpct_server_start(&t, a.self, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_version(s), 1);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_not_null(root);
	cr_assert(bc_binder_is_remote(root));
	cr_assert(bc_binder_is_alive(root));
	cr_assert_eq(bc_binder_get_stability(root), BINDERC_STABILITY_SYSTEM);
	cr_assert_eq(bc_binder_ping(root), 0);
	cr_assert_eq(bc_binder_get_interface(root, &desc), 0);
	cr_assert_str_eq(desc, RPCT_DESCRIPTOR);
	free(desc);
	cr_assert_eq(rpct_add(root, 2, 40, &v), 0);
	cr_assert_eq(v, 42);
	/* the caller's identity: the socketpair's peer (SO_PEERCRED), us */
	cr_assert_eq(bc_binder_transact(root, RPCT_WHO, NULL, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, (int32_t)getpid());
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, (int32_t)geteuid());
	reply = bc_parcel_unref(reply);
	/* the handler's status comes back as the remote's */
	cr_assert_eq(bc_binder_transact(root, RPCT_FAIL, NULL, &reply, 0, &err), -EPERM);
	cr_assert_eq(err.origin, BINDERC_ERROR_REMOTE);
	cr_assert_null(reply);
	cr_assert_eq(bc_binder_transact(root, 0x777, NULL, &reply, 0, NULL), -EBADMSG);
	/* oneway, then a sync call that sees it (one connection: in order) */
	cr_assert_eq(bc_parcel_new(&data), 0);
	cr_assert_eq(bc_parcel_write_int32(data, 1234), 0);
	for (int i = 0; i < 3; i++)
		cr_assert_eq(bc_binder_transact(root, RPCT_RECORD, data, NULL, BINDERC_FLAG_ONEWAY, NULL), 0);
	bc_parcel_unref(data);
	cr_assert_eq(bc_binder_transact(root, RPCT_GET_RECORD, NULL, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 1234);
	bc_parcel_unref(reply);
	/* the root inside a reply: the same address, so the same proxy */
	{
		bc_binder *again = NULL;

		cr_assert_eq(bc_binder_transact(root, RPCT_SEND_BINDER, NULL, &reply, 0, NULL), 0);
		cr_assert_eq(bc_parcel_read_binder(reply, &again), 0);
		cr_assert_eq(again, root);
		bc_binder_unref(again);
		bc_parcel_unref(reply);
	}
	cr_assert_eq(rpct_add(root, -1, 1, &v), 0);
	cr_assert_eq(v, 0);
	/* the proxy is no kernel object */
	cr_assert_eq(bc_parcel_new(&data), 0);
	cr_assert_lt(bc_parcel_write_binder(data, root), 0);
	bc_parcel_unref(data);
	/* The last proxy goes: DEC_STRONG, and the server, holding nothing
	 * for the client any more, ends the session. */
	bc_binder_unref(root);
	cr_assert_eq(rpct_server_join(&t), 0);
	cr_assert_eq(atomic_load(&a.destroyed), 0);
	cr_assert_eq(rpct_add(root = NULL, 1, 1, &v), -EINVAL);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
	cr_assert_eq(atomic_load(&a.destroyed), 1);
}

/* Every pair of a client's proposal and a server's cap meets at the
 * lower one, and calls work at it. */
Test(rpc_session, versions)
{
	for (uint32_t cv = 0; cv <= 2; cv++) {
		for (uint32_t sv = 0; sv <= 2; sv++) {
			struct rpct_adder a;
			struct rpct_server t;
			bc_rpc_session *s = NULL;
			bc_binder *root = NULL;
			int32_t v = 0;
			int fd;

			rpct_adder_new(&a);
			rpct_server_start(&t, a.self, sv, &fd);
			cr_assert_eq(bc_rpc_session_connect_fd(fd, cv, 0, &s), 0);
			cr_assert_eq(bc_rpc_session_get_version(s), cv < sv ? cv : sv);
			cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
			cr_assert_eq(rpct_add(root, 20, 3, &v), 0, "client %u server %u", cv, sv);
			cr_assert_eq(v, 23);
			rpct_session_stop(&a, &t, s, root);
		}
	}
}

/* One proxy per address: a second GET_ROOT gives the same object, and
 * both references go back together. */
Test(rpc_session, one_proxy_per_address)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *r1 = NULL, *r2 = NULL;
	int32_t v;

	rpct_session_start(&a, &t, 1, 1, 0, &s, &r1);
	cr_assert_eq(bc_rpc_session_get_root(s, &r2), 0);
	cr_assert_eq(r1, r2);
	bc_binder_unref(r2);
	cr_assert_eq(rpct_add(r1, 1, 2, &v), 0);
	bc_binder_unref(r1);
	cr_assert_eq(rpct_server_join(&t), 0);
	/* the server has gone: the session's next call says so */
	cr_assert_eq(bc_rpc_session_get_root(s, &r1), -EPIPE);
	cr_assert_eq(bc_rpc_session_get_error(s), -EPIPE);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
}

/* A server without a root answers GET_ROOT with a null binder; the
 * client closing ends the session cleanly. */
Test(rpc_session, no_root)
{
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = (bc_binder *)1;
	int fd;

	rpct_server_start(&t, NULL, 2, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, 2, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_version(s), 2);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_null(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(rpct_server_join(&t), 0);
}

/* A shut-down session fails its proxies' calls as a transport error. */
Test(rpc_session, shutdown)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_error err;
	int32_t v;

	rpct_session_start(&a, &t, 1, 1, 0, &s, &root);
	bc_rpc_session_shutdown(s);
	cr_assert(!bc_binder_is_alive(root));
	cr_assert_eq(bc_binder_transact(root, RPCT_ADD, NULL, NULL, 0, &err), -EPIPE);
	cr_assert_eq(err.origin, BINDERC_ERROR_TRANSPORT);
	cr_assert_eq(rpct_add(root, 1, 1, &v), -EPIPE);
	cr_assert_eq(bc_rpc_session_get_error(s), -ESHUTDOWN);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
	cr_assert_eq(atomic_load(&a.destroyed), 1);
}

/* The client's own object, sent in a call: the server calls it back
 * while the call waits (nested, on the one connection), and gives its
 * reference back, so the client's object goes when the client drops it. */
static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata)
{
	int32_t x = 0;
	int r = bc_parcel_read_int32(in, &x);

	(void)self;
	(void)txn;
	(void)userdata;
	if (code != 1)
		return -EBADMSG;
	return r < 0 ? r : bc_parcel_write_int32(reply, 2 * x);
}

static void cb_destroy(void *userdata)
{
	atomic_fetch_add((atomic_int *)userdata, 1);
}

/* A new callback object; *@gone counts its destruction. */
static bc_binder *cb_new(atomic_int *gone)
{
	bc_class *c = NULL;
	bc_binder *cb = NULL;

	cr_assert_eq(bc_class_new("org.binderc.test.ICallback", cb_transact, cb_destroy, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, gone, &cb), 0);
	bc_class_unref(c);
	return cb;
}

Test(rpc_session, nested_callback)
{
	for (uint32_t version = 0; version <= 2; version++) {
		struct rpct_adder a;
		struct rpct_server t;
		bc_rpc_session *s = NULL;
		bc_binder *root = NULL, *cb = NULL;
		bc_parcel *data = NULL, *reply = NULL;
		atomic_int cb_gone;
		int32_t v = 0;

		atomic_init(&cb_gone, 0);
		rpct_session_start(&a, &t, version, version, 0, &s, &root);
		cb = cb_new(&cb_gone);
		cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
		cr_assert_eq(bc_parcel_write_binder(data, cb), 0);
		cr_assert_eq(bc_parcel_write_int32(data, 21), 0);
		cr_assert_eq(bc_binder_transact(root, RPCT_CALL_BACK, data, &reply, 0, NULL), 0, "version %u", version);
		cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
		cr_assert_eq(v, 42);
		bc_parcel_unref(reply);
		bc_parcel_unref(data);
		cr_assert_eq(atomic_load(&cb_gone), 0);
		bc_binder_unref(cb);
		cr_assert_eq(atomic_load(&cb_gone), 1, "the session still holds the callback");
		rpct_session_stop(&a, &t, s, root);
	}
}

/* An RPC parcel takes no kernel objects, and a kernel proxy's parcel no
 * RPC proxy; an RPC parcel's interface token is the descriptor alone. */
Test(rpc_session, parcels)
{
	static const uint8_t token[] = { 3, 0, 0, 0, 'a', 0, 'b', 0, 'c', 0, 0, 0 };
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_parcel *p = NULL;
	bc_weak *w = NULL;

	rpct_session_start(&a, &t, 1, 1, 0, &s, &root);
	cr_assert_eq(bc_binder_new_parcel(root, &p), 0);
	cr_assert_eq(bc_parcel_write_interface_token(p, "abc"), 0);
	th_assert_bytes(bc_parcel_data(p), bc_parcel_size(p), token, sizeof(token));
	cr_assert_eq(bc_parcel_write_weak_binder(p, a.self), -EOPNOTSUPP);
	cr_assert_eq(bc_parcel_write_binder(p, NULL), 0); /* int32 0, stability 0 */
	cr_assert_eq(bc_parcel_size(p), sizeof(token) + 8);
	/* no fds in a session that did not ask for them */
	cr_assert_eq(bc_parcel_write_fd(p, 0, false), -EOPNOTSUPP);
	bc_parcel_unref(p);
	/* a kernel parcel's objects are not for this session */
	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_write_fd(p, 0, false), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_ADD, p, NULL, 0, NULL), -EXDEV);
	bc_parcel_unref(p);
	cr_assert_eq(bc_weak_new(root, &w), 0);
	bc_weak_unref(w);
	rpct_session_stop(&a, &t, s, root);
}

/* Several client threads share one session: their calls take turns on
 * the connection, and proxies dropped while another thread's call is in
 * flight give their references back when the connection is free. */
struct worker {
	bc_rpc_session *s;
	bc_binder *root;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < 200; i++) {
		bc_binder *again = NULL;
		int32_t v = 0;

		if (rpct_add(w->root, i, 1, &v) != 0 || v != i + 1)
			w->failures++;
		/* a second reference through GET_ROOT, dropped at once */
		if (i % 10 == 0) {
			if (bc_rpc_session_get_root(w->s, &again) != 0 || again != w->root)
				w->failures++;
			bc_binder_unref(again);
		}
	}
	return NULL;
}

Test(rpc_session, threads)
{
	struct rpct_adder a;
	struct rpct_server t;
	struct worker w[4];
	pthread_t th[4];
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;

	rpct_session_start(&a, &t, 1, 1, 0, &s, &root);
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ .s = s, .root = root };
		cr_assert_eq(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(pthread_join(th[i], NULL), 0);
		cr_assert_eq(w[i].failures, 0);
	}
	bc_binder_unref(root);
	/* the server ends the session only once every reference came back */
	cr_assert_eq(rpct_server_join(&t), 0);
	cr_assert_eq(bc_rpc_session_get_error(s), 0);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
	cr_assert_eq(atomic_load(&a.destroyed), 1);
}

/* An object the client sent and the server never gave back (it did not
 * read it) is held by the session until the session ends. */
Test(rpc_session, held_until_end)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *cb = NULL;
	bc_parcel *data = NULL, *reply = NULL;
	atomic_int cb_gone;

	atomic_init(&cb_gone, 0);
	rpct_session_start(&a, &t, 1, 1, 0, &s, &root);
	cb = cb_new(&cb_gone);
	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_int32(data, 1), 0);
	cr_assert_eq(bc_parcel_write_int32(data, 2), 0);
	cr_assert_eq(bc_parcel_write_binder(data, cb), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_ADD, data, &reply, 0, NULL), 0);
	bc_parcel_unref(reply);
	bc_parcel_unref(data);
	bc_binder_unref(cb);
	cr_assert_eq(atomic_load(&cb_gone), 0, "the server may still give it back");
	bc_rpc_session_shutdown(s);
	cr_assert_eq(atomic_load(&cb_gone), 1);
	rpct_session_stop(&a, &t, s, root);
}

/* How many fds this process has open. */
static int open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

/* Fds in parcels (fd mode UNIX): one each way, at versions 1 and 2; and
 * a server that does not take them. */
static void fd_roundtrip(uint32_t version)
{
	int before = open_fds();
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_parcel *data = NULL, *reply = NULL;
	const void *got = NULL;
	char buf[4];
	int pfd[2], rfd = -1;

	rpct_session_start(&a, &t, version, version, BINDERC_RPC_FDS, &s, &root);
	cr_assert_eq(pipe(pfd), 0);
	cr_assert_eq(write(pfd[1], "ping", 4), 4);
	close(pfd[1]);
	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_fd(data, pfd[0], false), 0); /* a duplicate is sent */
	close(pfd[0]);
	cr_assert_eq(bc_binder_transact(root, RPCT_FD, data, &reply, 0, NULL), 0, "version %u", version);
	cr_assert_eq(bc_parcel_read_raw(reply, 4, &got), 0);
	cr_assert(memcmp(got, "ping", 4) == 0);
	cr_assert_eq(bc_parcel_read_fd(reply, &rfd), 0);
	cr_assert_eq(read(rfd, buf, 4), 4);
	cr_assert(memcmp(buf, "pong", 4) == 0);
	/* read again: not at a listed position */
	cr_assert_eq(bc_parcel_set_position(reply, 0), 0);
	cr_assert_eq(bc_parcel_read_fd(reply, &rfd), -EBADMSG);
	bc_parcel_unref(reply); /* closes the fd */
	bc_parcel_unref(data);
	rpct_session_stop(&a, &t, s, root);
	cr_assert_eq(open_fds(), before, "fds leaked at version %u", version);
}

Test(rpc_session, fds)
{
	fd_roundtrip(1);
	fd_roundtrip(2);
}

Test(rpc_session, fds_refused)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_parcel *p = NULL;
	int fd;

	/* the server does not take them: it answers, then drops us */
	rpct_server_start(&t, NULL, 1, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, 1, BINDERC_RPC_FDS, &s), -EPIPE);
	cr_assert_eq(rpct_server_join(&t), -EOPNOTSUPP);
	/* at version 0 there is no table to list them */
	rpct_adder_new(&a);
	rpct_server_start(&t, a.self, 0, &fd);
	cr_assert_eq(bc_rpc_server_set_fds(t.srv, true), 0);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, 1, BINDERC_RPC_FDS, &s), 0);
	cr_assert_eq(bc_rpc_session_get_version(s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(bc_binder_new_parcel(root, &p), 0);
	cr_assert_eq(bc_parcel_write_fd(p, 0, false), -EOPNOTSUPP);
	bc_parcel_unref(p);
	rpct_session_stop(&a, &t, s, root);
}

/* A proxy the server keeps, dropped by another thread while the server's
 * thread waits for the client: its DEC_STRONG waits for the connection
 * (never written in the middle of the server's messages) and goes before
 * the next reply. */
Test(rpc_session, server_proxy_dropped_elsewhere)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *cb = NULL;
	bc_parcel *data = NULL;
	atomic_int cb_gone;
	int32_t v;

	atomic_init(&cb_gone, 0);
	rpct_session_start(&a, &t, 1, 1, 0, &s, &root);
	cb = cb_new(&cb_gone);
	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_binder(data, cb), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_KEEP, data, NULL, 0, NULL), 0);
	bc_parcel_unref(data);
	cr_assert_not_null(a.kept);
	cr_assert(bc_binder_is_remote(a.kept));
	/* this thread is not the server's: the drop is queued */
	a.kept = bc_binder_unref(a.kept);
	bc_binder_unref(cb);
	cr_assert_eq(atomic_load(&cb_gone), 0);
	cr_assert_eq(rpct_add(root, 1, 2, &v), 0);
	cr_assert_eq(v, 3);
	cr_assert_eq(atomic_load(&cb_gone), 1);
	rpct_session_stop(&a, &t, s, root);
}

/* A handler of one session calls into another session (the server is
 * itself a client of a second server), on its serving thread. */
Test(rpc_session, relay_across_sessions)
{
	struct rpct_adder a1, a2;
	struct rpct_server t1, t2;
	bc_rpc_session *s1 = NULL, *s2 = NULL;
	bc_binder *root1 = NULL;
	bc_parcel *data = NULL, *reply = NULL;
	int32_t v = 0;
	int fd1, fd2;

	rpct_adder_new(&a1);
	rpct_adder_new(&a2);
	rpct_server_start(&t2, a2.self, 1, &fd2);
	cr_assert_eq(bc_rpc_session_connect_fd(fd2, 1, 0, &s2), 0);
	cr_assert_eq(bc_rpc_session_get_root(s2, &a1.other), 0);
	rpct_server_start(&t1, a1.self, 1, &fd1);
	cr_assert_eq(bc_rpc_session_connect_fd(fd1, 1, 0, &s1), 0);
	cr_assert_eq(bc_rpc_session_get_root(s1, &root1), 0);
	cr_assert_eq(bc_binder_new_parcel(root1, &data), 0);
	cr_assert_eq(bc_parcel_write_int32(data, 30), 0);
	cr_assert_eq(bc_parcel_write_int32(data, 12), 0);
	cr_assert_eq(bc_binder_transact(root1, RPCT_RELAY, data, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 42);
	bc_parcel_unref(reply);
	bc_parcel_unref(data);
	bc_binder_unref(root1);
	cr_assert_eq(rpct_server_join(&t1), 0);
	bc_rpc_session_unref(s1);
	a1.other = bc_binder_unref(a1.other);
	cr_assert_eq(rpct_server_join(&t2), 0);
	bc_rpc_session_unref(s2);
	bc_binder_unref(a1.self);
	bc_binder_unref(a2.self);
	cr_assert_eq(atomic_load(&a1.destroyed), 1);
	cr_assert_eq(atomic_load(&a2.destroyed), 1);
}
