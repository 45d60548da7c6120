/* SPDX-License-Identifier: MIT */
/*
 * One named test per CVE class of driver-anchor.md §4.  Each reproduces the
 * shape of the original bug (the race or the malformed input) with bounded
 * loops and asserts the fixed behaviour: the exact result where there is
 * one, and that every process stays usable.  The memory-safety half of a
 * race (use-after-free, leaks) is what KASAN/kmemleak on the debug kernel
 * catch while these run; run-guest fails on any kernel complaint.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

static void drop_slab(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	if (fd >= 0) {
		/* 2: reclaim slab objects, which runs every shrinker (binder's too) */
		if (write(fd, "2", 1) != 1)
			cr_log_info("drop_caches: %s", strerror(errno));
		close(fd);
	}
}

TestSuite(cve, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

/* CVE-2018-9465: fd installation raced with the target's teardown. */
Test(cve, cve_2018_9465_pass_fds_while_target_exits)
{
	for (int round = 0; round < 10; round++) {
		struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
		struct binder_fd_object fo = bt_fdo(1);
		binder_size_t off = 0;
		uint32_t h;

		h = start_server(&cfg);
		for (int i = 0; i < 20; i++) {
			struct binder_transaction_data t =
				bt_tr(h, 0x99, TF_ONE_WAY, &fo, sizeof(fo), &off, 8);
			struct bt_result r;

			if (i == 10)
				kill(s1.pid, SIGKILL);
			cr_assert_eq(bt_call(&c, &t, &r), 0);
			cr_assert(r.final == BR_TRANSACTION_COMPLETE || r.final == BR_DEAD_REPLY ||
				  r.final == BR_FAILED_REPLY, "%s", bt_br_name(r.final));
		}
		bt_kill(&s1);
		{
			struct bt_buf w = { .len = 0 };

			bt_put_ref(&w, BC_RELEASE, h);
			cr_assert_eq(bt_write(&c, w.data, w.len), 0);
		}
	}
	assert_usable();
}

/* CVE-2018-20509/20510: debugfs printed raw kernel pointers. */
Test(cve, cve_2018_20509_no_kernel_pointers_in_debugfs)
{
	const char *dir = bt_driver() == BT_BINDERC ? "/sys/kernel/debug/binderc"
						     : "/sys/kernel/debug/binder";
	const char *files[] = { "state", "stats", "transactions", "transaction_log",
				"failed_transaction_log" };
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct binder_transaction_data t;
	int found = 0;
	uint64_t v;
	uint32_t h;

	if (access(dir, R_OK) != 0)
		cr_skip_test("%s not present", dir);
	/* something in flight so every file has content: a call left hanging */
	h = start_server(&cfg);
	t = bt_tr(h, C_HANG, 0, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_recv_u64(s1.from_child, &v, TH_HANG_MS), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256], line[1024];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		found++;
		while (fgets(line, sizeof(line), f)) {
			/* a kernel address: 16 hex digits starting ffff */
			for (char *p = line; (p = strstr(p, "ffff")); p++) {
				size_t n = strspn(p, "0123456789abcdef");

				cr_assert_lt(n, 16, "%s leaks a kernel pointer: %s", path, line);
			}
		}
		fclose(f);
	}
	cr_assert_gt(found, 0, "no debugfs file readable under %s", dir);
	bt_kill(&s1);
}

/* CVE-2019-1999: the shrinker freed a page while the vma went away. */
Test(cve, cve_2019_1999_munmap_during_reclaim)
{
	for (int round = 0; round < 20; round++) {
		struct bt_conn r;

		cr_assert_eq(bt_open(&r, BT_VM_SIZE_DEFAULT), 0);
		/* get pages allocated and then released to the lru */
		for (int i = 0; i < 4; i++) {
			static uint8_t big[32768];
			struct binder_transaction_data t =
				bt_tr(0, BT_SM_ECHO, 0, big, sizeof(big), NULL, 0);
			struct bt_result res;

			cr_assert_eq(bt_call(&r, &t, &res), 0);
			cr_assert_eq(res.final, BR_REPLY);
			bt_free(&r, res.reply.data.ptr.buffer);
		}
		drop_slab();
		munmap(r.map, r.map_size);
		r.map = MAP_FAILED;
		drop_slab();
		bt_close(&r);
	}
	assert_usable();
}

/* CVE-2019-2025 ("Waterdrop"): BC_FREE_BUFFER on a buffer the kernel has
 * not handed out yet must be refused. */
static int waterdrop_main(void *arg, int rd, int wr)
{
	struct bt_conn q;
	struct bt_br br;
	uint64_t v;
	binder_uintptr_t first;
	uint32_t seq;

	(void)arg;
	open_node_owner(&q, 0, 0x100, 0x101);
	bt_send_u64(wr, 0);
	bt_require(bt_expect(&q, BR_TRANSACTION, &br, TH_HANG_MS) == 0, "first");
	first = br.tr.data.ptr.buffer;
	bt_require(bt_free(&q, first) == 0, "free first");
	bt_send_u64(wr, first);
	/* parent sends a second oneway, which lands at the same address */
	bt_require(bt_recv_u64(rd, &v, TH_HANG_MS) == 0, "sent");
	/* guess: free it before it was delivered */
	bt_require(bt_free(&q, first) == 0, "early free");
	bt_require(bt_expect(&q, BR_TRANSACTION, &br, TH_HANG_MS) == 0, "second");
	bt_require(br.tr.data_size == 4, "size %llu", (unsigned long long)br.tr.data_size);
	memcpy(&seq, (void *)(uintptr_t)br.tr.data.ptr.buffer, 4);
	bt_send_u64(wr, br.tr.data.ptr.buffer);
	bt_send_u64(wr, seq);
	bt_require(bt_free(&q, br.tr.data.ptr.buffer) == 0, "free second");
	bt_recv_u64(rd, &v, TH_HANG_MS);
	return 0;
}

Test(cve, cve_2019_2025_free_before_delivery_refused)
{
	struct bt_child q;
	uint64_t first, second, seq;
	uint32_t h, a = 1, b = 2;
	struct bt_result r;
	struct binder_transaction_data t;

	cr_assert_eq(bt_spawn_ready(&q, waterdrop_main, NULL, TH_HANG_MS), 0);
	h = get_handle(&c, 0);
	t = bt_tr(h, 0x99, TF_ONE_WAY, &a, 4, NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE);
	cr_assert_eq(bt_recv_u64(q.from_child, &first, TH_HANG_MS), 0);
	t = bt_tr(h, 0x99, TF_ONE_WAY, &b, 4, NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE);
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_recv_u64(q.from_child, &second, TH_HANG_MS), 0);
	cr_assert_eq(bt_recv_u64(q.from_child, &seq, TH_HANG_MS), 0);
	cr_assert_eq(second, first, "the second buffer should reuse the first's space");
	cr_assert_eq(seq, 2, "the undelivered buffer was freed and reused/corrupted");
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_join(&q, TH_HANG_MS), 0);
	assert_usable();
}

/* A context manager whose node asks for the sender's security context. */
static int secctx_mgr_main(void *arg, int rd, int wr)
{
	struct bt_conn m;
	struct flat_binder_object o = bt_fbo_binder(BINDER_TYPE_BINDER, 0, 0);
	int ret;

	(void)arg;
	o.flags |= FLAT_BINDER_FLAG_TXN_SECURITY_CTX;
	bt_require(bt_open(&m, BT_VM_SIZE_DEFAULT) == 0, "open");
	ret = bt_become_ctxmgr(&m, &o, TH_HANG_MS);
	bt_require(ret == 0, "SET_CONTEXT_MGR_EXT: %d", ret);
	bt_require(bt_enter_looper(&m) == 0, "looper");
	bt_send_u64(wr, 0);
	for (;;) {
		struct bt_br br;
		uint64_t v;

		if (bt_next(&m, &br, 100) == 0 &&
		    (br.cmd == BR_TRANSACTION || br.cmd == BR_TRANSACTION_SEC_CTX)) {
			uint32_t kind = br.cmd == BR_TRANSACTION_SEC_CTX;

			bt_reply(&m, &br.tr, &kind, sizeof(kind), NULL, 0);
		}
		if (bt_recv_u64(rd, &v, 0) != -ETIMEDOUT)
			return 0;
	}
}

static void start_secctx_mgr(void)
{
	bt_cm_stop(&cm);
	cr_assert_eq(bt_spawn_ready(&cm, secctx_mgr_main, NULL, TH_HANG_MS + 10000), 0);
}

/* CVE-2019-2181: extra_buffers_size + the secctx length overflowed. */
Test(cve, cve_2019_2181_secctx_size_overflow)
{
	uint8_t data[8] = { 0 };
	struct binder_transaction_data t = bt_tr(0, 1, 0, data, sizeof(data), NULL, 0);
	struct binder_extended_error ee;
	struct bt_result r;
	uint32_t kind = 0;

	start_secctx_mgr();
	/* a plain call first: is a security context delivered at all? */
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert(r.final == BR_REPLY || r.final == BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	if (r.final == BR_REPLY) {
		memcpy(&kind, (void *)(uintptr_t)r.reply.data.ptr.buffer, 4);
		bt_free(&c, r.reply.data.ptr.buffer);
	}
	cr_log_info("security context delivered: %s", kind ? "yes" : "no (no LSM secctx)");
	cr_assert_eq(bt_call_sg(&c, &t, (binder_size_t)-8, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_FAILED_REPLY);
	if (kind)
		cr_assert_eq(ee.param, -EINVAL);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert(r.final == BR_REPLY || r.final == BR_FAILED_REPLY);
	if (r.final == BR_REPLY)
		bt_free(&c, r.reply.data.ptr.buffer);
}

/* CVE-2019-2214: the SG area end didn't exclude the secctx. */
Test(cve, cve_2019_2214_sg_end_excludes_secctx)
{
	static uint64_t blob[4];
	struct {
		uint64_t header;
		struct binder_buffer_object p;
	} d;
	binder_size_t off = 8;
	struct binder_transaction_data t;
	struct binder_extended_error ee;
	struct bt_result r;

	start_secctx_mgr();
	memset(&d, 0, sizeof(d));
	d.p.hdr.type = BINDER_TYPE_PTR;
	d.p.buffer = (binder_uintptr_t)(uintptr_t)blob;
	d.p.length = sizeof(blob);
	t = bt_tr(0, 1, 0, &d, sizeof(d), &off, 8);
	/* exactly fits: fine */
	cr_assert_eq(bt_call_sg(&c, &t, sizeof(blob), &r), 0);
	if (r.final == BR_REPLY)
		bt_free(&c, r.reply.data.ptr.buffer);
	else
		cr_log_info("no secctx available: %s", bt_br_name(r.final));
	/* one u64 too long: must not spill into the secctx behind the SG area */
	cr_assert_eq(bt_call_sg(&c, &t, sizeof(blob) - 8, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_FAILED_REPLY);
}

/* CVE-2019-2213: a buffer freed while its transaction still pointed at it. */
static int free_then_caller_dies_main(void *arg, int rd, int wr)
{
	struct bt_conn q;
	struct bt_br br;
	uint64_t v;

	(void)arg;
	open_node_owner(&q, 0, 0x100, 0x101);
	bt_send_u64(wr, 0);
	bt_require(bt_expect(&q, BR_TRANSACTION, &br, TH_HANG_MS) == 0, "call");
	/* free the request while its transaction is still on our stack */
	bt_require(bt_free(&q, br.tr.data.ptr.buffer) == 0, "free");
	bt_send_u64(wr, 1);
	bt_require(bt_recv_u64(rd, &v, TH_HANG_MS) == 0, "caller killed");
	bt_require(bt_send_reply(&q, NULL, 0) == 0, "reply");
	bt_require(bt_next(&q, &br, TH_HANG_MS) == 0, "after reply");
	bt_send_u64(wr, br.cmd);
	bt_recv_u64(rd, &v, TH_HANG_MS);
	return 0;
}

Test(cve, cve_2019_2213_buffer_freed_before_reply_to_dead_caller)
{
	struct stuck_caller call = { .slot = 0, .code = 0x42, .size = 64 };
	struct bt_child q, p;
	uint64_t v;

	cr_assert_eq(bt_spawn_ready(&q, free_then_caller_dies_main, NULL, TH_HANG_MS), 0);
	cr_assert_eq(bt_spawn_ready(&p, stuck_caller_main, &call, TH_HANG_MS), 0);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	bt_kill(&p);
	/* gives the caller's deferred release time to run; if it has not,
	 * the reply goes to a thread not yet released, with the same result */
	usleep(100 * 1000);
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	cr_assert_eq(v, BR_TRANSACTION_COMPLETE, "replier got %s", bt_br_name((uint32_t)v));
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_join(&q, TH_HANG_MS), 0);
	assert_usable();
}

/* CVE-2019-2215 ("Bad Binder"): BINDER_THREAD_EXIT freed a thread that was
 * still on an epoll wait queue. */
Test(cve, cve_2019_2215_epoll_thread_exit)
{
	for (int i = 0; i < 50; i++) {
		int ep = epoll_create1(EPOLL_CLOEXEC);
		struct epoll_event ev = { .events = EPOLLIN };
		int32_t dummy = 0;

		cr_assert_geq(ep, 0);
		cr_assert_eq(epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev), 0);
		cr_assert_eq(bt_ioctl(c.fd, BINDER_THREAD_EXIT, &dummy), 0);
		if (i & 1) {
			struct epoll_event out;

			cr_assert_geq(epoll_wait(ep, &out, 1, 0), 0);
			epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, &ev);
		}
		cr_assert_eq(close(ep), 0);
	}
	assert_usable();
}

/* CVE-2020-0030: the POLLFREE follow-up race with ep_remove_wait_queue. */
struct ep_race {
	int ep;
	volatile int go;
};

static void *close_ep(void *arg)
{
	struct ep_race *r = arg;

	while (!r->go)
		;
	close(r->ep);
	return NULL;
}

Test(cve, cve_2020_0030_epoll_pollfree_race)
{
	for (int i = 0; i < 100; i++) {
		struct ep_race r = { .ep = epoll_create1(EPOLL_CLOEXEC), .go = 0 };
		struct epoll_event ev = { .events = EPOLLIN };
		int32_t dummy = 0;
		pthread_t th;

		cr_assert_geq(r.ep, 0);
		cr_assert_eq(epoll_ctl(r.ep, EPOLL_CTL_ADD, c.fd, &ev), 0);
		cr_assert_eq(pthread_create(&th, NULL, close_ep, &r), 0);
		r.go = 1;
		cr_assert_eq(bt_ioctl(c.fd, BINDER_THREAD_EXIT, &dummy), 0);
		cr_assert_eq(pthread_join(th, NULL), 0);
	}
	assert_usable();
}

/* CVE-2020-0041: num_valid computed wrongly let a parent index name an
 * object that had not been validated yet. */
Test(cve, cve_2020_0041_parent_index_not_yet_validated)
{
	static uint64_t parent[2], child;
	struct sg_pair d;
	binder_size_t offs[2];
	struct binder_transaction_data t;
	struct bt_result r;
	binder_size_t bad_parents[] = { 1, 2, 1000 };

	sg_pair_init(&d, offs, parent, sizeof(parent), &child, sizeof(child), 0);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), offs, sizeof(offs));
	for (size_t i = 0; i < sizeof(bad_parents) / sizeof(bad_parents[0]); i++) {
		d.b.parent = bad_parents[i]; /* itself, beyond, far beyond */
		cr_log_info("parent %llu", (unsigned long long)bad_parents[i]);
		call_fails(&t, true, 24, -EINVAL);
	}
	/* an FDA naming itself as parent */
	{
		struct sg_fda f;
		binder_size_t fo[2];
		static uint32_t fds[1];

		sg_fda_init(&f, fo, fds, sizeof(fds), 1);
		f.a.parent = 1;
		t = bt_tr(0, BT_PING_TRANSACTION, TF_ACCEPT_FDS, &f, sizeof(f), fo, sizeof(fo));
		call_fails(&t, true, 8, -EINVAL);
	}
	/* the valid parent works */
	d.b.parent = 0;
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), offs, sizeof(offs));
	cr_assert_eq(bt_call_sg(&c, &t, 24, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	bt_free(&c, r.reply.data.ptr.buffer);
	assert_usable();
}

/* CVE-2020-0423: thread release racing ref drops on the todo list. */
struct refrace {
	struct bt_conn t;
	uint32_t h;
	volatile int stop;
};

static void *ref_flipper(void *arg)
{
	struct refrace *r = arg;

	for (int i = 0; i < 2000 && !r->stop; i++) {
		struct bt_buf w = { .len = 0 };

		bt_put_ref(&w, BC_ACQUIRE, r->h);
		bt_put_ref(&w, BC_RELEASE, r->h);
		bt_write_read(r->t.fd, w.data, w.len, NULL, NULL, 0, NULL);
	}
	return NULL;
}

Test(cve, cve_2020_0423_thread_release_vs_ref_drop)
{
	for (int round = 0; round < 5; round++) {
		struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
		struct refrace rr;
		pthread_t th;
		int32_t dummy = 0;

		cr_assert_eq(srv_start(&s1, &cfg), 0);
		memset(&rr, 0, sizeof(rr));
		bt_thread_conn(&rr.t, &c);
		rr.h = get_handle(&c, 0);
		cr_assert_eq(pthread_create(&th, NULL, ref_flipper, &rr), 0);
		for (int i = 0; i < 50; i++) {
			bt_ping(&c, rr.h);
			bt_ioctl(c.fd, BINDER_THREAD_EXIT, &dummy);
			if (i == 25)
				kill(s1.pid, SIGKILL);
		}
		rr.stop = 1;
		cr_assert_eq(pthread_join(th, NULL), 0);
		bt_kill(&s1);
		{
			struct bt_buf w = { .len = 0 };

			bt_put_ref(&w, BC_RELEASE, rr.h);
			bt_write(&c, w.data, w.len);
		}
		c.rlen = c.rpos = 0;
	}
	assert_usable();
}

/* CVE-2021-39686: sender_euid came from the wrong place.  6.1 reports the
 * sending group leader's euid at transaction time (after the revert of the
 * cred-based value), and the checks use the opener's cred. */
Test(cve, cve_2021_39686_sender_euid)
{
	struct binder_transaction_data t = bt_tr(0, BT_SM_WHO, 0, NULL, 0, NULL, 0);
	struct bt_result r;
	uint32_t who[2];

	if (geteuid() != 0)
		cr_skip_test("needs root to change euid");
	cr_assert_eq(seteuid(1234), 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(seteuid(0), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	memcpy(who, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(who));
	cr_assert_eq(who[1], bt_expected("sender_euid", 1234));
	cr_assert_eq((pid_t)who[0], getpid());
	bt_free(&c, r.reply.data.ptr.buffer);
}

/* CVE-2022-20421 ("Bad Spin"): weak-handle translation racing the target's
 * death left a ref with a dangling proc. */
Test(cve, cve_2022_20421_weak_handle_while_target_dies)
{
	for (int round = 0; round < 10; round++) {
		struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
		struct flat_binder_object o;
		binder_size_t off = 0;
		struct bt_buf w = { .len = 0 };
		uint32_t h;

		h = start_server(&cfg);
		bt_put_ref(&w, BC_INCREFS, h);
		bt_put_ref(&w, BC_RELEASE, h); /* weak only from here on */
		cr_assert_eq(bt_write(&c, w.data, w.len), 0);
		o = bt_fbo_handle(BINDER_TYPE_WEAK_HANDLE, h);
		for (int i = 0; i < 30; i++) {
			struct binder_transaction_data t =
				bt_tr(0, BT_PING_TRANSACTION, 0, &o, sizeof(o), &off, 8);
			struct bt_result r;

			if (i == 10)
				kill(s1.pid, SIGKILL);
			cr_assert_eq(bt_call(&c, &t, &r), 0);
			/* a weak ref to a dead node is still a valid weak ref */
			cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
			bt_free(&c, r.reply.data.ptr.buffer);
		}
		bt_kill(&s1);
		w.len = 0;
		bt_put_ref(&w, BC_DECREFS, h);
		cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	}
	assert_usable();
}

/* CVE-2023-20928: the vma was used after munmap. */
static void unmapper_reply(struct bt_conn *c, const struct binder_transaction_data *tr, void *arg)
{
	(void)arg;
	bt_reply_empty(c, tr);
}

/*
 * Serves until the parent says "unmap", unmaps, then keeps reading (every
 * delivery now fails) until the parent says "done".  Each phase lasts as
 * long as the parent takes: the parent's own bounds catch a hang.
 */
static int unmapper_main(void *arg, int rd, int wr)
{
	struct bt_conn q;
	uint64_t v;

	(void)arg;
	open_node_owner(&q, 0, 0x100, 0x101);
	bt_send_u64(wr, 0);
	bt_serve_until(&q, unmapper_reply, NULL, rd, 100);
	if (bt_recv_u64(rd, &v, 0))
		return 1; /* the parent went away */
	munmap(q.map, q.map_size);
	bt_send_u64(wr, 0);
	bt_serve_until(&q, unmapper_reply, NULL, rd, 100);
	return 0;
}

Test(cve, cve_2023_20928_transact_after_munmap)
{
	struct bt_child q;
	struct binder_extended_error ee;
	uint64_t v;
	uint32_t h;

	cr_assert_eq(bt_spawn_ready(&q, unmapper_main, NULL, TH_HANG_MS), 0);
	h = get_handle(&c, 0);
	cr_assert_eq(bt_ping(&c, h), BR_REPLY);
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	for (int i = 0; i < 20; i++) {
		cr_assert_eq(bt_ping(&c, h), BR_DEAD_REPLY, "round %d", i);
		cr_assert_eq(bt_get_ee(&c, &ee), 0);
		cr_assert_eq(ee.command, BR_DEAD_REPLY);
		cr_assert_eq(ee.param, -ESRCH);
	}
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_join(&q, TH_HANG_MS), 0);
	assert_usable();
}

/* CVE-2023-20938: a failed transaction with an unaligned offsets_size after
 * valid objects released objects it never acquired. */
Test(cve, cve_2023_20938_unaligned_offsets_size_after_objects)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct flat_binder_object o[2];
	binder_size_t offs[2] = { 0, 24 };
	struct binder_transaction_data t;
	struct bt_result r;
	uint32_t h;

	h = start_server(&cfg);
	o[0] = bt_fbo_handle(BINDER_TYPE_HANDLE, h);
	o[1] = bt_fbo_handle(BINDER_TYPE_HANDLE, h);
	for (int i = 0; i < 20; i++) {
		t = bt_tr(0, BT_PING_TRANSACTION, 0, o, sizeof(o), offs, 12);
		call_fails(&t, false, 0, -EINVAL);
	}
	/* our one strong ref is intact: nothing was released for us */
	cr_assert_eq(bt_ping(&c, h), BR_REPLY);
	/* FDA with num_fds 0 is accepted */
	{
		struct sg_fda f;
		binder_size_t fo[2];
		static uint32_t fds[1];

		sg_fda_init(&f, fo, fds, sizeof(fds), 0);
		t = bt_tr(h, C_FDINFO, TF_ACCEPT_FDS, &f, sizeof(f), fo, sizeof(fo));
		cr_assert_eq(bt_call_sg(&c, &t, 8, &r), 0);
		cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
		cr_assert_eq(r.reply.data_size, 0, "no fds");
		bt_free(&c, r.reply.data.ptr.buffer);
	}
	assert_usable();
}

/* CVE-2023-21255: failing before the first object was processed released
 * the whole buffer (failed_at == 0 meant "everything"). */
Test(cve, cve_2023_21255_fail_at_first_object)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct flat_binder_object o[2];
	binder_size_t offs[2] = { 0, 24 };
	struct binder_transaction_data t;
	uint32_t h;

	h = start_server(&cfg);
	/* bad first, good second; then good first, bad second */
	o[0] = bt_fbo_handle(BINDER_TYPE_HANDLE, 999);
	o[1] = bt_fbo_handle(BINDER_TYPE_HANDLE, h);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < 10; i++) {
			t = bt_tr(0, BT_PING_TRANSACTION, 0, o, sizeof(o), offs, sizeof(offs));
			call_fails(&t, false, 0, -EINVAL);
		}
		o[0] = bt_fbo_handle(BINDER_TYPE_HANDLE, h);
		o[1] = bt_fbo_handle(BINDER_TYPE_HANDLE, 999);
	}
	cr_assert_eq(bt_ping(&c, h), BR_REPLY, "our strong ref was released by a failed cleanup");
	assert_usable();
}

/* CVE-2023-52438: the shrinker callback raced mmput/vma teardown. */
static int churn_main(void *arg, int rd, int wr)
{
	(void)arg;
	(void)rd;
	for (int i = 0; i < 10; i++) {
		struct bt_conn q;
		static uint8_t big[32768];

		bt_require(bt_open(&q, BT_VM_SIZE_DEFAULT) == 0, "open");
		for (int k = 0; k < 3; k++) {
			struct binder_transaction_data t =
				bt_tr(0, BT_SM_ECHO, 0, big, sizeof(big), NULL, 0);
			struct bt_result r;

			bt_require(bt_call(&q, &t, &r) == 0 && r.final == BR_REPLY, "echo");
			bt_free(&q, r.reply.data.ptr.buffer);
		}
		bt_close(&q);
	}
	bt_send_u64(wr, 0);
	return 0;
}

Test(cve, cve_2023_52438_shrinker_vs_process_exit)
{
	for (int round = 0; round < 5; round++) {
		struct bt_child q;
		uint64_t v;

		cr_assert_eq(bt_spawn(&q, churn_main, NULL), 0);
		for (int i = 0; i < 200 && bt_recv_u64(q.from_child, &v, 0) == -ETIMEDOUT; i++)
			drop_slab();
		cr_assert_eq(bt_join(&q, TH_HANG_MS), 0);
		drop_slab();
	}
	assert_usable();
}

/* 2024 "check offset alignment in binder_get_object()" (CVE-2024-26926). */
Test(cve, cve_2024_26926_unaligned_object_offset)
{
	struct {
		uint8_t pad[2];
		struct flat_binder_object o;
	} __attribute__((packed)) d;
	binder_size_t off = 2;
	struct binder_transaction_data t;

	memset(&d, 0, sizeof(d));
	d.o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x100, 0);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), &off, 8);
	call_fails(&t, false, 0, -EINVAL);
	assert_usable();
}

/* 2024 "fix UAF caused by offsets overwrite": copying the raw bytes after
 * the last object must not overwrite the offsets array. */
Test(cve, offsets_overwrite_by_trailing_data)
{
	struct bt_conn rx;
	struct {
		struct flat_binder_object o;
		char tail[13];
	} __attribute__((packed)) d;
	binder_size_t off = 0;
	struct binder_transaction_data t;
	struct bt_br br;
	uint32_t h;

	/* a second open of our own is the receiver, so we can look inside */
	open_node_owner(&rx, 2, 0x500, 0x501);
	h = get_handle(&c, 2);
	memset(&d, 0, sizeof(d));
	d.o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x600, 0x601);
	memcpy(d.tail, "trailingbytes", 13);
	t = bt_tr(h, 0x77, 0, &d, sizeof(d), &off, 8);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.tr.data_size, sizeof(d));
	cr_assert_eq(br.tr.offsets_size, 8);
	{
		const binder_size_t *ro = (const void *)(uintptr_t)br.tr.data.ptr.offsets;
		const uint8_t *rd = (const void *)(uintptr_t)br.tr.data.ptr.buffer;
		struct flat_binder_object got;

		cr_assert_eq(ro[0], 0, "offsets array overwritten");
		cr_assert_eq(memcmp(rd + sizeof(d.o), "trailingbytes", 13), 0);
		memcpy(&got, rd, sizeof(got));
		cr_assert_eq(got.hdr.type, BINDER_TYPE_HANDLE);
	}
	cr_assert_eq(bt_reply_empty(&rx, &br.tr), 0);
	finish_call(&c);
	bt_close(&rx);
	assert_usable();
}

/* 2022-2025 (no CVE): "fix async space check for 0-sized buffers" and the
 * empty-parcel accounting: zero-size oneways still use (padded) async space
 * and give it all back. */
static uint32_t oneway_of(uint32_t h, size_t n, struct binder_extended_error *ee)
{
	static uint8_t payload[16384];
	struct binder_transaction_data t = bt_tr(h, 0x99, TF_ONE_WAY, payload, n, NULL, 0);
	struct bt_result r;

	cr_assert_leq(n, sizeof(payload));
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(bt_get_ee(&c, ee), 0);
	return r.final;
}

Test(cve, zero_sized_oneways_account_async_space)
{
	/* a 16 KiB mapping: 8 KiB of async space = 1024 8-byte padded buffers */
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1, .wait_go = true, .map_size = 16384 };
	struct binder_extended_error ee;
	struct srv_report rep;
	uint32_t h, final = 0, reports = 0;
	unsigned sent = 0;

	h = start_server(&cfg);
	/* the server reads nothing yet: every oneway stays allocated */
	while (sent < 1100 && (final = oneway_of(h, 0, &ee)) == BR_TRANSACTION_COMPLETE)
		sent++;
	cr_assert_eq(sent, 1024, "zero-size oneways accepted: %u", sent);
	cr_assert_eq(final, BR_FAILED_REPLY, "%s", bt_br_name(final));
	cr_assert_eq(ee.command, BR_FAILED_REPLY);
	cr_assert_eq(ee.param, -ENOSPC);
	/* let it read and free them all */
	cr_assert_eq(bt_send_u64(s1.to_child, SRV_CMD_SERVE), 0);
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		rep = srv_get_report(&c, h);
		reports++;
		if (rep.received - reports >= 1024 || !th_nap_until(end))
			break;
	}
	cr_assert_eq(rep.received - reports, 1024, "the server read %u oneways",
		     rep.received - reports);
	/* every byte is back: one oneway the size of the whole async space
	 * fits (8 bytes more do not) */
	cr_assert_eq(oneway_of(h, 8192 + 8, &ee), BR_FAILED_REPLY, "more than the async space");
	cr_assert_eq(ee.param, -ENOSPC);
	final = oneway_of(h, 8192, &ee);
	cr_assert_eq(final, BR_TRANSACTION_COMPLETE, "async space not all given back: %s (%d)",
		     bt_br_name(final), ee.param);
}
