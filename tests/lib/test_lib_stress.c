/* SPDX-License-Identifier: MIT */
/*
 * libbinder-c under contention (guest, once per device): a client's
 * threads look up, call, link to death, promote weak references to and
 * pass between them proxies of one service handle while the service is
 * killed and restarted; then they create objects in the last service and
 * drop them from other threads.
 *
 * What must hold: while a thread holds a proxy, a lookup of its handle
 * gives that same proxy (one proxy per handle, though other threads drop
 * their last references to it and look it up again meanwhile); calls
 * either succeed with the right answer or fail as calls to a dead
 * service do; and once everything is dropped the service has seen every
 * object it created released (the reference-count commands the client
 * sent balance: one lost BC_RELEASE or BC_DECREFS keeps an object).
 *
 * Over RPC binder (test_lib_stress_rpc, on the host) the service killed
 * is the process serving its sessions, a lookup goes through lt.c's RPC
 * registry (a session per service, connected again once it died), and
 * the balance is of DEC_STRONG.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lt.h"

#define THREADS 6
#define SLOTS 8
#define KILLS 3
#define OBJECTS_PER_THREAD 40

static pid_t registry, service;

static struct {
	bc_process *p;
	atomic_bool stop;
	atomic_int errors, calls, failed_calls, deaths, lookups;
	pthread_mutex_t mu; /* slots */
	bc_binder *slot[SLOTS];
} sh = { .mu = PTHREAD_MUTEX_INITIALIZER };

#define FAIL(...)                                                                   \
	do {                                                                        \
		fprintf(stderr, "[%d] %s:%d: ", (int)getpid(), __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                                       \
		fputc('\n', stderr);                                                \
		atomic_fetch_add(&sh.errors, 1);                                    \
	} while (0)

static void on_death(void *cookie)
{
	(void)cookie;
	atomic_fetch_add(&sh.deaths, 1);
}

/* Put a reference into a random slot; the one it replaces is dropped here,
 * on another thread than the one that took it. */
static void swap_slot(bc_binder *b, unsigned i)
{
	bc_binder *old;

	pthread_mutex_lock(&sh.mu);
	old = sh.slot[i % SLOTS];
	sh.slot[i % SLOTS] = b;
	pthread_mutex_unlock(&sh.mu);
	bc_binder_unref(old);
}

static void drop_slots(void)
{
	for (int i = 0; i < SLOTS; i++)
		swap_slot(NULL, i);
}

/* Over RPC there is no handle table: a lookup of the service gives the
 * proxy of its root in the session the registry of lt.c holds, and while
 * that session lives it must be @b itself.  A different proxy is right
 * only once @b's session has ended (the registry connects again only
 * then, and an end is for good). */
static void check_same_root_rpc(bc_binder *b)
{
	bc_binder *again = NULL;
	int r = lt_lookup(sh.p, "svc", &again);

	if (r < 0)
		FAIL("lookup again: %d", r);
	else if (again != b && bc_binder_is_alive(b))
		FAIL("two proxies of one live service");
	bc_binder_unref(again);
}

/* The handle of @b looked up again must be @b itself.  @root: @b is the
 * service's, not an object it created; over RPC only the root can be
 * looked up again (the objects' proxies are checked by their calls and
 * their release alone: no handle to look them up by). */
static void check_same_proxy(bc_binder *b, bool root)
{
	bc_binder *again = NULL;
	uint32_t h;
	int r;

	if (lt_rpc()) {
		if (root)
			check_same_root_rpc(b);
		return;
	}
	if (bc_binder_get_handle(b, &h) < 0) {
		FAIL("not a proxy");
		return;
	}
	r = bc_process_get_handle(sh.p, h, &again);
	if (r < 0)
		FAIL("bc_process_get_handle(%u): %d", h, r);
	else if (again != b)
		FAIL("two proxies for handle %u", h);
	bc_binder_unref(again);
}

/* A call to a service that may be dead or dying. */
static void call(bc_binder *s, int32_t i)
{
	int32_t v = 0;
	int r = lt_call_add(s, i, 1, &v);

	if (r == 0) {
		atomic_fetch_add(&sh.calls, 1);
		if (v != i + 1)
			FAIL("add(%d, 1) = %d", i, v);
	} else if (r == -EPIPE || r == -ECOMM) {
		atomic_fetch_add(&sh.failed_calls, 1);
	} else {
		FAIL("call: %d", r);
	}
}

static void *storm(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 7919u + 1;

	for (int32_t i = 0; !atomic_load(&sh.stop); i++) {
		bc_binder *s = NULL, *s2 = NULL;
		bc_weak *w = NULL;
		bc_slot *slot = NULL;
		int r = lt_lookup(sh.p, "svc", &s);

		if (r < 0) {
			FAIL("lookup: %d", r);
			usleep(10000);
			continue;
		}
		atomic_fetch_add(&sh.lookups, 1);
		check_same_proxy(s, true);
		switch (rand_r(&seed) % 4) {
		case 0:
			call(s, i);
			break;
		case 1:
			r = bc_binder_link_to_death(s, on_death, &sh, &slot);
			if (r < 0 && r != -EPIPE)
				FAIL("link_to_death: %d", r);
			call(s, i);
			/* whether or not the death came first and ended it */
			if (r == 0)
				slot = bc_slot_unref(slot);
			break;
		case 2:
			/* hold it weakly only, then promote (dead: -ESRCH).  Over
			 * RPC the registry (lt.c, in this process) holds the
			 * root's proxy: only a dead session's fails, and an RPC
			 * proxy whose strong count went is never revived. */
			if ((r = bc_weak_new(s, &w)) < 0) {
				FAIL("bc_weak_new: %d", r);
				break;
			}
			s = bc_binder_unref(s);
			r = bc_weak_promote(w, &s2);
			if (r == 0) {
				check_same_proxy(s2, true);
				call(s2, i);
				bc_binder_unref(s2);
			} else if (r != -ESRCH) {
				FAIL("bc_weak_promote: %d", r);
			}
			bc_weak_unref(w);
			break;
		default:
			swap_slot(bc_binder_ref(s), rand_r(&seed));
			break;
		}
		bc_binder_unref(s);
		if (rand_r(&seed) % 16 == 0)
			drop_slots();
	}
	return NULL;
}

/* Objects of the last service: created on one thread, released on others. */
static void *objects(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 104729u + 3;
	bc_binder *s = NULL;
	int r = lt_lookup(sh.p, "svc", &s);

	if (r < 0) {
		FAIL("lookup: %d", r);
		return NULL;
	}
	for (int i = 0; i < OBJECTS_PER_THREAD; i++) {
		bc_parcel *rep = NULL;
		bc_binder *o = NULL;
		int32_t v = 0;

		r = bc_binder_transact(s, SVC_CREATE, NULL, &rep, 0, NULL);
		if (r == 0)
			r = bc_parcel_read_binder(rep, &o);
		bc_parcel_unref(rep);
		if (r < 0 || !o) {
			FAIL("create: %d", r);
			break;
		}
		check_same_proxy(o, false);
		r = lt_call_add(o, i, 2, &v);
		if (r < 0 || v != i + 2)
			FAIL("object add: %d (%d)", r, v);
		if (rand_r(&seed) % 2)
			swap_slot(bc_binder_ref(o), rand_r(&seed));
		bc_binder_unref(o);
	}
	bc_binder_unref(s);
	return NULL;
}

static int client_main(void *arg)
{
	int go = (int)(intptr_t)arg;
	pthread_t th[THREADS];
	bc_binder *s = NULL;
	int32_t created = -1, destroyed = -2;
	char c;

	CHECK_OK(lt_open(&sh.p, true));
	lt_ready();
	for (intptr_t i = 0; i < THREADS; i++)
		CHECK(pthread_create(&th[i], NULL, storm, (void *)i) == 0);
	/* the test writes when it is done killing services */
	CHECK(read(go, &c, 1) == 1);
	atomic_store(&sh.stop, true);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	drop_slots();
	fprintf(stderr, "storm: %d lookups, %d calls, %d failed on dead services, %d deaths heard\n",
		atomic_load(&sh.lookups), atomic_load(&sh.calls), atomic_load(&sh.failed_calls),
		atomic_load(&sh.deaths));
	CHECK(atomic_load(&sh.lookups) > 0 && atomic_load(&sh.calls) > 0);

	for (intptr_t i = 0; i < THREADS; i++)
		CHECK(pthread_create(&th[i], NULL, objects, (void *)i) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	drop_slots();
	CHECK_OK(lt_lookup(sh.p, "svc", &s));
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		bc_parcel *rep = NULL;

		CHECK_OK(bc_binder_transact(s, SVC_STATS, NULL, &rep, 0, NULL));
		CHECK_OK(bc_parcel_read_int32(rep, &created));
		CHECK_OK(bc_parcel_read_int32(rep, &destroyed));
		bc_parcel_unref(rep);
		if ((created == THREADS * OBJECTS_PER_THREAD && destroyed == created) || !th_nap_until(end))
			break;
	}
	fprintf(stderr, "objects: created %d, destroyed %d\n", created, destroyed);
	if (lt_rpc())
		fprintf(stderr, "objects: skipped over RPC: looking their proxies up again (no handle table)\n");
	CHECK(created == THREADS * OBJECTS_PER_THREAD);
	CHECK(destroyed == created);
	bc_binder_unref(s);
	CHECK(atomic_load(&sh.errors) == 0);
	bc_process_unref(sh.p);
	return 0;
}

static void setup(void)
{
	registry = lt_registry_start();
	cr_assert_gt(registry, 0);
	service = lt_spawn(lt_service_main, NULL);
	cr_assert_gt(service, 0);
}

static void teardown(void)
{
	th_kill(service);
	th_kill(registry);
}

Test(lib_stress, proxies_while_the_service_dies_and_restarts, .init = setup, .fini = teardown, .timeout = 600)
{
	int go[2];
	pid_t client;

	cr_assert_eq(pipe(go), 0);
	client = lt_spawn(client_main, (void *)(intptr_t)go[0]);
	cr_assert_gt(client, 0);
	close(go[0]);
	/* pacing of the storm, not bounds: a slow guest only does less in
	 * each interval, and the client's checks hold either way */
	for (int k = 0; k < KILLS; k++) {
		usleep(700000);
		th_kill(service);
		usleep(100000);
		service = lt_spawn(lt_service_main, NULL);
		cr_assert_gt(service, 0);
	}
	usleep(500000);
	cr_assert_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	cr_assert_eq(th_wait(client, -1), 0, "client failed (see its output)");
}
