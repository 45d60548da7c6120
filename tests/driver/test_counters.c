/* SPDX-License-Identifier: MIT */
/*
 * Live-object counters.  binderc exports /sys/kernel/debug/binderc/counters
 * ("NAME COUNT" per kind of live object, see driver/debugfs.c); mainline's
 * equivalent is the "NAME: active N total M" lines of
 * /sys/kernel/debug/binder/stats.  Run after the other driver tests: with
 * no binder user left, every count must drop to zero.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

struct counts {
	char name[16][32];
	long value[16];
	int n;
};

static const char *counts_path(void)
{
	return bt_driver() == BT_BINDERC ? "/sys/kernel/debug/binderc/counters"
					  : "/sys/kernel/debug/binder/stats";
}

static int read_counts(struct counts *c)
{
	FILE *f = fopen(counts_path(), "r");
	char line[256];

	memset(c, 0, sizeof(*c));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && c->n < 16) {
		char name[32];
		long v, total;

		if (bt_driver() == BT_BINDERC) {
			if (sscanf(line, "%31s %ld", name, &v) != 2)
				continue;
		} else {
			/* global lines only: per-proc ones are indented */
			if (line[0] == ' ' ||
			    sscanf(line, "%31[a-z_]: active %ld total %ld", name, &v, &total) != 3)
				continue;
		}
		strcpy(c->name[c->n], name);
		c->value[c->n++] = v;
	}
	fclose(f);
	return 0;
}

static long count_of(const struct counts *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return c->value[i];
	return 0; /* mainline omits kinds never created */
}

/* mainline says "proc", binderc "procs" */
static long kind(const struct counts *c, const char *singular)
{
	char plural[40];

	snprintf(plural, sizeof(plural), "%ss", singular);
	return count_of(c, bt_driver() == BT_BINDERC ? plural : singular);
}

static bool all_zero(const struct counts *c, char *why, size_t len)
{
	/* mainline can keep a node no process references (differences.h) */
	bool orphan_nodes_ok = bt_expected("orphan nodes tolerated", 1);

	for (int i = 0; i < c->n; i++) {
		if (orphan_nodes_ok && c->value[i] && strcmp(c->name[i], "node") == 0) {
			cr_log_info("mainline: %ld orphan node(s) left, its own leak (differences.h)",
				    c->value[i]);
			continue;
		}
		if (c->value[i]) {
			snprintf(why, len, "%s %ld", c->name[i], c->value[i]);
			return false;
		}
	}
	return true;
}

static void need_counts(void)
{
	if (access(counts_path(), R_OK) == 0)
		return;
	if (bt_driver() == BT_BINDERC)
		cr_assert_fail("PENDING: %s is missing (driver/debugfs.c counters)", counts_path());
	cr_skip_test("%s not readable (debugfs not mounted?)", counts_path());
}

static bool wait_zero(struct counts *c, char *why, size_t len)
{
	/* process release is deferred to a workqueue: give it time (a
	 * hang-catcher: a slow guest may need seconds) */
	int64_t end = th_now_ms() + TH_HANG_MS;

	do {
		cr_assert_eq(read_counts(c), 0);
		if (all_zero(c, why, len))
			return true;
	} while (th_nap_until(end));
	return false;
}

TestSuite(counters, .timeout = TH_TEST_TIMEOUT_S);

Test(counters, count_live_objects_then_zero)
{
	struct counts before, during, after;
	struct bt_child cm;
	struct bt_conn c;
	char why[128] = "";

	need_counts();
	cr_assert(wait_zero(&before, why, sizeof(why)), "not idle at start: %s", why);
	cr_assert_eq(bt_cm_start(&cm), 0);
	cr_assert_eq(bt_open(&c, BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
	cr_assert_eq(read_counts(&during), 0);
	/* two processes (manager + us), their threads, the manager's node */
	cr_assert_geq(kind(&during, "proc"), 2, "procs while busy");
	cr_assert_geq(kind(&during, "thread"), 2, "threads while busy");
	cr_assert_geq(kind(&during, "node"), 1, "nodes while busy");
	bt_close(&c);
	bt_cm_stop(&cm);
	cr_assert(wait_zero(&after, why, sizeof(why)), "left behind after close: %s", why);
}

Test(counters, zero_after_the_suite)
{
	struct counts now;
	char why[128] = "";

	need_counts();
	cr_assert(wait_zero(&now, why, sizeof(why)), "live objects with no binder user: %s", why);
	cr_assert_gt(now.n, 0, "no counters parsed from %s", counts_path());
}

/*
 * Binder files in flight.  An FD object holds its file from BC_TRANSACTION
 * until the receiver reads the transaction.  If the file is the receiver's
 * own binder file (or that of another process whose queue holds the
 * receiver's file), the queue pins the file that owns the queue: when the
 * owners die nobody reads, the files are never released, and mainline
 * keeps those procs forever (found by binderc-fuzz at 10^6 operations,
 * tests/fuzz/README.md).  binderc answers a proc's queue when its receive
 * mapping goes away, which the owner's exit always does first.
 * Mainline is only run with BINDERC_RUN_MAINLINE_LEAKS=1: what it leaks
 * stays until the guest reboots and would fail every later count.
 */
static void need_leak_run(void)
{
	need_counts();
	if (bt_driver() == BT_MAINLINE && !getenv("BINDERC_RUN_MAINLINE_LEAKS"))
		cr_skip_test("mainline keeps these procs forever (differences.h); "
			     "BINDERC_RUN_MAINLINE_LEAKS=1 runs it");
}

/* Look up the node in `slot` and send it a oneway carrying `fd`. */
static void send_fd_oneway(struct bt_conn *q, uint32_t slot, int fd)
{
	struct binder_fd_object fo = bt_fdo(fd);
	binder_size_t off = 0;
	struct binder_transaction_data tr;
	struct bt_result r;
	uint32_t h = 0;

	bt_require(bt_sm_get(q, slot, &h) == 0 && h, "get slot %u", slot);
	tr = bt_tr(h, 1, TF_ONE_WAY, &fo, sizeof(fo), &off, sizeof(off));
	memset(&r, 0, sizeof(r));
	bt_require(bt_oneway(q, &tr, &r) == 0 && r.final == BR_TRANSACTION_COMPLETE,
		   "oneway with fd: %s", bt_br_name(r.final));
}

/* Owns the node in slot 0 and never reads its queue (no looper: incoming
 * calls stay on the proc's queue); a child of it sends that node a oneway
 * carrying the owner's own binder fd, inherited across fork. */
static int own_file_main(void *arg, int rd, int wr)
{
	struct bt_conn a, b;
	pid_t pid;
	int st = -1;

	(void)arg, (void)rd;
	bt_require(bt_open(&a, BT_VM_SIZE_DEFAULT) == 0, "open");
	publish(&a, NULL, 0, BINDER_TYPE_BINDER, 0x1000, 0x2000);
	pid = fork();
	if (pid == 0) {
		bt_require(bt_open(&b, BT_VM_SIZE_DEFAULT) == 0, "open in the child");
		send_fd_oneway(&b, 0, a.fd);
		_exit(0);
	}
	bt_require(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
		   "the child's oneway");
	bt_send_u64(wr, 0);
	for (;;)
		pause();
}

/* Owns the node in `*slot`, sends its own binder fd to the node in the
 * other slot of 0/1 when the parent says so, and never reads its queue. */
static int crossed_file_main(void *arg, int rd, int wr)
{
	uint32_t slot = *(uint32_t *)arg;
	struct bt_conn a;
	uint64_t go;

	bt_require(bt_open(&a, BT_VM_SIZE_DEFAULT) == 0, "open");
	publish(&a, NULL, slot, BINDER_TYPE_BINDER, 0x1000, 0x2000);
	bt_send_u64(wr, 0);
	bt_require(bt_recv_u64(rd, &go, 10 * BT_TIMEOUT_MS) == 0, "go");
	send_fd_oneway(&a, !slot, a.fd);
	bt_send_u64(wr, 0);
	for (;;)
		pause();
}

/* Counts while the files are queued, then the procs left once all died. */
static void expect_owners_freed(struct bt_child *owners, int n, struct bt_child *cm)
{
	struct counts during, after;
	char why[128] = "";
	long left;

	cr_assert_eq(read_counts(&during), 0);
	/* the manager and the owners, and the queued oneways */
	cr_assert_geq(kind(&during, "proc"), n + 1, "procs while queued");
	cr_assert_geq(kind(&during, "transaction"), n, "queued transactions");
	for (int i = 0; i < n; i++)
		bt_kill(&owners[i]);
	bt_cm_stop(cm);
	if (wait_zero(&after, why, sizeof(why)))
		left = 0;
	else
		left = kind(&after, "proc");
	cr_assert_eq(left, bt_expected("procs left after their owners died", n),
		     "%ld procs left after their owners died (%s)", left, why);
}

TestSuite(files_in_flight, .timeout = TH_TEST_TIMEOUT_S);

Test(files_in_flight, own_file_queued_to_itself)
{
	struct bt_child cm, owner;
	struct counts before;
	char why[128] = "";

	need_leak_run();
	cr_assert(wait_zero(&before, why, sizeof(why)), "not idle at start: %s", why);
	cr_assert_eq(bt_cm_start(&cm), 0);
	cr_assert_eq(bt_spawn_ready(&owner, own_file_main, NULL, 10 * BT_TIMEOUT_MS), 0);
	expect_owners_freed(&owner, 1, &cm);
}

Test(files_in_flight, files_queued_to_each_other)
{
	struct bt_child cm, owners[2];
	uint32_t slots[2] = { 0, 1 };
	struct counts before;
	char why[128] = "";
	uint64_t done;

	need_leak_run();
	cr_assert(wait_zero(&before, why, sizeof(why)), "not idle at start: %s", why);
	cr_assert_eq(bt_cm_start(&cm), 0);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(bt_spawn_ready(&owners[i], crossed_file_main, &slots[i],
					    10 * BT_TIMEOUT_MS), 0);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(bt_send_u64(owners[i].to_child, 1), 0);
		cr_assert_eq(bt_recv_u64(owners[i].from_child, &done, 10 * BT_TIMEOUT_MS), 0);
	}
	expect_owners_freed(owners, 2, &cm);
}
