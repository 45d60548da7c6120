/* SPDX-License-Identifier: MIT */
/*
 * Sessions of several connections: outgoing ones joined so that calls
 * run in parallel (as many as the server serves), incoming ones on which
 * the server calls the client's objects outside the client's calls, and
 * oneway calls spread over connections yet run in their order.
 */
#include "rpc_internal.h"
#include "rpct.h"

/* A rendezvous object: code 1 returns once @want calls are inside it
 * at the same time (so only connections in parallel can finish it);
 * code 2 (oneway, int32 i) checks that the i's come in order. */
struct meet {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int inside, want;
	int next;	     /* code 2: the i expected */
	atomic_int disorder; /* code 2: i's out of order */
	atomic_int destroyed;
};

static int meet_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	struct meet *m = u;
	int32_t i = 0;
	int r = 0;

	(void)self;
	(void)txn;
	(void)reply;
	if (code == 2) {
		r = bc_parcel_read_int32(in, &i);
		pthread_mutex_lock(&m->mu);
		if (i != m->next)
			atomic_fetch_add(&m->disorder, 1);
		m->next = i + 1;
		pthread_cond_broadcast(&m->cv);
		pthread_mutex_unlock(&m->mu);
		return r;
	}
	if (code != 1)
		return -EBADMSG;
	pthread_mutex_lock(&m->mu);
	m->inside++;
	pthread_cond_broadcast(&m->cv);
	{
		/* a hang-catcher only: the others come at once if they can */
		struct timespec end;

		clock_gettime(CLOCK_REALTIME, &end);
		end.tv_sec += TH_HANG_MS / 1000;
		while (m->inside < m->want && r == 0)
			r = -pthread_cond_timedwait(&m->cv, &m->mu, &end);
	}
	pthread_mutex_unlock(&m->mu);
	return r;
}

static void meet_destroy(void *u)
{
	atomic_fetch_add(&((struct meet *)u)->destroyed, 1);
}

static bc_binder *meet_new(struct meet *m, int want)
{
	bc_class *c = NULL;
	bc_binder *b = NULL;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->mu, NULL);
	pthread_cond_init(&m->cv, NULL);
	m->want = want;
	cr_assert_eq(bc_class_new("org.binderc.test.IMeet", meet_transact, meet_destroy, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, m, &b), 0);
	bc_class_unref(c);
	return b;
}

struct caller {
	bc_binder *b;
	int result;
	pthread_t thread;
};

static void *caller_main(void *arg)
{
	struct caller *c = arg;

	c->result = bc_binder_transact(c->b, 1, NULL, NULL, 0, NULL);
	return NULL;
}

/* Three calls inside the object at once: only on three connections. */
Test(rpc_conns, parallel_outgoing)
{
	struct meet m;
	struct joiner j;
	struct caller c[3];
	bc_binder *obj = meet_new(&m, 3), *root = NULL;
	bc_rpc_session *s = NULL;
	char addr[96];
	int fd;

	joiner_start(&j, obj, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_server_set_max_threads(j.srv, 0), -EINVAL);
	cr_assert_eq(bc_rpc_server_set_max_threads(j.srv, BINDERC_RPC_MAX_THREADS + 1), -EINVAL);
	cr_assert_eq(bc_rpc_server_set_max_threads(j.srv, 3), 0);
	/* the client opens as many connections as the server serves */
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	/* a fourth would be refused by the server: refused here */
	cr_assert_eq(bc_rpc_connect(addr, 0, &fd), 0);
	cr_assert_eq(bc_rpc_session_join_fd(s, fd, false), -EUSERS);
	for (int i = 0; i < 3; i++) {
		c[i].b = root;
		cr_assert_eq(pthread_create(&c[i].thread, NULL, caller_main, &c[i]), 0);
	}
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(pthread_join(c[i].thread, NULL), 0);
		cr_assert_eq(c[i].result, 0, "call %d: %d", i, c[i].result);
	}
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(obj);
}

/* A caller finding every connection busy takes the first one let go,
 * not one it picked: here the two it could pick are held by calls that
 * wait for it, and only the third (held by the test) is let go. */
Test(rpc_conns, busy_caller_takes_first_free)
{
	struct meet m;
	struct joiner j;
	struct caller c[3];
	struct rpc_conn *x = NULL;
	bc_binder *obj = meet_new(&m, 3), *root = NULL;
	bc_rpc_session *s = NULL;
	char addr[96];
	int64_t end;

	joiner_start(&j, obj, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_server_set_max_threads(j.srv, 3), 0);
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(bc__rpc_call_conn(s, false, &x), 0);
	for (int i = 0; i < 2; i++) {
		c[i].b = root;
		cr_assert_eq(pthread_create(&c[i].thread, NULL, caller_main, &c[i]), 0);
	}
	/* two calls inside, holding the other two connections */
	end = th_now_ms() + TH_HANG_MS;
	pthread_mutex_lock(&m.mu);
	while (m.inside < 2 && th_now_ms() < end) {
		pthread_mutex_unlock(&m.mu);
		th_nap_until(end);
		pthread_mutex_lock(&m.mu);
	}
	cr_assert_eq(m.inside, 2);
	pthread_mutex_unlock(&m.mu);
	c[2].b = root;
	cr_assert_eq(pthread_create(&c[2].thread, NULL, caller_main, &c[2]), 0);
	/* the third waits for a connection */
	while (atomic_load(&s->conn_waiters) == 0 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&s->conn_waiters), 1);
	bc__rpc_call_conn_put(x);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(pthread_join(c[i].thread, NULL), 0);
		cr_assert_eq(c[i].result, 0, "call %d: %d", i, c[i].result);
	}
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(obj);
}

/* Oneway calls from one thread spread over four connections (and so
 * over four server threads) still run one at a time, in their order. */
Test(rpc_conns, oneway_order)
{
	struct meet m;
	struct joiner j;
	bc_binder *obj = meet_new(&m, 1), *root = NULL;
	bc_rpc_session *s = NULL;
	char addr[96];
	int64_t end;

	joiner_start(&j, obj, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_server_set_max_threads(j.srv, 4), 0);
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	for (int32_t i = 0; i < 400; i++) {
		bc_parcel *d = NULL;
		int r;

		cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
		cr_assert_eq(bc_parcel_write_int32(d, i), 0);
		r = bc_binder_transact(root, 2, d, NULL, BINDERC_FLAG_ONEWAY, NULL);
		cr_assert_eq(r, 0, "oneway %d: %d (session %d)", i, r, bc_rpc_session_get_error(s));
		bc_parcel_unref(d);
	}
	end = th_now_ms() + TH_HANG_MS;
	pthread_mutex_lock(&m.mu);
	while (m.next < 400 && th_now_ms() < end) {
		pthread_mutex_unlock(&m.mu);
		th_nap_until(end);
		pthread_mutex_lock(&m.mu);
	}
	cr_assert_eq(m.next, 400, "next %d, disorder %d, error %d", m.next, atomic_load(&m.disorder), bc_rpc_session_get_error(s));
	pthread_mutex_unlock(&m.mu);
	cr_assert_eq(atomic_load(&m.disorder), 0);
	cr_assert_eq(bc_rpc_session_get_error(s), 0);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(obj);
}

/* The client's callback, called by the server from its own thread (not
 * a handler): over the client's incoming connection. */
static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	int32_t x = 0;
	int r = bc_parcel_read_int32(in, &x);

	(void)self;
	(void)u;
	if (code != 1)
		return -EBADMSG;
	/* the caller is the server: its pid, over the unix socket */
	if (r == 0 && bc_txn_get_calling_pid(txn) != getpid())
		r = -EACCES;
	return r < 0 ? r : bc_parcel_write_int32(reply, 3 * x);
}

static void cb_destroy(void *u)
{
	atomic_fetch_add((atomic_int *)u, 1);
}

/* Send the client's object @cb to the adder (RPCT_KEEP). */
static void keep(bc_binder *root, bc_binder *cb)
{
	bc_parcel *data = NULL;

	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_binder(data, cb), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_KEEP, data, NULL, 0, NULL), 0);
	bc_parcel_unref(data);
}

static int call_cb(bc_binder *b, int32_t x, int32_t *ret)
{
	bc_parcel *data = NULL, *reply = NULL;
	int r;

	cr_assert_eq(bc_binder_new_parcel(b, &data), 0);
	cr_assert_eq(bc_parcel_write_int32(data, x), 0);
	r = bc_binder_transact(b, 1, data, &reply, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_int32(reply, ret);
	bc_parcel_unref(data);
	bc_parcel_unref(reply);
	return r;
}

Test(rpc_conns, incoming)
{
	struct rpct_adder a;
	struct joiner j;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *cb = NULL;
	bc_class *c = NULL;
	atomic_int destroyed = 0;
	char addr[96];
	int32_t v = 0;
	int64_t end;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(bc_class_new("org.binderc.test.ICb", cb_transact, cb_destroy, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, &destroyed, &cb), 0);
	bc_class_unref(c);
	keep(root, cb);
	cr_assert_not_null(a.kept);
	/* no incoming connection yet: the server may call only from its
	 * handlers */
	cr_assert_eq(call_cb(a.kept, 5, &v), -EWOULDBLOCK);
	cr_assert_eq(bc_rpc_session_join(s, addr, 0, true), 0);
	cr_assert_eq(call_cb(a.kept, 5, &v), 0);
	cr_assert_eq(v, 15);
	cr_assert_eq(call_cb(a.kept, -2, &v), 0);
	cr_assert_eq(v, -6);
	/* the server lets go: its DEC_STRONG travels on the incoming
	 * connection, and the client's object goes with the client's ref */
	a.kept = bc_binder_unref(a.kept);
	bc_binder_unref(cb);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&destroyed) == 0 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&destroyed), 1);
	cr_assert_eq(rpct_add(root, 1, 2, &v), 0);
	cr_assert_eq(v, 3);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
}

/* The server's end noticed by the incoming connection's thread: death
 * recipients fire, the session ends cleanly for the client. */
static void on_death(void *u)
{
	atomic_fetch_add((atomic_int *)u, 1);
}

Test(rpc_conns, incoming_limits_and_end)
{
	struct rpct_adder a;
	struct joiner j;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_slot *slot = NULL;
	atomic_int deaths = 0;
	char addr[96];
	int64_t end;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_server_set_max_incoming(j.srv, BINDERC_RPC_MAX_THREADS + 1), -EINVAL);
	cr_assert_eq(bc_rpc_server_set_max_incoming(j.srv, 1), 0);
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(bc_rpc_session_join(s, addr, 0, true), 0);
	/* a second is over the server's limit: it closes it; the session
	 * goes on */
	cr_assert_eq(bc_rpc_session_join(s, addr, 0, true), -EPIPE);
	cr_assert_eq(bc_binder_ping(root), 0);
	cr_assert_eq(bc_binder_link_to_death(root, on_death, &deaths, &slot), 0);
	cr_assert_eq(joiner_stop(&j), 0);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&deaths) == 0 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&deaths), 1);
	cr_assert_eq(bc_binder_ping(root), -EPIPE);
	bc_slot_unref(slot);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
}

/* A join with an id no session has is closed; joins of a server session
 * or a bad fd are refused. */
Test(rpc_conns, join_refused)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	int fd, sv[2];

	rpct_adder_new(&a);
	rpct_server_start(&t, a.self, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	/* a socketpair's other end is served by nobody: a join there would
	 * wait for ever, so only the checks before any I/O */
	cr_assert_eq(bc_rpc_session_join_fd(NULL, -1, false), -EINVAL);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	/* the server serves one connection per session: a second outgoing
	 * one is refused before a byte goes */
	cr_assert_eq(bc_rpc_session_join_fd(s, sv[0], false), -EUSERS);
	close(sv[1]);
	bc_rpc_session_unref(s);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_binder_unref(a.self);
}

/* A oneway call that comes, nested, on the connection its thread waits
 * on: its handler's own calls may not go there (its reply would be taken
 * for the waiting call's), and with no other connection they fail at
 * once (-EDEADLK) instead of waiting for themselves. */
struct nested_oneway {
	bc_binder *root; /* the client's proxy */
	atomic_int result;
};

static int poker_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	bc_binder *cb = NULL;
	int r = bc_parcel_read_binder(in, &cb);

	(void)self;
	(void)txn;
	(void)reply;
	(void)u;
	if (r == 0 && (code != 1 || !cb))
		r = -EINVAL;
	if (r == 0)
		r = bc_binder_transact(cb, 1, NULL, NULL, BINDERC_FLAG_ONEWAY, NULL);
	bc_binder_unref(cb);
	return r;
}

static int poked_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	struct nested_oneway *n = u;

	(void)self;
	(void)txn;
	(void)in;
	(void)reply;
	if (code == 1)
		atomic_store(&n->result, bc_binder_ping(n->root));
	return 0;
}

Test(rpc_conns, oneway_handler_never_waits_on_itself)
{
	struct nested_oneway n = { .result = 1 };
	struct rpct_server t;
	bc_class *c = NULL;
	bc_binder *poker = NULL, *poked = NULL;
	bc_rpc_session *s = NULL;
	bc_parcel *data = NULL;
	int fd;

	cr_assert_eq(bc_class_new("org.binderc.test.IPoker", poker_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &poker), 0);
	bc_class_unref(c);
	cr_assert_eq(bc_class_new("org.binderc.test.IPoked", poked_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, &n, &poked), 0);
	bc_class_unref(c);
	rpct_server_start(&t, poker, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &n.root), 0);
	cr_assert_eq(bc_binder_new_parcel(n.root, &data), 0);
	cr_assert_eq(bc_parcel_write_binder(data, poked), 0);
	cr_assert_eq(bc_binder_transact(n.root, 1, data, NULL, 0, NULL), 0);
	bc_parcel_unref(data);
	/* the oneway ran (before the reply, on this thread) and was refused */
	cr_assert_eq(atomic_load(&n.result), -EDEADLK);
	/* the session is unharmed */
	cr_assert_eq(bc_binder_ping(n.root), 0);
	bc_binder_unref(n.root);
	bc_rpc_session_unref(s);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_binder_unref(poked);
	bc_binder_unref(poker);
}
