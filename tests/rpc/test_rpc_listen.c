/* SPDX-License-Identifier: MIT */
/*
 * An RPC server's accept loop: sessions of several clients at once, a
 * hostile one ending only its own, a connection flood turned away at the
 * session limit, and a shutdown that ends every session.
 */
#include <poll.h>
#include <linux/vm_sockets.h>

#include "rpct.h"

/* A client session and its root. */
struct client {
	bc_rpc_session *s;
	bc_binder *root;
};

static int client_open(struct client *c, const char *addr)
{
	int r;

	c->s = NULL;
	c->root = NULL;
	r = bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &c->s);
	if (r == 0)
		r = bc_rpc_session_get_root(c->s, &c->root);
	if (r < 0) {
		c->s = bc_rpc_session_unref(c->s);
		return r;
	}
	return 0;
}

static void client_close(struct client *c)
{
	c->root = bc_binder_unref(c->root);
	c->s = bc_rpc_session_unref(c->s);
}

static void on_death(void *userdata)
{
	atomic_fetch_add((atomic_int *)userdata, 1);
}

Test(rpc_listen, sessions_and_shutdown)
{
	struct rpct_adder a;
	struct joiner j;
	struct client c[3];
	bc_slot *slots[3];
	atomic_int deaths = 0;
	char addr[96];
	int32_t v = 0;
	int64_t end;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(client_open(&c[i], addr), 0);
		cr_assert_eq(bc_binder_link_to_death(c[i].root, on_death, &deaths, &slots[i]), 0);
	}
	/* all three at once, each on its own session thread */
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(rpct_add(c[i].root, i, 100, &v), 0);
		cr_assert_eq(v, 100 + i);
	}
	cr_assert_eq(joiner_stop(&j), 0);
	/* each session ended: its client hears of it */
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&deaths) < 3 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&deaths), 3);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(rpct_add(c[i].root, 1, 1, &v), -EPIPE);
		bc_slot_unref(slots[i]);
		client_close(&c[i]);
	}
	/* the sessions gave the root back; the server's own reference goes
	 * with the last of its threads (after it counted itself out) */
	bc_binder_unref(a.self);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&a.destroyed) < 1 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&a.destroyed), 1);
}

/* Garbage on one connection ends that session; the others go on. */
Test(rpc_listen, hostile_session_alone)
{
	static const uint8_t junk[64] = { 0xff, 0xff, 0xff, 0xff };
	struct rpct_adder a;
	struct joiner j;
	struct client good;
	char addr[96], buf[8];
	int32_t v = 0;
	int fd = -1;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	cr_assert_eq(client_open(&good, addr), 0);
	cr_assert_eq(bc_rpc_connect(addr, 0, &fd), 0);
	cr_assert_eq(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	/* the server may answer the header it read, then drops it: an end
	 * of stream (or a reset) comes */
	{
		ssize_t n;

		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		cr_assert_leq(n, 0);
	}
	close(fd);
	cr_assert_eq(rpct_add(good.root, 20, 22, &v), 0);
	cr_assert_eq(v, 42);
	client_close(&good);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
}

/* At the session limit, further connections are closed at once; a
 * session that ends makes room again. */
Test(rpc_listen, flood_bounded)
{
	struct rpct_adder a;
	struct joiner j;
	struct client c[2], late;
	char addr[96];
	int32_t v = 0;
	int64_t end;
	int r;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 2, addr, sizeof(addr));
	cr_assert_eq(client_open(&c[0], addr), 0);
	cr_assert_eq(client_open(&c[1], addr), 0);
	for (int i = 0; i < 50; i++) {
		struct client x;

		cr_assert_eq(client_open(&x, addr), -EPIPE, "connection %d", i);
	}
	/* the two sessions were not disturbed */
	cr_assert_eq(rpct_add(c[0].root, 1, 2, &v), 0);
	cr_assert_eq(v, 3);
	cr_assert_eq(rpct_add(c[1].root, 3, 4, &v), 0);
	cr_assert_eq(v, 7);
	/* one ends (its client drops the root); its thread's end is not
	 * observable from here, so retry until the room shows */
	client_close(&c[0]);
	end = th_now_ms() + TH_HANG_MS;
	while ((r = client_open(&late, addr)) == -EPIPE && th_nap_until(end))
		;
	cr_assert_eq(r, 0);
	cr_assert_eq(rpct_add(late.root, 5, 6, &v), 0);
	cr_assert_eq(v, 11);
	client_close(&late);
	client_close(&c[1]);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&a.destroyed) < 1 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&a.destroyed), 1);
}

/* bc_rpc_server_serve_fd() counts against the limit too, and is refused
 * after a shutdown. */
Test(rpc_listen, serve_fd_limits)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int fd, sv[2];

	rpct_adder_new(&a);
	rpct_server_start(&t, a.self, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_server_set_max_sessions(t.srv, 0), -EINVAL);
	cr_assert_eq(bc_rpc_server_set_max_sessions(t.srv, 1), 0);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	/* the one session is being served: a second is refused */
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_server_serve_fd(t.srv, sv[1]), -EUSERS);
	close(sv[0]);
	/* shutdown ends the one served by the test's thread too */
	bc_rpc_server_shutdown(t.srv);
	bc_rpc_server_ref(t.srv);
	cr_assert_eq(rpct_server_join(&t), -ESHUTDOWN);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_server_serve_fd(t.srv, sv[1]), -ESHUTDOWN);
	close(sv[0]);
	cr_assert_eq(bc_rpc_server_join(t.srv, 0), -ESHUTDOWN);
	bc_rpc_server_unref(t.srv);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
}

/* Allowed vsock CIDs: checked values, and connections of other families
 * served as before (a vsock peer itself needs a guest: rpc-serve-test). */
Test(rpc_listen, vsock_cids_leave_unix_alone)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int sv[2], pfd[2], n = 0, r = 0;

	rpct_adder_new(&a);
	cr_assert_eq(bc_rpc_server_new(a.self, &t.srv), 0);
	cr_assert_eq(bc_rpc_server_allow_vsock_cid(NULL, 3), -EINVAL);
	cr_assert_eq(bc_rpc_server_allow_vsock_cid(t.srv, VMADDR_CID_ANY), -EINVAL);
	cr_assert_eq(bc_rpc_server_allow_vsock_cid(t.srv, 3), 0);
	cr_assert_eq(bc_rpc_server_allow_vsock_cid(t.srv, 3), 0, "a CID twice is one CID");
	/* bounded: 1024 different CIDs, then -ENOSPC */
	for (uint32_t cid = 100; r == 0; cid++, n++)
		r = bc_rpc_server_allow_vsock_cid(t.srv, cid);
	cr_assert_eq(r, -ENOSPC);
	cr_assert_eq(n, 1024);
	/* a descriptor that is no socket has no address to allow */
	cr_assert_eq(pipe(pfd), 0);
	cr_assert_eq(bc_rpc_server_serve_fd(t.srv, pfd[0]), -ENOTSOCK);
	close(pfd[1]);
	/* a unix socket is served all the same (the CIDs set before) */
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	t.fd = sv[1];
	t.result = 1;
	cr_assert_eq(pthread_create(&t.thread, NULL, rpct_serve_main, &t), 0);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(bc_binder_ping(root), 0);
	rpct_session_stop(&a, &t, s, root);
}

/* Connections that never finish their set-up are dropped after the
 * set-up timeout, not kept for ever (each holds a thread). */
static bool closed_by_server(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char b[16];

	/* a hang-catcher: the server's timeout is far shorter */
	if (poll(&p, 1, TH_HANG_MS) != 1)
		return false;
	return recv(fd, b, sizeof(b), 0) <= 0;
}

Test(rpc_listen, setup_timeout)
{
	struct rpct_adder a;
	struct joiner j;
	struct client c;
	char addr[96];
	int fd = -1, sv[2];
	int32_t v = 0;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_server_set_setup_timeout(NULL, 1), -EINVAL);
	cr_assert_eq(bc_rpc_server_set_setup_timeout(j.srv, 50), 0);
	/* nothing at all */
	cr_assert_eq(bc_rpc_connect(addr, 0, &fd), 0);
	cr_assert(closed_by_server(fd));
	close(fd);
	/* half a header */
	cr_assert_eq(bc_rpc_connect(addr, 0, &fd), 0);
	cr_assert_eq(send(fd, "\1\0\0\0\0\0\0\0", 8, MSG_NOSIGNAL), 8);
	cr_assert(closed_by_server(fd));
	close(fd);
	/* a session, idle longer than the set-up timeout, still served */
	cr_assert_eq(client_open(&c, addr), 0);
	{
		struct pollfd p = { .fd = -1 };

		poll(&p, 1, 200); /* not a synchronisation: idleness on purpose */
	}
	cr_assert_eq(rpct_add(c.root, 2, 3, &v), 0);
	cr_assert_eq(v, 5);
	client_close(&c);
	/* serve_fd says why */
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_server_serve_fd(j.srv, sv[1]), -ETIMEDOUT);
	close(sv[0]);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
}
