/* SPDX-License-Identifier: MIT */
/*
 * Real-time priority inheritance (issue 20), an opt-in of the node's owner
 * in the flat_binder_object flags: FLAT_BINDER_FLAG_INHERIT_RT lends a sync
 * SCHED_FIFO/SCHED_RR caller's priority to the thread serving it, and the
 * policy bits with the priority byte set a real-time minimum.  Mainline
 * ignores these bits: there the server stays SCHED_OTHER and every such
 * node is accepted (differences.h).  The server is a SCHED_OTHER helper
 * process that reports its own policy and priority while it serves, and
 * what it was right after its previous reply; one busy process per CPU
 * runs meanwhile, so an unraised server has to compete with them.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "srv.h"

#define RT_POLICY(p) ((uint32_t)(p) << FLAT_BINDER_FLAG_SCHED_POLICY_SHIFT)

#define C_SCHED 0x20u /* reply: struct rt_seen; oneway: note the class */

/* The server's nodes, one per slot. */
#define SLOT_INHERIT  0 /* INHERIT_RT, no minimum */
#define SLOT_LEGACY   1 /* mainline's flags (bt_fbo_binder): no opt-in */
#define SLOT_MIN_FIFO 2 /* SCHED_FIFO minimum 7, no INHERIT_RT */
#define SLOT_MIN_RR   3 /* SCHED_RR minimum 7 and INHERIT_RT */
#define SLOT_SPARE    5 /* for the bad-input tests */
#define MIN_PRIO      7

struct rt_seen {
	int32_t policy, prio;               /* while serving this call */
	int32_t after_policy, after_prio;   /* right after the previous reply */
	int32_t oneway_policy, oneway_prio; /* while serving the last oneway */
};

static struct rt_seen seen; /* the server helper's */

static void now(int32_t *policy, int32_t *prio)
{
	struct sched_param sp = { 0 };

	*policy = sched_getscheduler(0);
	sched_getparam(0, &sp);
	*prio = sp.sched_priority;
}

static void rt_handler(struct bt_conn *conn, const struct binder_transaction_data *tr,
		       void *arg)
{
	struct rt_seen out;

	(void)arg;
	if (tr->flags & TF_ONE_WAY) {
		now(&seen.oneway_policy, &seen.oneway_prio);
		bt_free(conn, tr->data.ptr.buffer);
		return;
	}
	out = seen;
	now(&out.policy, &out.prio);
	bt_require(bt_reply(conn, tr, &out, sizeof(out), NULL, 0) == 0, "reply");
	now(&seen.after_policy, &seen.after_prio);
}

static int rt_server_main(void *arg, int rd, int wr)
{
	static const uint32_t flags[] = {
		[SLOT_INHERIT] = FLAT_BINDER_FLAG_ACCEPTS_FDS | FLAT_BINDER_FLAG_INHERIT_RT,
		[SLOT_LEGACY] = 0, /* bt_fbo_binder's */
		[SLOT_MIN_FIFO] = FLAT_BINDER_FLAG_ACCEPTS_FDS | RT_POLICY(SCHED_FIFO) | MIN_PRIO,
		[SLOT_MIN_RR] = FLAT_BINDER_FLAG_ACCEPTS_FDS | FLAT_BINDER_FLAG_INHERIT_RT |
				RT_POLICY(SCHED_RR) | MIN_PRIO,
	};
	struct sched_param sp = { 0 };
	struct bt_conn conn;

	(void)arg;
	bt_require(sched_setscheduler(0, SCHED_OTHER, &sp) == 0, "SCHED_OTHER");
	bt_require(bt_open(&conn, BT_VM_SIZE_DEFAULT) == 0, "open");
	bt_require(bt_enter_looper(&conn) == 0, "looper");
	for (uint32_t i = 0; i < 4; i++) {
		struct flat_binder_object o =
			bt_fbo_binder(BINDER_TYPE_BINDER, SRV_PTR(i), SRV_COOKIE(i));

		if (i != SLOT_LEGACY)
			o.flags = flags[i];
		bt_require(bt_sm_add(&conn, i, &o) == BR_REPLY, "publish %u", i);
	}
	bt_send_u64(wr, 0);
	for (;;) {
		uint64_t v = 0;

		bt_serve_until(&conn, rt_handler, NULL, rd, 100);
		if (read(rd, &v, sizeof(v)) != sizeof(v) || v == SRV_CMD_EXIT)
			return 0;
	}
}

/* ---- CPU hogs: one SCHED_OTHER busy loop per CPU ------------------------- */

static struct bt_child hogs[64];
static int nhogs;

static int hog_main(void *arg, int rd, int wr)
{
	volatile unsigned long n = 0;

	(void)arg, (void)rd, (void)wr;
	for (;;)
		n++;
	return 0;
}

static void setup(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	fixture_setup();
	bt_require(bt_spawn_ready(&s1, rt_server_main, NULL, TH_HANG_MS) == 0, "server");
	nhogs = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu;
	for (int i = 0; i < nhogs; i++)
		bt_require(bt_spawn(&hogs[i], hog_main, NULL) == 0, "hog");
}

static void teardown(void)
{
	struct sched_param sp = { 0 };

	sched_setscheduler(0, SCHED_OTHER, &sp);
	for (int i = 0; i < nhogs; i++)
		bt_kill(&hogs[i]);
	nhogs = 0;
	fixture_teardown();
}

TestSuite(rtprio, .init = setup, .fini = teardown, .timeout = TH_TEST_TIMEOUT_S);

/* A call to the node in `slot` at policy/prio (SCHED_OTHER: prio 0). */
static struct rt_seen call_at(uint32_t slot, int policy, int prio, bool oneway)
{
	uint32_t h = get_handle(&c, slot);
	struct sched_param sp = { .sched_priority = prio };
	struct binder_transaction_data tr =
		bt_tr(h, C_SCHED, oneway ? TF_ONE_WAY : 0, NULL, 0, NULL, 0);
	struct sched_param other = { 0 };
	struct rt_seen out;
	struct bt_result r;
	int ret;

	cr_assert_eq(sched_setscheduler(0, policy, &sp), 0, "caller's class: %s", strerror(errno));
	ret = oneway ? bt_oneway(&c, &tr, &r) : bt_call(&c, &tr, &r);
	cr_assert_eq(sched_setscheduler(0, SCHED_OTHER, &other), 0);
	cr_assert_eq(ret, 0);
	memset(&out, 0, sizeof(out));
	if (oneway) {
		cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE, "%s", bt_br_name(r.final));
		return out;
	}
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(r.reply.data_size, sizeof(out));
	memcpy(&out, (const void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(out));
	bt_free(&c, r.reply.data.ptr.buffer);
	return out;
}

/* The class a SCHED_OTHER server is expected at: raised only on binderc. */
static int want_policy(int policy)
{
	return bt_expected("server raised to a real-time class", 0) ? policy : SCHED_OTHER;
}

static int want_prio(int prio)
{
	return bt_expected("server raised to a real-time class", 0) ? prio : 0;
}

static const char *policy_name(int policy)
{
	return policy == SCHED_OTHER ? "SCHED_OTHER" : policy == SCHED_FIFO ? "SCHED_FIFO" :
	       policy == SCHED_RR ? "SCHED_RR" : "another policy";
}

static void assert_restored(uint32_t slot)
{
	/* A SCHED_OTHER call reports what the server was after its last reply. */
	struct rt_seen s = call_at(slot, SCHED_OTHER, 0, false);

	cr_assert_eq(s.after_policy, SCHED_OTHER, "after the reply: policy %d", s.after_policy);
	cr_assert_eq(s.after_prio, 0);
}

Test(rtprio, fifo_caller_served_at_its_priority_under_cpu_hogs)
{
	struct rt_seen s = call_at(SLOT_INHERIT, SCHED_FIFO, 10, false), after;

	cr_assert_eq(s.policy, want_policy(SCHED_FIFO), "while serving: policy %d", s.policy);
	cr_assert_eq(s.prio, want_prio(10), "while serving: priority %d", s.prio);
	after = call_at(SLOT_INHERIT, SCHED_OTHER, 0, false);
	cr_log_info("%d hogs; SCHED_FIFO 10 caller: server at %s %d while serving, %s %d after "
		    "the reply", nhogs, policy_name(s.policy), s.prio,
		    policy_name(after.after_policy), after.after_prio);
	assert_restored(SLOT_INHERIT);
	/* The SCHED_OTHER call itself was not raised. */
	s = call_at(SLOT_INHERIT, SCHED_OTHER, 0, false);
	cr_assert_eq(s.policy, SCHED_OTHER);
}

Test(rtprio, rr_caller_lends_rr)
{
	struct rt_seen s = call_at(SLOT_INHERIT, SCHED_RR, 42, false);

	cr_assert_eq(s.policy, want_policy(SCHED_RR), "policy %d", s.policy);
	cr_assert_eq(s.prio, want_prio(42), "priority %d", s.prio);
	assert_restored(SLOT_INHERIT);
}

Test(rtprio, no_inheritance_unless_the_node_asked)
{
	struct rt_seen s = call_at(SLOT_LEGACY, SCHED_FIFO, 10, false);

	cr_assert_eq(s.policy, SCHED_OTHER, "policy %d", s.policy);
	cr_assert_eq(s.prio, 0);
	/* A minimum without INHERIT_RT: the minimum, never the caller's. */
	s = call_at(SLOT_MIN_FIFO, SCHED_FIFO, 30, false);
	cr_assert_eq(s.policy, want_policy(SCHED_FIFO), "policy %d", s.policy);
	cr_assert_eq(s.prio, want_prio(MIN_PRIO), "priority %d", s.prio);
	assert_restored(SLOT_MIN_FIFO);
}

Test(rtprio, node_minimum_and_the_higher_of_both)
{
	struct rt_seen s = call_at(SLOT_MIN_FIFO, SCHED_OTHER, 0, false);

	cr_assert_eq(s.policy, want_policy(SCHED_FIFO), "policy %d", s.policy);
	cr_assert_eq(s.prio, want_prio(MIN_PRIO), "priority %d", s.prio);
	/* After the reply it is back to SCHED_OTHER, asked at the minimum
	 * node again (raised again for that call, the previous one undone). */
	s = call_at(SLOT_MIN_FIFO, SCHED_OTHER, 0, false);
	cr_assert_eq(s.after_policy, SCHED_OTHER, "after: policy %d", s.after_policy);
	/* Minimum RR 7 with INHERIT_RT: a FIFO 3 caller gets the minimum, a
	 * FIFO 20 caller its own. */
	s = call_at(SLOT_MIN_RR, SCHED_FIFO, 3, false);
	cr_assert_eq(s.policy, want_policy(SCHED_RR), "policy %d", s.policy);
	cr_assert_eq(s.prio, want_prio(MIN_PRIO), "priority %d", s.prio);
	s = call_at(SLOT_MIN_RR, SCHED_FIFO, 20, false);
	cr_assert_eq(s.policy, want_policy(SCHED_FIFO), "policy %d", s.policy);
	cr_assert_eq(s.prio, want_prio(20), "priority %d", s.prio);
	assert_restored(SLOT_INHERIT);
}

Test(rtprio, oneway_never_inherits)
{
	struct rt_seen s;

	call_at(SLOT_INHERIT, SCHED_FIFO, 10, true);
	/* The sync call after it is queued behind nothing on the server's
	 * thread, which handled the oneway first (one thread, in order). */
	s = call_at(SLOT_LEGACY, SCHED_OTHER, 0, false);
	cr_assert_eq(s.oneway_policy, SCHED_OTHER, "oneway served at policy %d", s.oneway_policy);
	/* A oneway to a node with a minimum gets the minimum, then drops it. */
	call_at(SLOT_MIN_FIFO, SCHED_OTHER, 0, true);
	s = call_at(SLOT_LEGACY, SCHED_OTHER, 0, false);
	cr_assert_eq(s.oneway_policy, want_policy(SCHED_FIFO), "policy %d", s.oneway_policy);
	cr_assert_eq(s.oneway_prio, want_prio(MIN_PRIO), "priority %d", s.oneway_prio);
	cr_assert_eq(s.policy, SCHED_OTHER, "still raised after the oneway: %d", s.policy);
}

/* ---- bad input ---------------------------------------------------------- */

/* Publish a node with `flags` in SLOT_SPARE on conn; the final BR, and the
 * extended error's param when it failed. */
static uint32_t try_node(struct bt_conn *conn, uint32_t flags, binder_uintptr_t ptr,
			 int32_t *param)
{
	struct flat_binder_object o = bt_fbo_binder(BINDER_TYPE_BINDER, ptr, ptr + 1);
	struct binder_extended_error ee;
	uint32_t br;

	o.flags = flags;
	br = bt_sm_add(conn, SLOT_SPARE, &o);
	*param = 0;
	if (br == BR_FAILED_REPLY) {
		bt_require(bt_get_ee(conn, &ee) == 0, "ee");
		bt_require(ee.command == BR_FAILED_REPLY, "ee.command %u", ee.command);
		*param = ee.param;
	} else if (br == BR_REPLY) {
		bt_require(bt_sm_del(conn, SLOT_SPARE) == BR_REPLY, "del");
	}
	return br;
}

static void assert_refused(uint32_t flags, binder_uintptr_t ptr, const char *what)
{
	long want = bt_expected("bad scheduling bits of a new node", 0);
	int32_t param;
	uint32_t br = try_node(&c, flags, ptr, &param);

	cr_assert_eq(br, want ? BR_FAILED_REPLY : BR_REPLY, "%s: %s", what, bt_br_name(br));
	cr_assert_eq(param, want, "%s: param %d", what, param);
}

Test(rtprio, bad_policy_and_priorities_refused)
{
	uint32_t fds = FLAT_BINDER_FLAG_ACCEPTS_FDS;

	assert_refused(fds | RT_POLICY(3) | 5, 0x9000, "SCHED_BATCH is no minimum");
	assert_refused(fds | RT_POLICY(3) | FLAT_BINDER_FLAG_INHERIT_RT, 0x9100, "batch, inherit");
	assert_refused(fds | RT_POLICY(SCHED_FIFO) | 0, 0x9200, "FIFO priority 0");
	assert_refused(fds | RT_POLICY(SCHED_FIFO) | 100, 0x9300, "FIFO priority 100");
	assert_refused(fds | RT_POLICY(SCHED_RR) | 0xff, 0x9400, "RR priority 255");
	assert_refused(fds | FLAT_BINDER_FLAG_INHERIT_RT | 20, 0x9500, "nice 20");
	assert_refused(fds | FLAT_BINDER_FLAG_INHERIT_RT | 0xeb, 0x9600, "nice -21");
	/* The boundaries are taken. */
	int32_t param;

	cr_assert_eq(try_node(&c, fds | RT_POLICY(SCHED_FIFO) | 99, 0x9700, &param), BR_REPLY);
	cr_assert_eq(try_node(&c, fds | FLAT_BINDER_FLAG_INHERIT_RT | 0xec, 0x9800, &param),
		     BR_REPLY, "nice -20");
	/* Nobody else affected: this process, another one, the server. */
	assert_usable();
	cr_assert_eq(call_at(SLOT_INHERIT, SCHED_FIFO, 10, false).policy, want_policy(SCHED_FIFO));
}

struct unpriv_arg {
	uint32_t refused_br;
	int32_t refused_param;
};

/* Without CAP_SYS_NICE: uid nobody, RLIMIT_RTPRIO hard 10. */
static int unpriv_main(void *arg, int rd, int wr)
{
	const struct unpriv_arg *a = arg;
	struct rlimit rl = { 10, 10 };
	uint32_t fifo = FLAT_BINDER_FLAG_ACCEPTS_FDS | RT_POLICY(SCHED_FIFO);
	struct bt_conn conn;
	int32_t param;
	uint32_t br;

	(void)rd;
	bt_require(bt_open(&conn, BT_VM_SIZE_DEFAULT) == 0, "open");
	bt_require(setrlimit(RLIMIT_RTPRIO, &rl) == 0, "rlimit");
	bt_require(setresgid(65534, 65534, 65534) == 0 && setresuid(65534, 65534, 65534) == 0,
		   "drop to nobody");
	rl.rlim_cur = 0;
	bt_require(setrlimit(RLIMIT_RTPRIO, &rl) == 0, "rlimit 0");
	br = try_node(&conn, fifo | 1, 0xa000, &param);
	bt_require(br == a->refused_br && param == a->refused_param,
		   "RLIMIT_RTPRIO 0, FIFO 1: %s, %d", bt_br_name(br), param);
	br = try_node(&conn, FLAT_BINDER_FLAG_INHERIT_RT | RT_POLICY(SCHED_RR) | 50, 0xa100,
		      &param);
	bt_require(br == a->refused_br && param == a->refused_param,
		   "RLIMIT_RTPRIO 0, RR 50: %s, %d", bt_br_name(br), param);
	/* Within RLIMIT_RTPRIO it is the owner's right. */
	rl.rlim_cur = 10;
	bt_require(setrlimit(RLIMIT_RTPRIO, &rl) == 0, "rlimit 10");
	br = try_node(&conn, fifo | 10, 0xa200, &param);
	bt_require(br == BR_REPLY, "RLIMIT_RTPRIO 10, FIFO 10: %s, %d", bt_br_name(br), param);
	br = try_node(&conn, fifo | 11, 0xa300, &param);
	bt_require(br == a->refused_br && param == a->refused_param,
		   "RLIMIT_RTPRIO 10, FIFO 11: %s, %d", bt_br_name(br), param);
	/* It is still usable itself. */
	bt_require(bt_ping(&conn, 0) == BR_REPLY, "ping after the refusals");
	bt_send_u64(wr, 0);
	return 0;
}

Test(rtprio, rt_minimum_beyond_the_owners_right_refused)
{
	long want = bt_expected("RT minimum beyond the owner's right", 0);
	struct unpriv_arg a = { want ? BR_FAILED_REPLY : BR_REPLY, (int32_t)want };
	struct bt_child ch;

	cr_assert_eq(bt_spawn_ready(&ch, unpriv_main, &a, TH_HANG_MS), 0, "the unprivileged owner");
	cr_assert_eq(bt_join(&ch, TH_HANG_MS), 0, "the unprivileged owner failed");
	assert_usable();
	cr_assert_eq(call_at(SLOT_INHERIT, SCHED_FIFO, 10, false).policy, want_policy(SCHED_FIFO));
}
