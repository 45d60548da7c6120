/* SPDX-License-Identifier: MIT */
/*
 * Death notifications over RPC: a server process killed while the client
 * is idle (the client's watcher notices), a client that goes away while
 * the server holds its object, a local shutdown, and recipients dropped
 * before the end (not called).
 */
#include <signal.h>
#include <sys/wait.h>

#include "rpct.h"

struct deaths {
	atomic_int n;
};

static void on_death(void *userdata)
{
	atomic_fetch_add(&((struct deaths *)userdata)->n, 1);
}

/* Bounded wait for @want deaths (a hang-catcher; they come at once). */
static void wait_deaths(struct deaths *d, int want)
{
	int64_t end = th_now_ms() + TH_HANG_MS;

	while (atomic_load(&d->n) < want && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&d->n), want);
}

/* A root whose code 1 answers a new object of its own (a second address
 * in the session). */
static int maker_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	struct rpct_adder *child = u;
	int r;

	(void)self;
	(void)txn;
	(void)in;
	if (code == 2) {
		/* blocks until the process is killed (the test's doing) */
		for (;;)
			pause();
	}
	if (code != 1)
		return -EBADMSG;
	rpct_adder_new(child);
	r = bc_parcel_write_binder(reply, child->self);
	child->self = bc_binder_unref(child->self);
	return r;
}

/* A server in a child process, on @fd; never returns. */
static void serve_child(int fd)
{
	struct rpct_adder child;
	bc_class *c = NULL;
	bc_binder *root = NULL;
	bc_rpc_server *srv = NULL;

	if (bc_class_new("org.binderc.test.IMaker", maker_transact, NULL, 0, &c) < 0 ||
	    bc_binder_new(c, &child, &root) < 0 || bc_rpc_server_new(root, &srv) < 0)
		_exit(1);
	bc_rpc_server_serve_fd(srv, fd);
	_exit(0);
}

struct blocked_call {
	bc_binder *root;
	int result;
	bc_error err;
	pthread_t thread;
};

static void *blocked_main(void *arg)
{
	struct blocked_call *b = arg;

	b->result = bc_binder_transact(b->root, 2, NULL, NULL, 0, &b->err);
	return NULL;
}

/* The server dies while a call waits in it: the caller gets a dead
 * object (a transport error), recipients hear of it, nothing leaks. */
Test(rpc_death, server_killed_mid_call)
{
	struct deaths d = { 0 };
	struct blocked_call b = { .result = 1 };
	bc_rpc_session *s = NULL;
	bc_slot *slot = NULL;
	int sv[2], status = 0;
	pid_t pid;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		serve_child(sv[1]);
	}
	close(sv[1]);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &b.root), 0);
	cr_assert_eq(bc_binder_link_to_death(b.root, on_death, &d, &slot), 0);
	cr_assert_eq(pthread_create(&b.thread, NULL, blocked_main, &b), 0);
	/* whether the call has reached the handler or not, it must fail */
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert_eq(pthread_join(b.thread, NULL), 0);
	cr_assert_eq(b.result, -EPIPE);
	cr_assert_eq(b.err.origin, BINDERC_ERROR_TRANSPORT);
	wait_deaths(&d, 1);
	cr_assert_eq(bc_rpc_session_get_error(s), -EPIPE);
	bc_slot_unref(slot);
	bc_binder_unref(b.root);
	bc_rpc_session_unref(s);
}

Test(rpc_death, server_killed)
{
	struct deaths d = { 0 };
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *obj = NULL;
	bc_parcel *reply = NULL;
	bc_slot *s1 = NULL, *s2 = NULL, *s3 = NULL, *gone = NULL;
	int sv[2], status = 0;
	int32_t v = 0;
	pid_t pid;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(sv[0]);
		serve_child(sv[1]);
	}
	close(sv[1]);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(bc_binder_transact(root, 1, NULL, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_binder(reply, &obj), 0);
	bc_parcel_unref(reply);
	cr_assert_neq(obj, root);
	cr_assert_eq(rpct_add(obj, 3, 4, &v), 0);
	cr_assert_eq(v, 7);
	/* two recipients on the root, one on the other object, one dropped */
	cr_assert_eq(bc_binder_link_to_death(root, on_death, &d, &s1), 0);
	cr_assert_eq(bc_binder_link_to_death(root, on_death, &d, &s2), 0);
	cr_assert_eq(bc_binder_link_to_death(obj, on_death, &d, &s3), 0);
	cr_assert_eq(bc_binder_link_to_death(obj, on_death, &d, &gone), 0);
	bc_slot_unref(gone);
	/* the server dies while nothing is asked of it */
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	wait_deaths(&d, 3);
	cr_assert(!bc_binder_is_alive(root));
	cr_assert(!bc_binder_is_alive(obj));
	cr_assert_eq(bc_rpc_session_get_error(s), -EPIPE);
	cr_assert_eq(rpct_add(obj, 1, 1, &v), -EPIPE);
	/* too late to link */
	cr_assert_eq(bc_binder_link_to_death(root, on_death, &d, &gone), -EPIPE);
	cr_assert_eq(atomic_load(&d.n), 3);
	bc_slot_unref(s1);
	bc_slot_unref(s2);
	bc_slot_unref(s3);
	bc_binder_unref(obj);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
}

/* The server holds the client's object (RPCT_KEEP) and links to its
 * death; the client's session ends: the serving thread sends it. */
static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	(void)self;
	(void)txn;
	(void)code;
	(void)in;
	(void)reply;
	(void)u;
	return 0;
}

/* A callback object of ours, which the server's root keeps (RPCT_KEEP). */
static bc_binder *kept_callback(bc_binder *root)
{
	bc_binder *cb = NULL;
	bc_class *c = NULL;
	bc_parcel *data = NULL;

	cr_assert_eq(bc_class_new("org.binderc.test.ICb", cb_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &cb), 0);
	bc_class_unref(c);
	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_binder(data, cb), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_KEEP, data, NULL, 0, NULL), 0);
	bc_parcel_unref(data);
	return cb;
}

Test(rpc_death, client_gone)
{
	struct deaths d = { 0 };
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *cb;
	bc_slot *slot = NULL;

	rpct_session_start(&a, &t, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_VERSION_DEFAULT, 0, &s, &root);
	cb = kept_callback(root);
	/* the server's proxy of the client's object (the call has returned:
	 * the serving thread waits for the next command) */
	cr_assert_not_null(a.kept);
	cr_assert(bc_binder_is_remote(a.kept));
	cr_assert_eq(bc_binder_link_to_death(a.kept, on_death, &d, &slot), 0);
	bc_rpc_session_shutdown(s);
	cr_assert_eq(rpct_server_join(&t), 0);
	/* sent by the serving thread before it returned */
	cr_assert_eq(atomic_load(&d.n), 1);
	cr_assert(!bc_binder_is_alive(a.kept));
	bc_slot_unref(slot);
	a.kept = bc_binder_unref(a.kept);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(cb);
	bc_binder_unref(a.self);
}

/* A root that keeps the client's object (a callback) is given back when
 * the client goes: the ended session lets go of its root.  Before, the
 * root kept the proxy, the proxy its session and the session its root,
 * for ever (found by the RPC fuzzer at 10^6 inputs). */
Test(rpc_death, client_gone_root_keeping_its_object)
{
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *cb;

	rpct_session_start(&a, &t, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_VERSION_DEFAULT, 0, &s, &root);
	cb = kept_callback(root);
	cr_assert_not_null(a.kept);
	bc_rpc_session_shutdown(s);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(cb);
	/* nothing but the ended session's root held it */
	bc_binder_unref(a.self);
	cr_assert_eq(atomic_load(&a.destroyed), 1);
	a.kept = bc_binder_unref(a.kept);
}

/* Our own shutdown ends the session too: its recipients hear of it. */
Test(rpc_death, local_shutdown)
{
	struct deaths d = { 0 };
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_slot *slot = NULL;

	rpct_session_start(&a, &t, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_VERSION_DEFAULT, 0, &s, &root);
	cr_assert_eq(bc_binder_link_to_death(root, on_death, &d, &slot), 0);
	bc_rpc_session_shutdown(s);
	wait_deaths(&d, 1);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_slot_unref(slot);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	bc_binder_unref(a.self);
}

/* Recipients dropped while the session lives, and the session freed with
 * its watcher running: nothing is called, nothing leaks (ASan). */
Test(rpc_death, dropped_before)
{
	struct deaths d = { 0 };
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_slot *slot = NULL;
	int32_t v = 0;

	rpct_session_start(&a, &t, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_VERSION_DEFAULT, 0, &s, &root);
	cr_assert_eq(bc_binder_link_to_death(root, on_death, &d, &slot), 0);
	cr_assert_eq(rpct_add(root, 5, 6, &v), 0);
	cr_assert_eq(v, 11);
	bc_slot_unref(slot);
	bc_rpc_session_unref(s);
	/* the last proxy goes: the server ends the session */
	bc_binder_unref(root);
	cr_assert_eq(rpct_server_join(&t), 0);
	cr_assert_eq(atomic_load(&d.n), 0);
	bc_binder_unref(a.self);
}

/* A recipient that drops the last reference to everything it was given:
 * the session is freed from inside the obituary (by the watcher, or by
 * whichever thread sent them). */
struct last_drop {
	bc_binder *root;
	bc_slot *slot;
	atomic_int called;
};

static void drop_all(void *userdata)
{
	struct last_drop *l = userdata;

	l->slot = bc_slot_unref(l->slot);
	l->root = bc_binder_unref(l->root);
	atomic_store(&l->called, 1);
}

Test(rpc_death, recipient_drops_last)
{
	struct last_drop l = { 0 };
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	int64_t end;
	int fd;

	rpct_adder_new(&a);
	rpct_server_start(&t, a.self, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &l.root), 0);
	cr_assert_eq(bc_binder_link_to_death(l.root, drop_all, &l, &l.slot), 0);
	bc_rpc_session_unref(s); /* the proxy's reference is the last */
	/* the server goes: the serving thread ends on a shut-down socket */
	shutdown(fd, SHUT_RDWR);
	end = th_now_ms() + TH_HANG_MS;
	while (!atomic_load(&l.called) && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&l.called), 1);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_binder_unref(a.self);
}
