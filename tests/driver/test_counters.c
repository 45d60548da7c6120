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
#include <string.h>
#include <unistd.h>

#include "bt.h"

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
			cr_log_warn("mainline: %ld orphan node(s) left, its own leak (differences.h)",
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
	/* process release is deferred to a workqueue: give it time */
	for (int i = 0; i < 500; i++) {
		cr_assert_eq(read_counts(c), 0);
		if (all_zero(c, why, len))
			return true;
		usleep(20 * 1000);
	}
	return false;
}

TestSuite(counters, .timeout = 60);

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
