/* SPDX-License-Identifier: MIT */
/*
 * The receive-buffer allocator, seen from userspace: how buffers are placed
 * in a receiver's mapping (best fit, split, merged on free), what happens
 * when the mapping is full, and that many outstanding buffers do not make
 * allocation slow.
 *
 * The receiver is a second open of the device in this process (rx), with a
 * mapping of a known size.  It takes sync calls and answers them with a
 * bare BC_REPLY, keeping the request buffer: each call leaves exactly one
 * buffer of a known size allocated in rx's area, at an address rx is told,
 * until the test frees it.  Both drivers size a buffer the same way (the
 * 8-byte aligned payload, at least 8 bytes, no header in the area).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bt.h"
#include "srv.h"

#define RX_SLOT 3
#define RX_PTR 0x7100
#define RX_COOKIE 0x7101

TestSuite(alloc, .init = fixture_setup, .fini = fixture_teardown, .timeout = 900);

static size_t align8(size_t n)
{
	return n ? (n + 7) & ~(size_t)7 : 8;
}

/* rx: a node owner with a mapping of map_size; returns c's handle to it. */
static uint32_t open_rx(struct bt_conn *rx, size_t map_size)
{
	cr_assert_eq(bt_open(rx, map_size), 0);
	cr_assert_eq(bt_enter_looper(rx), 0);
	publish(rx, NULL, RX_SLOT, BINDER_TYPE_BINDER, RX_PTR, RX_COOKIE);
	return get_handle(&c, RX_SLOT);
}

struct kept {
	binder_uintptr_t addr;
	size_t size; /* the payload's length */
	uint32_t seq;
};

/*
 * A sync call of n bytes (content bt_pattern(seq)) that rx answers without
 * freeing the request: returns where the request lies in rx's mapping.
 */
static binder_uintptr_t keep_call(struct bt_conn *rx, uint32_t h, size_t n, uint32_t seq)
{
	static uint8_t data[512 * 1024];
	struct binder_transaction_data t;
	struct bt_br br;
	uintptr_t lo = (uintptr_t)rx->map;

	cr_assert_leq(n, sizeof(data));
	bt_pattern(data, n, seq);
	t = bt_tr(h, 0x42, 0, data, n, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0, "call %u (%zu bytes)", seq, n);
	cr_assert_eq(br.tr.data_size, n);
	cr_assert_geq(br.tr.data.ptr.buffer, lo);
	cr_assert_leq(br.tr.data.ptr.buffer + align8(n), lo + rx->map_size);
	cr_assert(bt_has_pattern((const void *)(uintptr_t)br.tr.data.ptr.buffer, n, seq),
		  "call %u arrived with other bytes", seq);
	cr_assert_eq(bt_send_reply(rx, NULL, 0), 0);
	finish_call(&c);
	return br.tr.data.ptr.buffer;
}

/* The same call when it cannot fit: BR_FAILED_REPLY, -ENOSPC. */
static void call_no_space(uint32_t h, size_t n)
{
	static uint8_t data[512 * 1024];
	struct binder_transaction_data t = bt_tr(h, 0x42, 0, data, n, NULL, 0);

	call_fails(&t, false, 0, -ENOSPC);
}

static void free_kept(struct bt_conn *rx, const struct kept *k)
{
	cr_assert(bt_has_pattern((const void *)(uintptr_t)k->addr, k->size, k->seq),
		  "buffer of call %u was overwritten while it was allocated", k->seq);
	cr_assert_eq(bt_free(rx, k->addr), 0);
}

/* Fill rx's area of map_size with payloads of the sizes rand_r(seed) gives:
 * every one that fits is accepted, the first that does not is refused with
 * -ENOSPC.  Returns how many were kept (in k[]). */
static size_t fill(struct bt_conn *rx, uint32_t h, size_t map_size, unsigned seed, struct kept *k, size_t max,
		   uint32_t *seq)
{
	size_t used = 0, n = 0;

	for (;;) {
		size_t len = 1 + (size_t)rand_r(&seed) % 600;

		if (align8(len) > map_size - used) {
			call_no_space(h, len);
			return n;
		}
		cr_assert_lt(n, max);
		k[n].size = len;
		k[n].seq = (*seq)++;
		k[n].addr = keep_call(rx, h, len, k[n].seq);
		used += align8(len);
		n++;
	}
}

static void shuffle(struct kept *k, size_t n, unsigned seed)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rand_r(&seed) % i;
		struct kept tmp = k[i - 1];

		k[i - 1] = k[j];
		k[j] = tmp;
	}
}

static int by_addr(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Fill to exhaustion, free in random order, and do it again: every byte of
 * the area is usable every time, buffers never overlap, and once all are
 * freed the free space is one piece again (a call the size of the whole
 * mapping fits).
 */
Test(alloc, exhaust_free_random_reuse)
{
	const size_t map = BT_VM_SIZE_DEFAULT;
	static struct kept k[4096];
	struct bt_conn rx;
	uint32_t h, seq = 1;
	size_t n, n2;

	h = open_rx(&rx, map);
	n = fill(&rx, h, map, 19, k, 4096, &seq);
	cr_assert_gt(n, 300, "only %zu buffers fit", n);
	/* no two overlap (sorted by address, each ends before the next) */
	qsort(k, n, sizeof(k[0]), by_addr);
	for (size_t i = 1; i < n; i++)
		cr_assert_leq(k[i - 1].addr + align8(k[i - 1].size), k[i].addr);
	shuffle(k, n, 1919);
	for (size_t i = 0; i < n; i++)
		free_kept(&rx, &k[i]);

	/* the whole mapping in one buffer, then the same fill again */
	{
		struct kept all = { .size = map, .seq = seq++ };

		all.addr = keep_call(&rx, h, map, all.seq);
		cr_assert_eq(all.addr, (uintptr_t)rx.map);
		call_no_space(h, 1);
		free_kept(&rx, &all);
	}
	n2 = fill(&rx, h, map, 19, k, 4096, &seq);
	cr_assert_eq(n2, n, "first fill kept %zu buffers, the second %zu", n, n2);
	/* free every other one first, then the rest, backwards */
	for (size_t i = 0; i < n2; i += 2)
		free_kept(&rx, &k[i]);
	for (size_t i = n2; i-- > 0;)
		if (i % 2)
			free_kept(&rx, &k[i]);
	{
		struct kept all = { .size = map, .seq = seq++ };

		all.addr = keep_call(&rx, h, map, all.seq);
		cr_assert_eq(all.addr, (uintptr_t)rx.map);
		free_kept(&rx, &all);
	}
	bt_close(&rx);
	assert_usable();
}

/*
 * Placement: a request goes to the smallest free piece that holds it, at
 * its start; the rest of that piece stays free for the next; freeing merges
 * a buffer with free neighbours on both sides.
 */
Test(alloc, best_fit_split_and_merge)
{
	static const size_t sizes[] = { 1024, 64, 1024, 256, 1024, 64 };
	enum { A, B, C, D, E, F, N };
	struct kept k[N];
	struct bt_conn rx;
	binder_uintptr_t x, y, z;
	uint32_t h, seq = 1;

	h = open_rx(&rx, BT_VM_SIZE_DEFAULT);
	for (int i = 0; i < N; i++) {
		k[i] = (struct kept){ .size = sizes[i], .seq = seq++ };
		k[i].addr = keep_call(&rx, h, sizes[i], k[i].seq);
		if (i)
			cr_assert_eq(k[i].addr, k[i - 1].addr + sizes[i - 1], "carved in order");
	}
	/* holes of 64 (B) and 256 (D), and the big tail after F */
	free_kept(&rx, &k[B]);
	free_kept(&rx, &k[D]);
	x = keep_call(&rx, h, 64, seq++);
	cr_assert_eq(x, k[B].addr, "64 bytes belong in B's hole, not %#llx", (unsigned long long)x);
	y = keep_call(&rx, h, 200, seq++);
	cr_assert_eq(y, k[D].addr, "200 bytes belong in D's 256-byte hole");
	z = keep_call(&rx, h, 48, seq++);
	cr_assert_eq(z, k[D].addr + 200, "48 bytes belong in the 56 left of D's hole");
	cr_assert_eq(bt_free(&rx, x), 0);
	cr_assert_eq(bt_free(&rx, y), 0);
	cr_assert_eq(bt_free(&rx, z), 0);

	/* A, C, then B between them: one free piece of A + B + C */
	free_kept(&rx, &k[A]);
	free_kept(&rx, &k[C]);
	x = keep_call(&rx, h, 2 * 1024 + 64, seq++);
	cr_assert_eq(x, k[A].addr, "A, B and C were not merged");
	/* D's hole merged with E when E is freed, and F into the tail */
	free_kept(&rx, &k[E]);
	free_kept(&rx, &k[F]);
	y = keep_call(&rx, h, BT_VM_SIZE_DEFAULT - (k[D].addr - (uintptr_t)rx.map), seq++);
	cr_assert_eq(y, k[D].addr, "D, E, F and the tail were not merged");
	cr_assert_eq(bt_free(&rx, x), 0);
	cr_assert_eq(bt_free(&rx, y), 0);
	bt_close(&rx);
	assert_usable();
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int64_t median(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), cmp_i64);
	return v[n / 2];
}

/* One oneway of payload to h; its time in ns. */
static int64_t timed_oneway(uint32_t h, uint64_t payload)
{
	struct binder_transaction_data t = bt_tr(h, 0x43, TF_ONE_WAY, &payload, sizeof(payload), NULL, 0);
	struct bt_result r;
	int64_t t0 = now_ns(), dt;

	cr_assert_eq(bt_call(&c, &t, &r), 0);
	dt = now_ns() - t0;
	cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE, "oneway %llu: %s", (unsigned long long)payload,
		     bt_br_name(r.final));
	return dt;
}

/*
 * 10,000 oneway calls to a receiver that reads none of them: each stays
 * allocated in its area.  The median time of one call with 9,900 to 9,999
 * buffers outstanding must stay within 5 times that of a call, made right
 * before it, to a second receiver with none outstanding: a search of every
 * buffer on each allocation (O(n)) fails this, a tree (O(log n)) does not.
 * The two are measured in alternation, so that a host that gets busier
 * during the test (another guest starting) slows both alike; the calls
 * with 0 to 99 outstanding at the start are only logged.  Then every call
 * arrives, in order and intact.
 */
#define OUTSTANDING 10000
#define WINDOW 100

Test(alloc, many_outstanding_oneways_stay_fast)
{
	static int64_t first[WINDOW], last[WINDOW], fresh[WINDOW];
	struct bt_conn rx, ref;
	int64_t f, l, n;
	uint32_t h, href;

	h = open_rx(&rx, BT_VM_SIZE_LIBBINDER);
	cr_assert_eq(bt_open(&ref, BT_VM_SIZE_LIBBINDER), 0);
	cr_assert_eq(bt_enter_looper(&ref), 0);
	publish(&ref, NULL, RX_SLOT + 1, BINDER_TYPE_BINDER, RX_PTR + 0x1000, RX_COOKIE + 0x1000);
	href = get_handle(&c, RX_SLOT + 1);
	for (uint32_t i = 0; i < OUTSTANDING; i++) {
		if (i >= OUTSTANDING - WINDOW) {
			struct bt_br br;

			/* the reference: ref reads and frees each at once */
			fresh[i - (OUTSTANDING - WINDOW)] = timed_oneway(href, ~0ull);
			cr_assert_eq(bt_expect(&ref, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
			cr_assert_eq(bt_free(&ref, br.tr.data.ptr.buffer), 0);
			last[i - (OUTSTANDING - WINDOW)] = timed_oneway(h, i);
		} else if (i < WINDOW) {
			first[i] = timed_oneway(h, i);
		} else {
			timed_oneway(h, i);
		}
	}
	f = median(first, WINDOW);
	l = median(last, WINDOW);
	n = median(fresh, WINDOW);
	fprintf(stderr,
		"alloc: oneway median %lld ns with 0-%d outstanding, %lld ns with %d-%d, %lld ns to an "
		"empty area at the same time (%s)\n",
		(long long)f, WINDOW - 1, (long long)l, OUTSTANDING - WINDOW, OUTSTANDING - 1, (long long)n,
		th_driver_name());
	cr_assert_lt(l, 5 * n, "allocation slowed from %lld to %lld ns with %d buffers outstanding", (long long)n,
		     (long long)l, OUTSTANDING);
	bt_close(&ref);

	for (uint32_t i = 0; i < OUTSTANDING; i++) {
		struct bt_br br;
		uint64_t got;

		cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0, "oneway %u", i);
		cr_assert_eq(br.tr.data_size, sizeof(got));
		memcpy(&got, (const void *)(uintptr_t)br.tr.data.ptr.buffer, sizeof(got));
		cr_assert_eq(got, i, "oneway %u arrived as %llu", i, (unsigned long long)got);
		cr_assert_eq(bt_free(&rx, br.tr.data.ptr.buffer), 0);
	}
	bt_close(&rx);
	assert_usable();
}
