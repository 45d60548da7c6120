/* SPDX-License-Identifier: MIT */
/*
 * A client that polls its incoming connection itself
 * (bc_rpc_session_join_polled): the server's calls to the client's object
 * run on the thread that calls bc_rpc_session_handle_polled(), only
 * then; the server's end is seen there too, with the death recipients run
 * on that thread and no watcher thread; and the misuses are refused.
 */
#include <poll.h>

#include "rpc_internal.h"
#include "rpct.h"

struct fixture {
	struct rpct_adder server_obj, client_state;
	bc_binder *client_obj; /* an adder whose handler notes its thread */
	struct joiner j;
	bc_rpc_session *s;
	bc_binder *root;
	int fd;
};

static pthread_t handler_thread;

static int on_transact_note_thread(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in,
				   bc_parcel *reply, void *userdata)
{
	handler_thread = pthread_self();
	return rpct_on_transact(self, txn, code, in, reply, userdata);
}

static void setup(struct fixture *f)
{
	char addr[96];
	bc_parcel *d = NULL;
	bc_class *c = NULL;

	memset(f, 0, sizeof(*f));
	rpct_adder_new(&f->server_obj);
	cr_assert_eq(bc_class_new(RPCT_DESCRIPTOR, on_transact_note_thread, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, &f->client_state, &f->client_obj), 0);
	bc_class_unref(c);
	joiner_start(&f->j, f->server_obj.self, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &f->s), 0);
	cr_assert_eq(bc_rpc_session_join_polled(f->s, addr, 0, &f->fd), 0);
	cr_assert_geq(f->fd, 0);
	cr_assert_eq(bc_rpc_session_get_root(f->s, &f->root), 0);
	/* the server keeps our object: its proxy is f->server_obj.kept */
	cr_assert_eq(bc_binder_new_parcel(f->root, &d), 0);
	cr_assert_eq(bc_parcel_write_binder(d, f->client_obj), 0);
	cr_assert_eq(bc_binder_transact(f->root, RPCT_KEEP, d, NULL, 0, NULL), 0);
	bc_parcel_unref(d);
	cr_assert_not_null(f->server_obj.kept);
}

struct server_call {
	bc_binder *target;
	int r;
	int32_t sum;
	atomic_bool done;
};

/* The server calling the client's object from a thread of its own: its
 * only way there is the polled connection. */
static void *server_calls(void *arg)
{
	struct server_call *c = arg;

	c->r = rpct_add(c->target, 40, 2, &c->sum);
	atomic_store(&c->done, true);
	return NULL;
}

static void teardown(struct fixture *f)
{
	bc_binder_unref(f->server_obj.kept);
	bc_binder_unref(f->root);
	bc_rpc_session_unref(f->s);
	cr_assert_eq(joiner_stop(&f->j), 0);
	bc_binder_unref(f->client_obj);
	bc_binder_unref(f->server_obj.self);
}

Test(rpc_poll, server_calls_run_in_handle_polled)
{
	struct fixture f;
	struct server_call c = { .r = 1 };
	pthread_t th;
	int64_t end = th_now_ms() + TH_HANG_MS;
	struct pollfd p;

	setup(&f);
	c.target = f.server_obj.kept;
	cr_assert_eq(pthread_create(&th, NULL, server_calls, &c), 0);
	/* nothing runs until we ask */
	p = (struct pollfd){ .fd = f.fd, .events = POLLIN };
	cr_assert_eq(poll(&p, 1, TH_HANG_MS), 1, "the server's call did not arrive");
	cr_assert(!atomic_load(&c.done));
	while (!atomic_load(&c.done) && th_nap_until(end)) {
		p = (struct pollfd){ .fd = f.fd, .events = POLLIN };
		if (poll(&p, 1, 10) == 1)
			cr_assert_eq(bc_rpc_session_handle_polled(f.s), 0);
	}
	pthread_join(th, NULL);
	cr_assert_eq(c.r, 0);
	cr_assert_eq(c.sum, 42);
	cr_assert(pthread_equal(handler_thread, pthread_self()), "the handler ran on another thread");
	/* nothing more came: returns at once */
	cr_assert_eq(bc_rpc_session_handle_polled(f.s), 0);
	/* no watcher thread for death recipients: the polled socket is it */
	cr_assert_not(f.s->watcher_started);
	teardown(&f);
}

static atomic_int deaths;
static pthread_t death_thread;

static void on_death(void *u)
{
	(void)u;
	death_thread = pthread_self();
	atomic_fetch_add(&deaths, 1);
}

/* The server goes: the polled socket says so, and handle_polled() ends
 * the session there, running the death recipient on this thread. */
Test(rpc_poll, server_end_seen_in_handle_polled)
{
	struct fixture f;
	bc_slot *death = NULL;
	struct pollfd p;
	int r = 0;

	setup(&f);
	cr_assert_eq(bc_binder_link_to_death(f.root, on_death, NULL, &death), 0);
	cr_assert_not(f.s->watcher_started);
	bc_rpc_server_shutdown(f.j.srv); /* every session ends */
	for (int64_t end = th_now_ms() + TH_HANG_MS; r == 0 && th_nap_until(end);) {
		p = (struct pollfd){ .fd = f.fd, .events = POLLIN };
		if (poll(&p, 1, 10) == 1)
			r = bc_rpc_session_handle_polled(f.s);
	}
	cr_assert_eq(r, -EPIPE);
	cr_assert_eq(atomic_load(&deaths), 1);
	cr_assert(pthread_equal(death_thread, pthread_self()));
	cr_assert_eq(bc_rpc_session_handle_polled(f.s), -EPIPE);
	cr_assert_not(bc_binder_is_alive(f.root));
	bc_slot_unref(death);
	teardown(&f);
}

/* One polled connection per session; none on a server's; and a session
 * without one has nothing to handle. */
Test(rpc_poll, misuse)
{
	struct fixture f;
	struct rpct_adder a;
	struct joiner j;
	char addr[96];
	bc_rpc_session *plain = NULL;
	int fd = -1, sv[2];

	setup(&f);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_session_join_polled_fd(f.s, sv[0]), -EBUSY); /* sv[0] closed */
	close(sv[1]);
	cr_assert_eq(bc_rpc_session_join_polled_fd(NULL, -1), -EINVAL);
	cr_assert_eq(bc_rpc_session_handle_polled(NULL), -EINVAL);
	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &plain), 0);
	cr_assert_eq(bc_rpc_session_handle_polled(plain), -ENOTCONN);
	cr_assert_eq(bc_rpc_session_join_polled(plain, addr, 0, NULL), -EINVAL);
	cr_assert_eq(bc_rpc_session_join_polled(plain, "unix-abstract:binderc-nobody-here", 0, &fd), -ECONNREFUSED);
	/* a failed join leaves the session free to try again */
	cr_assert_eq(bc_rpc_session_join_polled(plain, addr, 0, &fd), 0);
	cr_assert_eq(bc_rpc_session_handle_polled(plain), 0);
	bc_rpc_session_unref(plain);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
	teardown(&f);
}
