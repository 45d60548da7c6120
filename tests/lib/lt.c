/* SPDX-License-Identifier: MIT */
/* Guest test helpers for libbinder-c: see lt.h. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lt.h"
#include "th_rpc.h"

static int ready_fd = -1; /* write end the child reports readiness on */

pid_t lt_spawn(int (*fn)(void *), void *arg)
{
	pid_t pid;
	int pfd[2];
	char c;

	if (pipe(pfd) < 0)
		return -1;
	pid = th_fork();
	if (pid == 0) {
		close(pfd[0]);
		ready_fd = pfd[1];
		_exit(fn(arg));
	}
	close(pfd[1]);
	/* Wait until the child says it is ready (or exits). */
	if (pid > 0 && read(pfd[0], &c, 1) < 0)
		c = 0;
	close(pfd[0]);
	return pid;
}

/* Children call this when they are ready; lt_spawn returns then. */
void lt_ready(void)
{
	if (ready_fd >= 0) {
		if (write(ready_fd, "r", 1) < 0)
			perror("ready");
		close(ready_fd);
		ready_fd = -1;
	}
}

bool lt_rpc(void)
{
	return th_rpc();
}

int lt_open(bc_process **ret, bool pool)
{
	int r;

	*ret = NULL;
	if (lt_rpc())
		return 0; /* RPC's threads are the library's own */
	r = bc_process_open(NULL, ret);

	if (r == 0 && pool)
		r = bc_process_start_thread_pool(*ret);
	return r;
}

/* ---- registry ------------------------------------------------------------ */

enum { REG_ADD = 1, REG_GET };
#define REG_DESC "binderc.test.IRegistry"

static struct {
	char *name;
	bc_binder *b;
} reg_tab[32];
static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;

static int reg_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	char *name = NULL;
	bc_binder *b = NULL;
	int r;

	(void)self, (void)txn, (void)ud;
	r = bc_parcel_read_string16(in, &name, NULL);
	if (r < 0 || !name)
		return -EBADMSG;
	pthread_mutex_lock(&reg_mu);
	if (code == REG_ADD) {
		r = bc_parcel_read_binder(in, &b);
		for (int i = 0; r == 0 && i < 32; i++) {
			if (!reg_tab[i].name || strcmp(reg_tab[i].name, name) == 0) {
				free(reg_tab[i].name);
				bc_binder_unref(reg_tab[i].b);
				reg_tab[i].name = name;
				reg_tab[i].b = b;
				name = NULL;
				break;
			}
		}
	} else if (code == REG_GET) {
		for (int i = 0; i < 32 && reg_tab[i].name; i++)
			if (strcmp(reg_tab[i].name, name) == 0)
				b = reg_tab[i].b;
		r = bc_parcel_write_binder(reply, b);
	} else {
		r = -EBADMSG;
	}
	pthread_mutex_unlock(&reg_mu);
	free(name);
	return r;
}

static int registry_main(void *arg)
{
	bc_process *p;
	bc_class *c;
	bc_binder *obj;
	int r;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(bc_class_new(REG_DESC, reg_transact, NULL, 0, &c));
	CHECK_OK(bc_binder_new(c, NULL, &obj));
	/* The previous test's manager may still be going away (as long as
	 * a slow guest takes: a hang-catcher). */
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		r = bc_process_become_context_manager(p, obj);
		if (r != -EBUSY || !th_nap_until(end))
			break;
	}
	CHECK_OK(r);
	CHECK_OK(bc_process_start_thread_pool(p));
	lt_ready();
	for (;;)
		pause();
}

/* ---- the same over RPC binder ------------------------------------------------ */

/* The test process: what the names of its children's sockets start with. */
static pid_t rpc_test_pid;

/* With no registry to run, the "registry" child only waits to be killed. */
static int rpc_registry_main(void *arg)
{
	(void)arg;
	lt_ready();
	while (pause() < 0 || errno == EINTR)
		;
	return 1;
}

static int rpc_publish(const char *name, bc_binder *b)
{
	char addr[128];

	th_rpc_address(addr, sizeof(addr), rpc_test_pid, name);
	return th_rpc_serve_in_background(b, addr);
}

/* One session per name and process, as one handle per node: a second
 * lookup gives the same proxy while the session lives.  The entry holds
 * the root's proxy as the kernel's registry holds the service's handle:
 * a server ends a session whose client holds none of its objects
 * (rpc_dec.c), which would end it under the next lookup.  Once the
 * session ended (the service died: the stress suite kills it) the next
 * lookup connects again, to the service restarted; until it listens (a
 * hang-catcher). */
struct rpc_entry {
	char name[32];
	bc_rpc_session *s;
	bc_binder *root;
};

/* A session is given up only once it is dead (bc_binder_is_alive() of
 * its proxies says so), or when it gave none out yet. */
static void rpc_entry_drop(struct rpc_entry *e)
{
	e->root = bc_binder_unref(e->root);
	e->s = bc_rpc_session_unref(e->s);
}

static int rpc_lookup_locked(struct rpc_entry *e, bc_binder **ret)
{
	char addr[128];
	int r;

	th_rpc_address(addr, sizeof(addr), rpc_test_pid, e->name);
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		if (e->root && !bc_binder_is_alive(e->root))
			rpc_entry_drop(e);
		r = e->s ? 0 : th_rpc_connect(addr, &e->s);
		if (r == 0 && !e->root)
			r = bc_rpc_session_get_root(e->s, &e->root);
		if (r == 0) /* asked each time, as the kernel's registry is */
			r = bc_rpc_session_get_root(e->s, ret);
		/* -EPIPE, -ECONNRESET: it died while we connected or asked */
		if ((r != -EPIPE && r != -ECONNRESET) || !th_nap_until(end))
			return r;
		if (!e->root)
			rpc_entry_drop(e);
	}
}

static int rpc_lookup(const char *name, bc_binder **ret)
{
	static struct rpc_entry tab[4];
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	int i, r;

	*ret = NULL;
	pthread_mutex_lock(&mu);
	for (i = 0; i < 4 && tab[i].name[0] && strcmp(tab[i].name, name) != 0; i++)
		;
	if (i == 4) {
		r = -ENOSPC;
	} else {
		snprintf(tab[i].name, sizeof(tab[i].name), "%s", name);
		r = rpc_lookup_locked(&tab[i], ret);
	}
	pthread_mutex_unlock(&mu);
	if (r == 0 && !*ret)
		r = -ENOENT;
	return r;
}

pid_t lt_registry_start(void)
{
	if (lt_rpc()) {
		rpc_test_pid = getpid();
		return lt_spawn(rpc_registry_main, NULL);
	}
	return lt_spawn(registry_main, NULL);
}

int lt_publish(bc_process *p, const char *name, bc_binder *b)
{
	bc_binder *sm;
	bc_parcel *req;
	int r;

	if (lt_rpc())
		return rpc_publish(name, b);
	r = bc_process_get_handle(p, 0, &sm);
	if (r < 0)
		return r;
	r = bc_process_new_parcel(p, &req);
	if (r == 0)
		r = bc_parcel_write_string16(req, name);
	if (r == 0)
		r = bc_parcel_write_binder(req, b);
	if (r == 0)
		r = bc_binder_transact(sm, REG_ADD, req, NULL, 0, NULL);
	bc_parcel_unref(req);
	bc_binder_unref(sm);
	return r;
}

int lt_lookup(bc_process *p, const char *name, bc_binder **ret)
{
	bc_binder *sm;
	int r;

	if (lt_rpc())
		return rpc_lookup(name, ret);
	r = bc_process_get_handle(p, 0, &sm);
	if (r < 0)
		return r;
	*ret = NULL;
	/* until the service registered: a hang-catcher */
	for (int64_t end = th_now_ms() + TH_HANG_MS; !*ret;) {
		bc_parcel *req = NULL, *rep = NULL;

		r = bc_process_new_parcel(p, &req);
		if (r == 0)
			r = bc_parcel_write_string16(req, name);
		if (r == 0)
			r = bc_binder_transact(sm, REG_GET, req, &rep, 0, NULL);
		if (r == 0)
			r = bc_parcel_read_binder(rep, ret);
		bc_parcel_unref(req);
		bc_parcel_unref(rep);
		if (r < 0 || (!*ret && !th_nap_until(end)))
			break;
	}
	bc_binder_unref(sm);
	return r < 0 ? r : *ret ? 0 : -ENOENT;
}

/* ---- the test service ------------------------------------------------------ */

static pthread_mutex_t svc_mu = PTHREAD_MUTEX_INITIALIZER;
static int seq_count, seq_inorder, obj_created, obj_destroyed;
static bc_class *obj_class;

static int obj_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int32_t a, b;

	(void)self, (void)txn, (void)ud;
	if (code != SVC_ADD || bc_parcel_read_int32(in, &a) < 0 || bc_parcel_read_int32(in, &b) < 0)
		return -EBADMSG;
	return bc_parcel_write_int32(reply, a + b);
}

static void obj_destroy(void *ud)
{
	(void)ud;
	pthread_mutex_lock(&svc_mu);
	obj_destroyed++;
	pthread_mutex_unlock(&svc_mu);
}

static void *notify_later(void *arg)
{
	bc_binder *cb = arg;
	bc_parcel *req;

	usleep(20000);
	if (bc_binder_new_parcel(cb, &req) == 0) {
		bc_parcel_write_int32(req, 42);
		/* May fail if the client exits right after its last callback. */
		bc_binder_transact(cb, CB_NOTIFY, req, NULL, 0, NULL);
		bc_parcel_unref(req);
	}
	bc_binder_unref(cb);
	return NULL;
}

static void *defer_later(void *arg)
{
	bc_txn *txn = arg;

	usleep(50000);
	bc_txn_reply(txn, 0);
	bc_txn_unref(txn);
	return NULL;
}

static int svc_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int32_t a, b;
	int r;

	(void)ud;
	switch (code) {
	case SVC_ADD:
		if (bc_parcel_read_int32(in, &a) < 0 || bc_parcel_read_int32(in, &b) < 0)
			return -EBADMSG;
		return bc_parcel_write_int32(reply, a + b);
	case SVC_WHO:
		bc_parcel_write_int32(reply, bc_txn_get_calling_pid(txn));
		return bc_parcel_write_int32(reply, (int32_t)bc_txn_get_calling_euid(txn));
	case SVC_PINGPONG: {
		bc_binder *peer = NULL;
		int32_t depth = 0;

		if (bc_parcel_read_int32(in, &a) < 0 || bc_parcel_read_binder(in, &peer) < 0 || !peer)
			return -EBADMSG;
		r = a > 0 ? lt_call_pingpong(peer, a - 1, self, &depth) : 0;
		bc_binder_unref(peer);
		if (r < 0)
			return r;
		return bc_parcel_write_int32(reply, a > 0 ? depth + 1 : 0);
	}
	case SVC_REGISTER_CB: {
		bc_binder *cb = NULL;
		pthread_t th;

		if (bc_parcel_read_binder(in, &cb) < 0 || !cb)
			return -EBADMSG;
		if (pthread_create(&th, NULL, notify_later, cb) != 0)
			return -EAGAIN;
		pthread_detach(th);
		return 0;
	}
	case SVC_SEQ:
		if (bc_parcel_read_int32(in, &a) < 0)
			return -EBADMSG;
		pthread_mutex_lock(&svc_mu);
		if (a == seq_count)
			seq_inorder++;
		seq_count++;
		pthread_mutex_unlock(&svc_mu);
		return 0;
	case SVC_GET_SEQ:
		pthread_mutex_lock(&svc_mu);
		bc_parcel_write_int32(reply, seq_count);
		bc_parcel_write_int32(reply, seq_inorder);
		pthread_mutex_unlock(&svc_mu);
		return 0;
	case SVC_WRITE_FD: {
		const char *s;
		size_t n;
		int fd;

		if (bc_parcel_read_fd(in, &fd) < 0 || bc_parcel_read_string8(in, &s, &n) < 0 || !s)
			return -EBADMSG;
		if (write(fd, s, n) != (ssize_t)n)
			return -EIO;
		return 0;
	}
	case SVC_GET_FD: {
		int pfd[2];

		if (pipe(pfd) < 0)
			return -errno;
		if (write(pfd[1], "from-service", 12) != 12)
			return -EIO;
		close(pfd[1]);
		return bc_parcel_write_fd(reply, pfd[0], true);
	}
	case SVC_DEFER: {
		pthread_t th;

		if (bc_parcel_read_int32(in, &a) < 0)
			return -EBADMSG;
		bc_parcel_write_int32(bc_txn_get_reply(txn), 2 * a);
		if (pthread_create(&th, NULL, defer_later, bc_txn_ref(txn)) != 0)
			return -EAGAIN;
		pthread_detach(th);
		return BINDERC_TXN_DEFERRED;
	}
	case SVC_CREATE: {
		bc_binder *o;

		r = bc_binder_new(obj_class, NULL, &o);
		if (r < 0)
			return r;
		pthread_mutex_lock(&svc_mu);
		obj_created++;
		pthread_mutex_unlock(&svc_mu);
		r = bc_parcel_write_binder(reply, o);
		bc_binder_unref(o); /* the reply (then the kernel) holds it now */
		return r;
	}
	case SVC_STATS:
		pthread_mutex_lock(&svc_mu);
		bc_parcel_write_int32(reply, obj_created);
		bc_parcel_write_int32(reply, obj_destroyed);
		pthread_mutex_unlock(&svc_mu);
		return 0;
	case SVC_FLAGS: {
		const void *secret;

		/* the secret back, in a reply the library marks as sensitive
		 * when the call was */
		if (bc_parcel_read_raw(in, LT_SECRET_LEN, &secret) < 0)
			return -EBADMSG;
		r = bc_parcel_write_uint32(reply, bc_txn_get_flags(txn));
		return r < 0 ? r : bc_parcel_write_raw(reply, secret, LT_SECRET_LEN);
	}
	default:
		return -EBADMSG;
	}
}

/* The polling service over RPC: this thread polls the server's listening
 * socket and connections and runs every handler, as the kernel form polls
 * its device fd (bc_rpc_server_listen_polled: no thread of the
 * library's).  Returns only if the loop fails. */
#define RPC_POLL_MAX 64

static int rpc_poll_service(bc_binder *svc)
{
	struct pollfd pfd[RPC_POLL_MAX];
	bc_rpc_server *srv;
	char addr[128];
	int lfd, n, timeout;

	th_rpc_address(addr, sizeof(addr), rpc_test_pid, "svc");
	CHECK_OK(th_rpc_server(svc, addr, &srv, &lfd));
	CHECK_OK(bc_rpc_server_listen_polled(srv, lfd));
	lt_ready();
	while ((n = bc_rpc_server_get_pollfds(srv, pfd, RPC_POLL_MAX, &timeout)) >= 0) {
		CHECK(n <= RPC_POLL_MAX); /* a test's few clients */
		if (poll(pfd, (nfds_t)n, timeout) < 0 && errno != EINTR)
			return 1;
		for (int i = 0; i < n; i++) {
			/* -ENOENT: an fd gone with an earlier one's session */
			int r = pfd[i].revents ? bc_rpc_server_handle_polled(srv, pfd[i].fd) : 0;

			CHECK(r == 0 || r == -ENOENT);
		}
	}
	CHECK_OK(n);
	return 1;
}

int lt_service_main(void *mode)
{
	bool polling = mode != NULL;
	bc_process *p;
	bc_class *c;
	bc_binder *svc;
	int fd;

	CHECK_OK(lt_open(&p, !polling));
	CHECK_OK(bc_class_new(OBJ_DESC, obj_transact, obj_destroy, 0, &obj_class));
	CHECK_OK(bc_class_new(SVC_DESC, svc_transact, NULL, 0, &c));
	CHECK_OK(bc_binder_new(c, NULL, &svc));
	if (polling && lt_rpc())
		return rpc_poll_service(svc);
	if (polling) {
		CHECK_OK(bc_process_set_max_threads(p, 0));
		CHECK_OK(bc_process_setup_polling(p, &fd));
	}
	CHECK_OK(lt_publish(p, "svc", svc));
	lt_ready();
	if (!polling) {
		for (;;)
			pause();
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return 1;
		CHECK_OK(bc_process_handle_polled(p));
	}
}

/* ---- callbacks ---------------------------------------------------------------- */

static pthread_mutex_t cb_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cb_cv = PTHREAD_COND_INITIALIZER;
static int cb_count;

static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int32_t v;

	(void)ud;
	if (code == SVC_PINGPONG)
		return svc_transact(self, txn, code, in, reply, NULL);
	if (code != CB_NOTIFY || bc_parcel_read_int32(in, &v) < 0 || v != 42)
		return -EBADMSG;
	pthread_mutex_lock(&cb_mu);
	cb_count++;
	pthread_cond_broadcast(&cb_cv);
	pthread_mutex_unlock(&cb_mu);
	return 0;
}

bc_binder *lt_callback_new(void)
{
	bc_class *c;
	bc_binder *b = NULL;

	if (bc_class_new(CB_DESC, cb_transact, NULL, 0, &c) < 0)
		return NULL;
	bc_binder_new(c, NULL, &b);
	bc_class_unref(c);
	return b;
}

int lt_callback_wait(int n, int timeout_ms)
{
	struct timespec ts;
	int got;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&cb_mu);
	while (cb_count < n && pthread_cond_timedwait(&cb_cv, &cb_mu, &ts) == 0)
		;
	got = cb_count;
	pthread_mutex_unlock(&cb_mu);
	return got;
}

int lt_call_add(bc_binder *svc, int32_t a, int32_t b, int32_t *ret)
{
	bc_parcel *req = NULL, *rep = NULL;
	int r = bc_binder_new_parcel(svc, &req);

	if (r == 0)
		r = bc_parcel_write_int32(req, a);
	if (r == 0)
		r = bc_parcel_write_int32(req, b);
	if (r == 0)
		r = bc_binder_transact(svc, SVC_ADD, req, &rep, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_int32(rep, ret);
	bc_parcel_unref(req);
	bc_parcel_unref(rep);
	return r;
}

int lt_call_pingpong(bc_binder *target, int32_t n, bc_binder *self, int32_t *ret)
{
	bc_parcel *req = NULL, *rep = NULL;
	int r = bc_binder_new_parcel(target, &req);

	if (r == 0)
		r = bc_parcel_write_int32(req, n);
	if (r == 0)
		r = bc_parcel_write_binder(req, self);
	if (r == 0)
		r = bc_binder_transact(target, SVC_PINGPONG, req, &rep, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_int32(rep, ret);
	bc_parcel_unref(req);
	bc_parcel_unref(rep);
	return r;
}
