/* SPDX-License-Identifier: MIT */
/*
 * Receive-buffer pages under memory pressure.  Both drivers keep the pages
 * of freed buffers on an lru and a shrinker gives them back;
 * `echo 2 > /proc/sys/vm/drop_caches` runs every shrinker at once.  Both
 * print each proc's pages in their debugfs stats file ("pages:
 * IN_USE:LRU:FREE" under "proc PID"), which is how the figures are read
 * here, the same way on each driver; binderc's stats also count the pages
 * reclaimed over all procs.
 *
 * The races (munmap or process exit against a shrinker that is running)
 * are the CVE-2019-1999 and CVE-2023-52438 shapes with reclaim looping in
 * a thread of its own; what they must not do (use after free, leaks,
 * lockdep reports) is for KASAN, kmemleak and lockdep on the debug kernel.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

#define RX_SLOT 3
#define RX_PTR 0x7300
#define RX_COOKIE 0x7301
#define BURST_CALLS 16
#define BURST_BYTES (64 * 1024)
#define PAGE 4096

TestSuite(shrink, .init = fixture_setup, .fini = fixture_teardown, .timeout = 600);

/* 2: reclaim slab objects, which runs every shrinker (binder's too). */
static void drop_slab(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	cr_assert_geq(fd, 0, "drop_caches: %s", strerror(errno));
	cr_assert_eq(write(fd, "2", 1), 1, "drop_caches: %s", strerror(errno));
	close(fd);
}

struct pages {
	long in_use, lru;
};

/*
 * The pages of every proc this process has open: the "pages:" lines of
 * its "proc PID" sections in the driver's debugfs stats file (binderc's
 * has mainline's layout); skips the test when debugfs is not there.
 */
static struct pages my_pages(void)
{
	const char *path = bt_driver() == BT_BINDERC ? "/sys/kernel/debug/binderc/stats"
						      : "/sys/kernel/debug/binder/stats";
	struct pages p = { 0, 0 };
	char line[256];
	long a, l, f;
	int pid, found = 0;
	bool mine = false;
	FILE *fp;

	fp = fopen(path, "r");
	if (!fp)
		cr_skip_test("%s: %s (debugfs not mounted?)", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "proc %d", &pid) == 1)
			mine = pid == (int)getpid();
		else if (mine && sscanf(line, " pages: %ld:%ld:%ld", &a, &l, &f) == 3) {
			p.in_use += a;
			p.lru += l;
			found++;
		}
	}
	fclose(fp);
	cr_assert_gt(found, 0, "no pages: line for proc %d in %s", (int)getpid(), path);
	return p;
}

/* binderc only: pages the shrinker has freed since the module loaded. */
static long reclaimed_total(void)
{
	char line[256];
	long held, lru, rec = -1;
	FILE *fp = fopen("/sys/kernel/debug/binderc/stats", "r");

	cr_assert_not_null(fp, "binderc stats: %s", strerror(errno));
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "pages: held %ld lru %ld reclaimed %ld", &held, &lru, &rec) == 3)
			break;
	fclose(fp);
	cr_assert_geq(rec, 0, "no pages line in binderc's stats");
	return rec;
}

/* ---- a receiver in this process that keeps what it is sent ------------- */

static uint32_t open_rx(struct bt_conn *rx, size_t map_size)
{
	cr_assert_eq(bt_open(rx, map_size), 0);
	cr_assert_eq(bt_enter_looper(rx), 0);
	publish(rx, NULL, RX_SLOT, BINDER_TYPE_BINDER, RX_PTR, RX_COOKIE);
	return get_handle(&c, RX_SLOT);
}

/* A sync call of n bytes that rx answers but keeps: returns its address. */
static binder_uintptr_t keep_call(struct bt_conn *rx, uint32_t h, size_t n, uint32_t seq)
{
	static uint8_t data[512 * 1024];
	struct binder_transaction_data t;
	struct bt_br br;

	cr_assert_leq(n, sizeof(data));
	bt_pattern(data, n, seq);
	t = bt_tr(h, 0x42, 0, data, n, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0, "call %u", seq);
	cr_assert_eq(br.tr.data_size, n);
	cr_assert(bt_has_pattern((const void *)(uintptr_t)br.tr.data.ptr.buffer, n, seq),
		  "call %u arrived with other bytes", seq);
	cr_assert_eq(bt_send_reply(rx, NULL, 0), 0);
	finish_call(&c);
	return br.tr.data.ptr.buffer;
}

static void check_and_free(struct bt_conn *rx, binder_uintptr_t addr, size_t n, uint32_t seq)
{
	cr_assert(bt_has_pattern((const void *)(uintptr_t)addr, n, seq),
		  "buffer of call %u changed while it was allocated", seq);
	cr_assert_eq(bt_free(rx, addr), 0);
}

/* ---- reclaim in a loop, in a thread -------------------------------------- */

struct reclaimer {
	pthread_t thread;
	atomic_bool stop;
	atomic_long passes;
};

static void *reclaim_loop(void *arg)
{
	struct reclaimer *r = arg;

	while (!atomic_load(&r->stop)) {
		int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

		if (fd < 0 || write(fd, "2", 1) != 1)
			bt_fail_at(__FILE__, __LINE__, "drop_caches: %s", strerror(errno));
		close(fd);
		atomic_fetch_add(&r->passes, 1);
	}
	return NULL;
}

static void reclaim_start(struct reclaimer *r)
{
	atomic_init(&r->stop, false);
	atomic_init(&r->passes, 0);
	cr_assert_eq(pthread_create(&r->thread, NULL, reclaim_loop, r), 0);
}

/*
 * Wait until the reclaimer has begun and finished a whole pass after this
 * point (two more passes counted), so that pages unused now have been
 * seen by the shrinker: how fast either side runs decides nothing.
 */
static void reclaim_wait_pass(struct reclaimer *r)
{
	long want = atomic_load(&r->passes) + 2;
	int64_t end = th_now_ms() + TH_HANG_MS;

	while (atomic_load(&r->passes) < want)
		cr_assert(th_nap_until(end), "drop_caches made no pass in %d ms", TH_HANG_MS);
}

static long reclaim_stop(struct reclaimer *r)
{
	atomic_store(&r->stop, true);
	cr_assert_eq(pthread_join(r->thread, NULL), 0);
	return atomic_load(&r->passes);
}

/* Echo calls of 32 KiB to the context manager; contents checked, freed. */
static void echo_calls(struct bt_conn *q, int n, uint32_t seq)
{
	static uint8_t big[32768];

	for (int k = 0; k < n; k++) {
		struct binder_transaction_data t;
		struct bt_result r;

		bt_pattern(big, sizeof(big), seq + (uint32_t)k);
		t = bt_tr(0, BT_SM_ECHO, 0, big, sizeof(big), NULL, 0);
		bt_require(bt_call(q, &t, &r) == 0 && r.final == BR_REPLY, "echo");
		bt_require(r.reply.data_size == sizeof(big) &&
				   bt_has_pattern((const void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(big),
					       seq + (uint32_t)k),
			   "echo %d came back with other bytes", k);
		bt_require(bt_free(q, r.reply.data.ptr.buffer) == 0, "free");
	}
}

/* ---- the tests ------------------------------------------------------------ */

/*
 * (a) A 1 MiB burst of buffers, freed: their pages stay (on the lru) until
 * memory pressure, which gives them back; the next call still gets the
 * right bytes.
 */
Test(shrink, pressure_gives_back_freed_pages)
{
	binder_uintptr_t addr[BURST_CALLS];
	struct pages p0, p1, p2, p3;
	struct bt_conn rx;
	uint32_t h;

	h = open_rx(&rx, 2 * 1024 * 1024);
	p0 = my_pages();
	for (int i = 0; i < BURST_CALLS; i++)
		addr[i] = keep_call(&rx, h, BURST_BYTES, (uint32_t)i + 1);
	p1 = my_pages();
	cr_assert_geq(p1.in_use - p0.in_use, BURST_CALLS * BURST_BYTES / PAGE,
		      "1 MiB of buffers in use but %ld more pages", p1.in_use - p0.in_use);
	for (int i = 0; i < BURST_CALLS; i++)
		check_and_free(&rx, addr[i], BURST_BYTES, (uint32_t)i + 1);
	p2 = my_pages();
	/* kept for reuse, not in use: every whole page of the burst */
	cr_assert_geq(p2.lru, BURST_CALLS * BURST_BYTES / PAGE - 2, "only %ld pages on the lru", p2.lru);
	drop_slab();
	p3 = my_pages();
	fprintf(stderr,
		"shrink-figures: %s: pages held before the burst %ld, with it %ld, freed %ld "
		"(lru %ld), after drop_caches %ld (lru %ld)\n",
		th_driver_name(), p0.in_use + p0.lru, p1.in_use + p1.lru, p2.in_use + p2.lru, p2.lru,
		p3.in_use + p3.lru, p3.lru);
	cr_assert_eq(p3.lru, 0, "%ld unused pages left after drop_caches", p3.lru);
	cr_assert_leq(p3.in_use + p3.lru, p0.in_use + p0.lru + 2,
		      "held %ld pages after pressure, %ld before the burst", p3.in_use + p3.lru,
		      p0.in_use + p0.lru);
	/* the area works as before: the whole burst again, right bytes */
	for (int i = 0; i < BURST_CALLS; i++)
		addr[i] = keep_call(&rx, h, BURST_BYTES, (uint32_t)i + 100);
	for (int i = 0; i < BURST_CALLS; i++)
		check_and_free(&rx, addr[i], BURST_BYTES, (uint32_t)i + 100);
	bt_close(&rx);
	assert_usable();
}

/*
 * (d) Pages under buffers still allocated are never taken, also the pages
 * they share with freed neighbours: contents read after pressure.
 */
Test(shrink, page_in_use_never_reclaimed)
{
	const size_t sizes[] = { 100, 3 * PAGE + 50, 200, 5 * PAGE, 60, 2 * PAGE - 8, 333 };
	enum { N = sizeof(sizes) / sizeof(sizes[0]) };
	binder_uintptr_t addr[N];
	struct pages p;
	struct bt_conn rx;
	uint32_t h;

	h = open_rx(&rx, 256 * 1024);
	for (int i = 0; i < (int)N; i++)
		addr[i] = keep_call(&rx, h, sizes[i], (uint32_t)i + 1);
	/* free every other one: their pages (but the shared ones) go idle */
	for (int i = 1; i < (int)N; i += 2)
		check_and_free(&rx, addr[i], sizes[i], (uint32_t)i + 1);
	p = my_pages();
	cr_assert_geq(p.lru, 3 + 4, "only %ld pages on the lru", p.lru);
	for (int round = 0; round < 3; round++)
		drop_slab();
	p = my_pages();
	cr_assert_eq(p.lru, 0, "%ld unused pages left after drop_caches", p.lru);
	for (int i = 0; i < (int)N; i += 2)
		cr_assert(bt_has_pattern((const void *)(uintptr_t)addr[i], sizes[i], (uint32_t)i + 1),
			  "buffer %d (in use) changed under memory pressure", i);
	/* the freed gaps take new buffers again, with their own bytes */
	for (int i = 1; i < (int)N; i += 2)
		addr[i] = keep_call(&rx, h, sizes[i], (uint32_t)i + 50);
	for (int i = 0; i < (int)N; i++)
		check_and_free(&rx, addr[i], sizes[i], (uint32_t)i + (i % 2 ? 50 : 1));
	bt_close(&rx);
	assert_usable();
}

/*
 * (b) munmap of the receive mapping while the shrinker runs (the
 * CVE-2019-1999 shape), with pages on the lru each time.
 */
Test(shrink, munmap_while_reclaim_loops)
{
	struct reclaimer rec;
	long before = bt_driver() == BT_BINDERC ? reclaimed_total() : 0;
	long passes;

	reclaim_start(&rec);
	for (int round = 0; round < 20; round++) {
		struct bt_conn r;

		cr_assert_eq(bt_open(&r, BT_VM_SIZE_DEFAULT), 0);
		echo_calls(&r, 4, (uint32_t)round * 10);
		/* the echoes' pages are unused: a pass frees them, the next
		 * may meet the munmap */
		reclaim_wait_pass(&rec);
		munmap(r.map, r.map_size);
		r.map = MAP_FAILED;
		bt_close(&r);
	}
	passes = reclaim_stop(&rec);
	cr_assert_geq(passes, 2 * 20);
	if (bt_driver() == BT_BINDERC)
		cr_assert_gt(reclaimed_total(), before, "the shrinker never freed a page");
	assert_usable();
}

/* A process that makes calls and exits without closing anything. */
static int churn_main(void *arg, int rd, int wr)
{
	(void)arg;
	for (int i = 0; i < 5; i++) {
		struct bt_conn q;

		bt_require(bt_open(&q, BT_VM_SIZE_DEFAULT) == 0, "open");
		echo_calls(&q, 3, (uint32_t)i * 10);
		if (i == 4) {
			uint64_t go;

			bt_send_u64(wr, 0);
			/* exit when told: after a pass saw the unused pages */
			bt_recv_u64(rd, &go, TH_HANG_MS);
			_exit(0); /* mapping and file go with the process */
		}
		bt_close(&q);
	}
	return 0;
}

/* (c) Process exit while the shrinker runs (the CVE-2023-52438 shape). */
Test(shrink, exit_while_reclaim_loops)
{
	struct reclaimer rec;
	long before = bt_driver() == BT_BINDERC ? reclaimed_total() : 0;

	reclaim_start(&rec);
	for (int round = 0; round < 8; round++) {
		struct bt_child q;
		uint64_t v;

		cr_assert_eq(bt_spawn(&q, churn_main, NULL), 0);
		if (round % 2) {
			/* killed at any point of its calls */
			usleep(1000u * (unsigned)(round * 7 % 20));
			bt_kill(&q);
			continue;
		}
		cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
		reclaim_wait_pass(&rec);
		cr_assert_eq(bt_send_u64(q.to_child, 1), 0);
		cr_assert_eq(bt_join(&q, TH_HANG_MS), 0);
	}
	cr_assert_gt(reclaim_stop(&rec), 0);
	if (bt_driver() == BT_BINDERC)
		cr_assert_gt(reclaimed_total(), before, "the shrinker never freed a page");
	assert_usable();
}
