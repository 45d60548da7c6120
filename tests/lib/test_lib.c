/* SPDX-License-Identifier: MIT */
/*
 * libbinder-c across processes, on the device named by $BINDER_DEVICE:
 * a registry (context manager), a service process and client processes;
 * or the same over RPC binder on the host, with no device (lt.h, the
 * host binary test_lib_rpc).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <uapi/binder.h>

#include "lt.h"

static pid_t registry, service;

static void start_polling_service(void);

static void setup(void)
{
	registry = lt_registry_start();
	cr_assert_gt(registry, 0);
	service = lt_spawn(lt_service_main, NULL);
	cr_assert_gt(service, 0);
}

static void setup_polling(void)
{
	registry = lt_registry_start();
	cr_assert_gt(registry, 0);
	start_polling_service();
}

static void start_polling_service(void)
{
	service = lt_spawn(lt_service_main, (void *)1);
	cr_assert_gt(service, 0);
}

static void teardown(void)
{
	th_kill(service);
	th_kill(registry);
}

static void run_client(int (*fn)(void *), void *arg)
{
	pid_t pid = lt_spawn(fn, arg);

	cr_assert_gt(pid, 0);
	cr_assert_eq(th_wait(pid, -1), 0, "client failed (see its output)");
}

TestSuite(lib, .init = setup, .fini = teardown, .timeout = TH_TEST_TIMEOUT_S);

/* ---- basic calls ------------------------------------------------------- */

static int basic_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	bc_parcel *rep = NULL;
	char *desc;
	int32_t v, pid, euid;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK(bc_binder_is_remote(svc));
	CHECK_OK(bc_binder_ping(svc));
	CHECK_OK(bc_binder_get_interface(svc, &desc));
	CHECK(strcmp(desc, SVC_DESC) == 0);
	free(desc);
	CHECK_OK(lt_call_add(svc, 40, 2, &v));
	CHECK(v == 42);
	CHECK_OK(bc_binder_transact(svc, SVC_WHO, NULL, &rep, 0, NULL));
	CHECK_OK(bc_parcel_read_int32(rep, &pid));
	CHECK_OK(bc_parcel_read_int32(rep, &euid));
	CHECK(pid == getpid());
	CHECK(euid == (int32_t)geteuid());
	rep = bc_parcel_unref(rep);
	CHECK(bc_binder_transact(svc, 0x1234, NULL, NULL, 0, NULL) == -EBADMSG);
	/* The same handle gives the same proxy. */
	bc_binder *again;
	CHECK_OK(lt_lookup(p, "svc", &again));
	CHECK(again == svc);
	bc_binder_unref(again);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, basic_calls) { run_client(basic_client, NULL); }

/* ---- nested and recursive calls ---------------------------------------- */

static int nested_client(void *arg)
{
	bc_process *p;
	bc_binder *svc, *me;
	int32_t depth;

	(void)arg;
	CHECK_OK(lt_open(&p, false)); /* no pool: callbacks come on this thread */
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK((me = lt_callback_new()) != NULL);
	CHECK_OK(lt_call_pingpong(svc, 1, me, &depth));
	CHECK(depth == 1);
	CHECK_OK(lt_call_pingpong(svc, 16, me, &depth));
	CHECK(depth == 16);
	bc_binder_unref(me);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, nested_recursive_callbacks) { run_client(nested_client, NULL); }

/* ---- a callback object called back later -------------------------------- */

static int callback_client(void *arg)
{
	bc_process *p;
	bc_binder *svc, *cb;
	bc_parcel *req;

	(void)arg;
	CHECK_OK(lt_open(&p, true));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK((cb = lt_callback_new()) != NULL);
	for (int i = 0; i < 3; i++) {
		CHECK_OK(bc_binder_new_parcel(svc, &req));
		CHECK_OK(bc_parcel_write_binder(req, cb));
		CHECK_OK(bc_binder_transact(svc, SVC_REGISTER_CB, req, NULL, 0, NULL));
		bc_parcel_unref(req);
	}
	CHECK(lt_callback_wait(3, TH_HANG_MS) == 3);
	bc_binder_unref(cb);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, callback_object_called_back) { run_client(callback_client, NULL); }

/* ---- 8 threads x 1000 calls ---------------------------------------------- */

struct worker {
	bc_binder *svc;
	int id, bad, calls;
};

/* 1000 calls per thread; fewer on the (many times slower) debug kernel. */
static int calls_per_thread(void)
{
	return th_debug_kernel() ? 100 : 1000;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < w->calls; i++) {
		int32_t v = -1;

		if (lt_call_add(w->svc, w->id * 100000, i, &v) < 0 || v != w->id * 100000 + i)
			w->bad++;
	}
	return NULL;
}

static int threads_client(void *arg)
{
	struct worker w[8];
	pthread_t th[8];
	bc_process *p;
	bc_binder *svc;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	for (int i = 0; i < 8; i++) {
		w[i] = (struct worker){ .svc = svc, .id = i, .calls = calls_per_thread() };
		CHECK(pthread_create(&th[i], NULL, worker_main, &w[i]) == 0);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		CHECK(w[i].bad == 0);
	}
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, eight_threads_thousand_calls, .timeout = 900) { run_client(threads_client, NULL); }

/* ---- oneway ordering ----------------------------------------------------- */

static int oneway_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	bc_parcel *req, *rep = NULL;
	int32_t count, inorder;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	for (int i = 0; i < 500; i++) {
		CHECK_OK(bc_binder_new_parcel(svc, &req));
		CHECK_OK(bc_parcel_write_int32(req, i));
		CHECK_OK(bc_binder_transact(svc, SVC_SEQ, req, NULL, BINDERC_FLAG_ONEWAY, NULL));
		bc_parcel_unref(req);
	}
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		CHECK_OK(bc_binder_transact(svc, SVC_GET_SEQ, NULL, &rep, 0, NULL));
		CHECK_OK(bc_parcel_read_int32(rep, &count));
		CHECK_OK(bc_parcel_read_int32(rep, &inorder));
		rep = bc_parcel_unref(rep);
		if (count == 500 || !th_nap_until(end))
			break;
	}
	CHECK(count == 500);
	CHECK(inorder == 500);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, oneway_ordering) { run_client(oneway_client, NULL); }

/* ---- file descriptors ----------------------------------------------------- */

static int fd_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	bc_parcel *req, *rep = NULL;
	int pfd[2], fd;
	char buf[32] = "";

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK(pipe(pfd) == 0);
	CHECK_OK(bc_binder_new_parcel(svc, &req));
	CHECK_OK(bc_parcel_write_fd(req, pfd[1], true));
	CHECK_OK(bc_parcel_write_string8(req, "to-service"));
	CHECK_OK(bc_binder_transact(svc, SVC_WRITE_FD, req, NULL, 0, NULL));
	bc_parcel_unref(req); /* closes our write end */
	CHECK(read(pfd[0], buf, sizeof(buf) - 1) == 10);
	CHECK(strcmp(buf, "to-service") == 0);
	close(pfd[0]);
	/* An fd in the reply. */
	CHECK_OK(bc_binder_transact(svc, SVC_GET_FD, NULL, &rep, 0, NULL));
	CHECK_OK(bc_parcel_read_dup_fd(rep, &fd));
	rep = bc_parcel_unref(rep);
	memset(buf, 0, sizeof(buf));
	CHECK(read(fd, buf, sizeof(buf) - 1) == 12);
	CHECK(strcmp(buf, "from-service") == 0);
	close(fd);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, fd_passing) { run_client(fd_client, NULL); }

/* ---- deferred replies ------------------------------------------------------ */

static int defer_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	bc_parcel *req, *rep = NULL;
	int32_t v;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	for (int i = 1; i <= 3; i++) {
		CHECK_OK(bc_binder_new_parcel(svc, &req));
		CHECK_OK(bc_parcel_write_int32(req, 21 * i));
		CHECK_OK(bc_binder_transact(svc, SVC_DEFER, req, &rep, 0, NULL));
		CHECK_OK(bc_parcel_read_int32(rep, &v));
		CHECK(v == 42 * i);
		rep = bc_parcel_unref(rep);
		bc_parcel_unref(req);
	}
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, deferred_reply) { run_client(defer_client, NULL); }

/* ---- death recipients -------------------------------------------------------- */

static pthread_mutex_t death_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t death_cv = PTHREAD_COND_INITIALIZER;
static int deaths;

static void on_death(void *cookie)
{
	pthread_mutex_lock(&death_mu);
	deaths += cookie == &deaths ? 1 : 100;
	pthread_cond_broadcast(&death_cv);
	pthread_mutex_unlock(&death_mu);
}

static void on_death_unlinked(void *cookie)
{
	(void)cookie;
	on_death(NULL);
}

/* A recipient that drops its own registration (binderc/slot.h allows it). */
static atomic_int self_dropped;

static void on_death_drop_self(void *userdata)
{
	bc_slot **slot = userdata;

	*slot = bc_slot_unref(*slot);
	atomic_fetch_add(&self_dropped, 1);
}

static int death_client(void *arg)
{
	static bc_slot *self;
	bc_slot *death = NULL, *unlinked = NULL, *again = NULL;
	bc_process *p;
	bc_binder *svc;
	struct timespec ts;
	int32_t v;

	(void)arg;
	CHECK_OK(lt_open(&p, true));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK_OK(bc_binder_link_to_death(svc, on_death, &deaths, &death));
	CHECK(bc_slot_get_userdata(death) == &deaths);
	CHECK_OK(bc_binder_link_to_death(svc, on_death_unlinked, NULL, &unlinked));
	unlinked = bc_slot_unref(unlinked);
	CHECK_OK(bc_binder_link_to_death(svc, on_death_drop_self, &self, &self));
	CHECK_OK(lt_call_add(svc, 1, 1, &v));
	lt_ready(); /* the parent kills the service now */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += TH_HANG_MS / 1000; /* a hang-catcher */
	pthread_mutex_lock(&death_mu);
	while (deaths == 0 && pthread_cond_timedwait(&death_cv, &death_mu, &ts) == 0)
		;
	pthread_mutex_unlock(&death_mu);
	CHECK(deaths == 1);
	CHECK(!bc_binder_is_alive(svc));
	CHECK(lt_call_add(svc, 1, 1, &v) == -EPIPE);
	CHECK(bc_binder_link_to_death(svc, on_death, &deaths, &again) == -EPIPE);
	CHECK(again == NULL);
	/* recipients run in turn on one thread: this one is done too */
	CHECK(atomic_load(&self_dropped) == 1 && self == NULL);
	bc_slot_unref(death);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, death_recipient_on_sigkill)
{
	pid_t c = lt_spawn(death_client, NULL);

	cr_assert_gt(c, 0);
	kill(service, SIGKILL);
	th_wait(service, -1);
	service = 0;
	cr_assert_eq(th_wait(c, -1), 0);
}

/* ---- frozen-state watches ------------------------------------------------------ */

static pthread_mutex_t frozen_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t frozen_cv = PTHREAD_COND_INITIALIZER;
/* calls seen per watcher (cookie 0 or 1) and the last state each heard */
static int frozen_calls[2], frozen_last[2];

static void on_frozen(bool is_frozen, void *cookie)
{
	int i = cookie == &frozen_calls[1];

	pthread_mutex_lock(&frozen_mu);
	frozen_calls[i]++;
	frozen_last[i] = is_frozen;
	pthread_cond_broadcast(&frozen_cv);
	pthread_mutex_unlock(&frozen_mu);
}

/* Wait (5 s at most) until watcher @i was called @n times in all; its
 * last state, or -1 on timeout. */
static int frozen_wait(int i, int n)
{
	struct timespec ts;
	int last = -1;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += TH_HANG_MS / 1000; /* a hang-catcher */
	pthread_mutex_lock(&frozen_mu);
	while (frozen_calls[i] < n && pthread_cond_timedwait(&frozen_cv, &frozen_mu, &ts) == 0)
		;
	if (frozen_calls[i] >= n)
		last = frozen_last[i];
	pthread_mutex_unlock(&frozen_mu);
	return last;
}

static int frozen_calls_of(int i)
{
	int n;

	pthread_mutex_lock(&frozen_mu);
	n = frozen_calls[i];
	pthread_mutex_unlock(&frozen_mu);
	return n;
}

/* BINDER_FREEZE of @pid through a plain fd of the device under test. */
static int freeze_pid(pid_t pid, bool enable)
{
	/* the kernel waits for calls in flight to be counted out, and returns
	 * as soon as they are: a hang-catcher, not a guess of how long */
	struct binder_freeze_info info = { .pid = (uint32_t)pid, .enable = enable, .timeout_ms = TH_HANG_MS };
	int fd = open(th_device(), O_RDWR | O_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = ioctl(fd, BINDER_FREEZE, &info) < 0 ? -errno : 0;
	close(fd);
	return r;
}

/* Mainline before 6.12 has no frozen-binder notifications. */
static bool frozen_supported(void)
{
	return th_is_binderc() || !th_kernel_before(6, 12);
}

static int frozen_client(void *arg)
{
	pid_t svc_pid = (pid_t)(intptr_t)arg;
	bc_slot *w0 = NULL, *w1 = NULL;
	bc_process *p;
	bc_binder *svc, *local;
	bool st;
	int r;

	CHECK_OK(lt_open(&p, true));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	local = lt_callback_new();
	CHECK(local != NULL);
	CHECK(bc_binder_watch_frozen(local, on_frozen, &frozen_calls[0], &w0) == -ENOSYS);
	CHECK(bc_binder_get_frozen(local, &st) == -ENOSYS);
	CHECK(bc_binder_get_frozen(svc, &st) == -ENODATA);
	r = bc_binder_watch_frozen(svc, on_frozen, &frozen_calls[0], &w0);
	if (!frozen_supported()) {
		/* a clear error, no hang; the proxy still works */
		CHECK(r == -EOPNOTSUPP);
		CHECK(w0 == NULL);
		CHECK_OK(bc_binder_ping(svc));
		fprintf(stderr, "frozen watch: -EOPNOTSUPP on this driver, as expected\n");
		goto out;
	}
	CHECK_OK(r);
	/* the current state at once */
	CHECK(frozen_wait(0, 1) == 0);
	CHECK_OK(bc_binder_get_frozen(svc, &st));
	CHECK(!st);
	CHECK_OK(freeze_pid(svc_pid, true));
	CHECK(frozen_wait(0, 2) == 1);
	CHECK_OK(bc_binder_get_frozen(svc, &st));
	CHECK(st);
	/* a sync call to the frozen service fails (BR_FROZEN_REPLY) */
	CHECK(bc_binder_ping(svc) == -EAGAIN);
	CHECK_OK(freeze_pid(svc_pid, false));
	CHECK(frozen_wait(0, 3) == 0);
	CHECK_OK(bc_binder_ping(svc));

	/* a second watcher hears from the next change on */
	CHECK_OK(bc_binder_watch_frozen(svc, on_frozen, &frozen_calls[1], &w1));
	CHECK_OK(freeze_pid(svc_pid, true));
	CHECK(frozen_wait(0, 4) == 1);
	CHECK(frozen_wait(1, 1) == 1);
	w0 = bc_slot_unref(w0);
	CHECK_OK(freeze_pid(svc_pid, false));
	CHECK(frozen_wait(1, 2) == 0);
	CHECK(frozen_calls_of(0) == 4);
	/* the last watcher gone: nobody is called */
	w1 = bc_slot_unref(w1);
	CHECK(bc_binder_get_frozen(svc, &st) == -ENODATA);
	CHECK_OK(freeze_pid(svc_pid, true));
	CHECK_OK(freeze_pid(svc_pid, false));
	/* a negative check: a stray call would come within this (on a slow
	 * guest it may come later, and the check passes wrongly, never fails
	 * wrongly) */
	usleep(200 * 1000);
	CHECK(frozen_calls_of(0) == 4 && frozen_calls_of(1) == 2);
	/* and a new watch starts over with the current state */
	CHECK_OK(bc_binder_watch_frozen(svc, on_frozen, &frozen_calls[0], &w0));
	CHECK(frozen_wait(0, 5) == 0);
	w0 = bc_slot_unref(w0);
	fprintf(stderr, "frozen watch: %d and %d calls\n", frozen_calls_of(0), frozen_calls_of(1));
out:
	bc_binder_unref(local);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, frozen_state_watch)
{
	th_skip_unless(!lt_rpc(), "freezing is the kernel's (BINDER_FREEZE)");
	run_client(frozen_client, (void *)(intptr_t)service);
}

/* Mainline has BR_TRANSACTION_PENDING_FROZEN from Linux 6.3 on. */
static bool pending_frozen_supported(void)
{
	const char *drv = getenv("BINDERC_TEST_DRIVER");
	struct utsname u;
	int major = 0, minor = 0;

	if (drv && strcmp(drv, "binderc") == 0)
		return true;
	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return true;
	return major > 6 || (major == 6 && minor >= 3);
}

static int send_seq(bc_binder *svc, int i, uint32_t flags)
{
	bc_parcel *req;
	int r;

	CHECK_OK(bc_binder_new_parcel(svc, &req));
	CHECK_OK(bc_parcel_write_int32(req, i));
	r = bc_binder_transact(svc, SVC_SEQ, req, NULL, BINDERC_FLAG_ONEWAY | flags, NULL);
	bc_parcel_unref(req);
	return r;
}

static int frozen_oneway_client(void *arg)
{
	pid_t svc_pid = (pid_t)(intptr_t)arg;
	bool told = pending_frozen_supported();
	bc_parcel *rep = NULL;
	int32_t count = 0, inorder = 0;
	bc_process *p;
	bc_binder *svc;

	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK(bc_binder_transact(svc, SVC_SEQ, NULL, NULL, 0x80, NULL) == -EINVAL);
	/* not frozen: 0 with or without the flag */
	CHECK(send_seq(svc, 0, BINDERC_FLAG_TELL_FROZEN) == 0);
	CHECK_OK(freeze_pid(svc_pid, true));
	/* frozen: queued, said only to a caller that asked */
	CHECK(send_seq(svc, 1, 0) == 0);
	CHECK(send_seq(svc, 2, BINDERC_FLAG_TELL_FROZEN) == (told ? BINDERC_QUEUED_FROZEN : 0));
	CHECK(bc_binder_ping(svc) == -EAGAIN);
	CHECK_OK(freeze_pid(svc_pid, false));
	/* thawed: both queued calls delivered, in order */
	for (int64_t end = th_now_ms() + TH_HANG_MS; count < 3;) {
		CHECK_OK(bc_binder_transact(svc, SVC_GET_SEQ, NULL, &rep, 0, NULL));
		CHECK_OK(bc_parcel_read_int32(rep, &count));
		CHECK_OK(bc_parcel_read_int32(rep, &inorder));
		rep = bc_parcel_unref(rep);
		if (count < 3 && !th_nap_until(end))
			break;
	}
	CHECK(count == 3 && inorder == 3);
	CHECK(send_seq(svc, 3, BINDERC_FLAG_TELL_FROZEN) == 0);
	fprintf(stderr, "oneway to frozen: %s\n", told ? "told BINDERC_QUEUED_FROZEN" : "queued silently (driver)");
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, oneway_to_frozen_is_queued_and_told)
{
	th_skip_unless(!lt_rpc(), "freezing is the kernel's (BINDER_FREEZE)");
	run_client(frozen_oneway_client, (void *)(intptr_t)service);
}

/* ---- an allocation failing in the driver ------------------------------------- */

/* The driver's count of BR_ERROR sent (global "BR_ERROR: N" of its stats). */
static long br_errors(void)
{
	FILE *f = fopen(th_is_binderc() ? "/sys/kernel/debug/binderc/stats" : "/sys/kernel/debug/binder/stats", "r");
	char line[128];
	long n = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "BR_ERROR: %ld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n < 0 ? 0 : n;
}

/*
 * A death notification whose allocation fails in the driver (the debug
 * kernel's fault injection): the driver queues BR_ERROR and takes no
 * command until the thread reads it.  libbinder-c spun in bc__write (the
 * write never progressed), dropped the commands a short write left, and
 * read BR_ERROR as carrying an int, eating the next return: calls after it
 * hung.  Every call here must still be answered.
 */
static int failed_death_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	bc_slot *slot = NULL;
	long before;
	int32_t v;
	int nth, n;

	(void)arg;
	CHECK_OK(lt_open(&p, false)); /* no pool: everything on this thread */
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK_OK(lt_call_add(svc, 1, 2, &v));
	/* once through, so nothing of the library's is touched for the first
	 * time below (fail-nth counts page faults too) */
	CHECK_OK(bc_binder_link_to_death(svc, on_death, &deaths, &slot));
	slot = bc_slot_unref(slot);
	nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	CHECK(nth >= 0);
	before = br_errors();
	/* fail the 1st, 2nd, ... allocation until the driver reports one */
	for (n = 1; n <= 8 && br_errors() == before; n++) {
		char arm[8];
		int r;

		snprintf(arm, sizeof(arm), "%d", n);
		CHECK(write(nth, arm, strlen(arm)) == (ssize_t)strlen(arm));
		r = bc_binder_link_to_death(svc, on_death, &deaths, &slot);
		CHECK(write(nth, "0", 1) == 1);
		CHECK_OK(r);
		CHECK_OK(lt_call_add(svc, n, 40, &v));
		CHECK(v == n + 40);
		slot = bc_slot_unref(slot);
	}
	close(nth);
	fprintf(stderr, "BR_ERROR sent by the driver: %ld (fail-nth up to %d)\n", br_errors() - before,
		n - 1);
	CHECK(br_errors() > before);
	for (int i = 0; i < 10; i++) {
		CHECK_OK(lt_call_add(svc, i, 1, &v));
		CHECK(v == i + 1);
	}
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

static void write_knob(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(val, f);
	cr_assert_eq(fclose(f), 0, "%s", path);
}

Test(lib, death_request_failing_in_the_driver)
{
	th_skip_unless(!lt_rpc(), "the driver's allocations: kernel only");
	th_skip_unless(th_have_fault_injection(), "no fault injection in this kernel (debug kernel only)");
	/* sleeping allocations may fail too (the drivers' are GFP_KERNEL) */
	write_knob("/sys/kernel/debug/failslab/ignore-gfp-wait", "N");
	write_knob("/sys/kernel/debug/failslab/verbose", "0");
	run_client(failed_death_client, NULL);
}

/* ---- object lifetime ---------------------------------------------------------- */

static int create_client(void *arg)
{
	bc_process *p;
	bc_binder *svc, *obj;
	bc_parcel *rep = NULL;
	int32_t v;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	CHECK_OK(bc_binder_transact(svc, SVC_CREATE, NULL, &rep, 0, NULL));
	CHECK_OK(bc_parcel_read_binder(rep, &obj));
	CHECK(obj != NULL);
	rep = bc_parcel_unref(rep);
	CHECK_OK(lt_call_add(obj, 3, 4, &v));
	CHECK(v == 7);
	/* Exit without dropping anything: the kernel does it for us. */
	if (arg)
		_exit(0);
	bc_binder_unref(obj);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

static int stats_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	bc_parcel *rep = NULL;
	int32_t created = 0, destroyed = 0;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		CHECK_OK(bc_binder_transact(svc, SVC_STATS, NULL, &rep, 0, NULL));
		CHECK_OK(bc_parcel_read_int32(rep, &created));
		CHECK_OK(bc_parcel_read_int32(rep, &destroyed));
		rep = bc_parcel_unref(rep);
		if ((created == 3 && destroyed == 3) || !th_nap_until(end))
			break;
	}
	fprintf(stderr, "objects created %d, destroyed %d\n", created, destroyed);
	CHECK(created == 3);
	CHECK(destroyed == 3);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, objects_released_after_clients_exit)
{
	run_client(create_client, NULL);
	run_client(create_client, (void *)1);
	run_client(create_client, (void *)1);
	run_client(stats_client, NULL);
}

/* ---- sensitive data: BINDERC_FLAG_CLEAR_BUF ------------------------------------ */

/*
 * SVC_FLAGS with @flags: the secret there and back; *@seen: the flags the
 * handler saw; *@kept: whether the request's buffer still held the secret
 * once the library let it go.  A parcel freed goes to this thread's
 * parcel cache, its buffer with it, for the next new parcel; a sensitive
 * one is never kept with its contents (parcel.h).  What the driver gave
 * (the handler's request, our reply) is the driver's to clear, on free:
 * tests/driver/test_multiproc.c checks that.
 */
static int flags_call(bc_binder *svc, uint32_t flags, uint32_t *seen, bool *kept)
{
	bc_parcel *req, *rep = NULL, *next;
	const void *buf, *echo;

	CHECK_OK(bc_binder_new_parcel(svc, &req));
	CHECK_OK(bc_parcel_write_raw(req, LT_SECRET, LT_SECRET_LEN));
	CHECK_OK(bc_binder_transact(svc, SVC_FLAGS, req, &rep, flags, NULL));
	CHECK_OK(bc_parcel_read_uint32(rep, seen));
	CHECK_OK(bc_parcel_read_raw(rep, LT_SECRET_LEN, &echo));
	CHECK(memcmp(echo, LT_SECRET, LT_SECRET_LEN) == 0);
	buf = bc_parcel_data(req);
	/* the request last: the cache hands out its most recent first (over
	 * RPC the reply has a buffer of its own, which it keeps too) */
	bc_parcel_unref(rep);
	bc_parcel_unref(req);
	CHECK_OK(bc_parcel_new(&next));
	/* the same buffer, or nothing to look at (the control shows it is) */
	CHECK(bc_parcel_data(next) == buf);
	*kept = memcmp(bc_parcel_data(next), LT_SECRET, LT_SECRET_LEN) == 0;
	bc_parcel_unref(next);
	return 0;
}

static int clear_buf_client(void *arg)
{
	bc_process *p;
	bc_binder *svc;
	uint32_t seen;
	bool kept;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	CHECK_OK(lt_lookup(p, "svc", &svc));
	/* the control: a plain call, its buffer cached as it was */
	CHECK(flags_call(svc, 0, &seen, &kept) == 0);
	CHECK(seen == 0);
	CHECK(kept);
	/* the handler sees the flag; our request is cleared */
	CHECK(flags_call(svc, BINDERC_FLAG_CLEAR_BUF, &seen, &kept) == 0);
	CHECK(seen == BINDERC_FLAG_CLEAR_BUF);
	CHECK(!kept);
	bc_binder_unref(svc);
	bc_process_unref(p);
	return 0;
}

Test(lib, clear_buf_flag_seen_and_request_cleared) { run_client(clear_buf_client, NULL); }

/* ---- polling mode service --------------------------------------------------------- */

Test(lib_polling, basic_and_nested, .init = setup_polling, .fini = teardown, .timeout = TH_TEST_TIMEOUT_S)
{
	run_client(basic_client, NULL);
	run_client(nested_client, NULL);
	run_client(fd_client, NULL);
}

/* ---- the example program ----------------------------------------------------- */

/* The example next to this binary: the guest's (on the device), or the
 * host's RPC build (tests/lib/build.mk), run with --rpc at a socket of
 * this test's.  Its first line of output, and its exit status. */
static int run_example(char *line, size_t size)
{
	char path[4096], cmd[4400];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 64);
	FILE *f;

	cr_assert_gt(n, 0);
	path[n] = 0;
	strcpy(strrchr(path, '/') + 1, "libbinder-c-example-hello");
	if (lt_rpc())
		snprintf(cmd, sizeof(cmd), "'%s' --rpc unix-abstract:binderc-test.%d.example", path, (int)getpid());
	else
		snprintf(cmd, sizeof(cmd), "'%s'", path);
	f = popen(cmd, "r");
	cr_assert_not_null(f);
	if (!fgets(line, (int)size, f))
		line[0] = 0;
	return pclose(f);
}

Test(lib_example, hello, .timeout = TH_TEST_TIMEOUT_S)
{
	char line[256] = "";
	int status;

	/* The previous test's context manager may still be going away
	 * (over RPC there is none: once). */
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		status = run_example(line, sizeof(line));
		if (status == 0 || lt_rpc() || !th_nap_until(end))
			break;
	}
	cr_assert(strncmp(line, "hello world, from pid ", 22) == 0, "got: %s", line);
	cr_assert_eq(status, 0);
}
