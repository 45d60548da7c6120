/* SPDX-License-Identifier: MIT */
/*
 * The steady call path allocates nothing (guest, once per device): after a
 * warm-up, a thousand calls through a held proxy (bc_binder_new_parcel,
 * bc_binder_transact, reading the reply, dropping both) make no heap
 * allocation in the client, and serving them makes none in the server.
 * Over RPC (test_lib_stress_rpc) the client's side holds as well; the
 * server makes one allocation a call (below, in client_main).
 *
 * Allocations are counted by interposing malloc, calloc and realloc in
 * this program (glibc's own strdup and friends call them too); the
 * memory still comes from glibc, whose free() is kept.  Under
 * AddressSanitizer (the host's RPC build), which owns malloc and cannot
 * be interposed, its malloc hook counts them instead.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "lt.h"
#include "th_rpc.h"

static atomic_long allocs;

#ifdef __SANITIZE_ADDRESS__
/* libasan calls it for every allocation (a weak symbol of its own) */
void __sanitizer_malloc_hook(const volatile void *p, size_t n);

void __sanitizer_malloc_hook(const volatile void *p, size_t n)
{
	(void)p, (void)n;
	atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
}
#else
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

void *malloc(size_t n)
{
	atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
	return __libc_realloc(p, n);
}
#endif

enum { NA_ADD = 1, NA_ALLOCS };
#define NA_DESC "binderc.test.INoAlloc"
#define WARMUP 200
#define CALLS 1000

static int na_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int32_t a, b;
	long n;

	(void)self, (void)txn, (void)ud;
	switch (code) {
	case NA_ADD:
		if (bc_parcel_read_int32(in, &a) < 0 || bc_parcel_read_int32(in, &b) < 0)
			return -EBADMSG;
		return bc_parcel_write_int32(reply, a + b);
	case NA_ALLOCS:
		n = atomic_load(&allocs);
		return bc_parcel_write_int64(reply, n);
	default:
		return -EBADMSG;
	}
}

/* One looper, the main thread, and no pool: the driver never asks for
 * more threads, whose start would allocate. */
static int server_main(void *arg)
{
	bc_process *p;
	bc_class *c;
	bc_binder *obj;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	/* over RPC: a thread per connection, each started when the client
	 * connects, none per call */
	if (!lt_rpc())
		CHECK_OK(bc_process_set_max_threads(p, 0));
	CHECK_OK(bc_class_new(NA_DESC, na_transact, NULL, 0, &c));
	CHECK_OK(bc_binder_new(c, NULL, &obj));
	CHECK_OK(lt_publish(p, "noalloc", obj));
	lt_ready();
	if (lt_rpc()) {
		for (;;)
			pause();
	}
	CHECK_OK(bc_process_join(p));
	return 0;
}

static int add(bc_binder *s, int32_t i)
{
	bc_parcel *req = NULL, *rep = NULL;
	int32_t v = -1;
	int r;

	r = bc_binder_new_parcel(s, &req);
	if (r == 0)
		r = bc_parcel_write_int32(req, i);
	if (r == 0)
		r = bc_parcel_write_int32(req, 1);
	if (r == 0)
		r = bc_binder_transact(s, NA_ADD, req, &rep, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_int32(rep, &v);
	bc_parcel_unref(req);
	bc_parcel_unref(rep);
	if (r == 0 && v != i + 1)
		r = -EBADMSG;
	return r;
}

static int server_allocs(bc_binder *s, int64_t *ret)
{
	bc_parcel *rep = NULL;
	int r = bc_binder_transact(s, NA_ALLOCS, NULL, &rep, 0, NULL);

	if (r == 0)
		r = bc_parcel_read_int64(rep, ret);
	bc_parcel_unref(rep);
	return r;
}

/* Over RPC: a session of our own, with no incoming connection, whose
 * thread would start (and allocate) whenever it gets to run, maybe among
 * the calls counted; nothing here calls us back.  The server is our
 * parent's child, named after it (lt.c). */
static int lookup_rpc(bc_rpc_session **ret_s, bc_binder **ret)
{
	char addr[128];
	int r;

	th_rpc_address(addr, sizeof(addr), getppid(), "noalloc");
	r = bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_FDS, ret_s);
	if (r == 0)
		r = bc_rpc_session_get_root(*ret_s, ret);
	return r < 0 ? r : *ret ? 0 : -ENOENT;
}

static int client_main(void *arg)
{
	int64_t s0 = 0, s1 = 0;
	bc_rpc_session *session = NULL;
	bc_process *p;
	bc_binder *s;
	long c0, c1;

	(void)arg;
	CHECK_OK(lt_open(&p, false));
	if (lt_rpc())
		CHECK_OK(lookup_rpc(&session, &s));
	else
		CHECK_OK(lt_lookup(p, "noalloc", &s));
	for (int i = 0; i < WARMUP; i++)
		CHECK_OK(add(s, i));
	CHECK_OK(server_allocs(s, &s0));
	CHECK_OK(server_allocs(s, &s0)); /* the first may have warmed its reply */
	c0 = atomic_load(&allocs);
	for (int i = 0; i < CALLS; i++)
		CHECK_OK(add(s, i));
	c1 = atomic_load(&allocs);
	CHECK_OK(server_allocs(s, &s1));
	fprintf(stderr, "%d calls: %ld allocations in the client, %lld in the server\n", CALLS, c1 - c0,
		(long long)(s1 - s0));
	CHECK(c1 == c0);
	/* Over RPC a served call allocates one thing: its bc_txn, which
	 * rpc_dispatch.c's run_local makes without a spare (the kernel path
	 * keeps one per thread; the RPC path hands the reply out while the
	 * transaction is dropped, so it has none to keep).  No more than
	 * that: the request and reply parcels come from the thread's cache. */
	if (lt_rpc())
		CHECK(s1 - s0 <= CALLS + 1); /* (+1: the NA_ALLOCS call itself) */
	else
		CHECK(s1 == s0);
	bc_binder_unref(s);
	bc_rpc_session_unref(session);
	bc_process_unref(p);
	return 0;
}

static pid_t registry, server;

static void setup(void)
{
	registry = lt_registry_start();
	cr_assert_gt(registry, 0);
	server = lt_spawn(server_main, NULL);
	cr_assert_gt(server, 0);
}

static void teardown(void)
{
	th_kill(server);
	th_kill(registry);
}

Test(lib_noalloc, steady_calls_allocate_nothing, .init = setup, .fini = teardown, .timeout = TH_TEST_TIMEOUT_S)
{
	pid_t client = lt_spawn(client_main, NULL);

	cr_assert_gt(client, 0);
	cr_assert_eq(th_wait(client, -1), 0, "client failed (see its output)");
}
