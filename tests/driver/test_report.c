// SPDX-License-Identifier: MIT
/*
 * Transaction reports over generic netlink (Linux 6.18): every failure
 * class gives exactly one report with the right fields, and nothing else
 * gives one; a late or slow listener loses nothing its socket buffer could
 * hold, and a full buffer never holds binder up.
 *
 * The listener is libbinder-c's (<binderc/report.h>), joined to every
 * family there is ("binder", "binderc"), so that a report on the wrong
 * family counts too.  The family of the device under test: binderc's is
 * the one /sys/module/binderc/parameters/report_family names; mainline's
 * is "binder" from 6.18 on, and before there is none, so the mainline run
 * on Debian's stock kernels asserts that its failures are reported
 * nowhere.
 *
 * What mainline 7.3 sends (binder.c, binder_netlink_report()): error (the
 * BR_* code the sender got), context, from pid/tid, to pid/tid only once
 * the target was settled (never for a failed lookup; to_tid only when a
 * thread was chosen: a reply's caller, never a plain sync call), is_reply,
 * flags, code, data_size.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <binderc/report.h>

#include "bt.h"
#include "srv.h"

#define QUIET_MS 300 /* a drain ends after this long without a report */

static bc_report_listener *lst;

/* The family reports for the device under test come on; NULL: none. */
static const char *expected_family(void)
{
	static char fam[32];
	FILE *f;

	if (bt_driver() == BT_MAINLINE)
		return th_kernel_before(6, 18) ? NULL : "binder";
	f = fopen("/sys/module/binderc/parameters/report_family", "r");
	if (!f)
		return NULL;
	if (!fgets(fam, sizeof(fam), f))
		fam[0] = '\0';
	fclose(f);
	fam[strcspn(fam, "\n")] = '\0';
	return fam;
}

/* The context name of the device under test: its node's name. */
static const char *context_name(void)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", th_device());
	return basename(buf);
}

static bc_report_listener *listen_all(void)
{
	bc_report_listener *l = NULL;
	int ret = bc_report_listener_new(NULL, &l);

	cr_assert_eq(ret, 0, "no report family to join: %s", strerror(-ret));
	return l;
}

static void report_setup(void)
{
	fixture_setup();
	lst = listen_all();
}

static void report_teardown(void)
{
	lst = bc_report_listener_unref(lst);
	fixture_teardown();
}

/* Every report until none came for QUIET_MS; -ENOBUFS counted in *lost. */
static size_t drain(bc_report_listener *l, struct bc_report *out, size_t max, int *lost)
{
	size_t n = 0;

	for (;;) {
		struct bc_report r;
		int ret = bc_report_listener_read(l, &r, QUIET_MS);

		if (ret == -EAGAIN)
			return n;
		if (ret == -ENOBUFS && lost) {
			(*lost)++;
			continue;
		}
		cr_assert_eq(ret, 0, "read: %s", strerror(-ret));
		if (n < max)
			out[n] = r;
		n++;
	}
}

static void log_report(const struct bc_report *r)
{
	cr_log_info("report on %s: %s context %s from %d:%d to %d:%d%s flags 0x%x code 0x%x size %u",
		    r->family, bc_report_error_name(r->error), r->context, r->from_pid, r->from_tid,
		    r->to_pid, r->to_tid, r->is_reply ? " reply" : "", r->flags, r->code, r->data_size);
}

/* What a report must say; to_pid/to_tid 0: must be left out. */
struct want {
	uint32_t error;
	int32_t from_pid, from_tid, to_pid, to_tid;
	bool is_reply;
	uint32_t flags, code, data_size;
};

/*
 * Exactly one report, on the device's family, as @w says; or none at all
 * where the device's driver has no reports.
 */
static void expect_one(const struct want *w)
{
	const char *fam = expected_family();
	struct bc_report got[8];
	size_t n = drain(lst, got, 8, NULL);

	for (size_t i = 0; i < n && i < 8; i++)
		log_report(&got[i]);
	if (!fam) {
		cr_assert_eq(n, 0, "%s on Linux %d.%d has no transaction reports, yet %zu came",
			     th_driver_name(), th_kernel() / 100, th_kernel() % 100, n);
		return;
	}
	cr_assert_eq(n, 1, "%zu reports for one failure", n);
	cr_expect_str_eq(got[0].family, fam);
	cr_expect_str_eq(got[0].context, context_name());
	cr_expect_eq(got[0].error, w->error, "error %s, want %s", bc_report_error_name(got[0].error),
		     bc_report_error_name(w->error));
	cr_expect_eq(got[0].from_pid, w->from_pid, "from_pid %d want %d", got[0].from_pid, w->from_pid);
	cr_expect_eq(got[0].from_tid, w->from_tid, "from_tid %d want %d", got[0].from_tid, w->from_tid);
	cr_expect_eq(got[0].to_pid, w->to_pid, "to_pid %d want %d", got[0].to_pid, w->to_pid);
	cr_expect_eq(got[0].to_tid, w->to_tid, "to_tid %d want %d", got[0].to_tid, w->to_tid);
	cr_expect_eq(got[0].is_reply, w->is_reply);
	cr_expect_eq(got[0].flags, w->flags, "flags 0x%x want 0x%x", got[0].flags, w->flags);
	cr_expect_eq(got[0].code, w->code, "code 0x%x want 0x%x", got[0].code, w->code);
	cr_expect_eq(got[0].data_size, w->data_size, "data_size %u want %u", got[0].data_size,
		     w->data_size);
}

static void expect_none(void)
{
	struct bc_report got[4];
	size_t n = drain(lst, got, 4, NULL);

	for (size_t i = 0; i < n && i < 4; i++)
		log_report(&got[i]);
	cr_assert_eq(n, 0, "%zu reports where nothing failed", n);
}

static int freeze_pid(int fd, pid_t pid, bool enable)
{
	/* the kernel waits for calls in flight to be counted out, and returns
	 * as soon as they are: a hang-catcher, not a guess of how long */
	struct binder_freeze_info i = { .pid = (uint32_t)pid, .enable = enable, .timeout_ms = TH_HANG_MS };

	return bt_ioctl(fd, BINDER_FREEZE, &i);
}

TestSuite(report, .init = report_setup, .fini = report_teardown, .timeout = TH_TEST_TIMEOUT_S);

/* binderc takes "binder" unless the mainline driver (6.18 on, loaded
 * first in the guest) holds it; then "binderc" (differences.h). */
Test(report, family_names)
{
	const char *fam = expected_family();
	size_t n = bc_report_listener_get_n_families(lst);

	for (size_t i = 0; i < n; i++)
		cr_log_info("family %s", bc_report_listener_get_family(lst, i));
	if (!fam)
		cr_skip_test("mainline before 6.18 has no transaction reports");
	if (th_kernel_before(6, 18)) {
		/* only binderc's, under mainline's name */
		cr_assert_str_eq(fam, "binder");
		cr_assert_eq(n, 1);
		return;
	}
	/*
	 * mainline's, and binderc's where it is loaded (Debian's own 7.3
	 * kernel, the mainline oracle, runs without it)
	 */
	cr_assert_eq(n, access("/sys/module/binderc", F_OK) == 0 ? 2u : 1u);
	cr_assert_eq(strcmp(fam, "binderc") == 0, bt_expected("reports on the family binderc", 0),
		     "family %s", fam);
}

Test(report, bad_handle)
{
	uint32_t data[3] = { 1, 2, 3 };
	struct binder_transaction_data t = bt_tr(77, 0x1234, TF_ACCEPT_FDS, data, sizeof(data), NULL, 0);
	struct bt_result r;

	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	expect_one(&(struct want){ .error = BR_FAILED_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .flags = TF_ACCEPT_FDS, .code = 0x1234, .data_size = sizeof(data) });
}

Test(report, bad_handle_oneway)
{
	struct binder_transaction_data t = bt_tr(78, 7, TF_ONE_WAY, NULL, 0, NULL, 0);
	struct bt_result r;

	cr_assert_eq(bt_oneway(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	expect_one(&(struct want){ .error = BR_FAILED_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .flags = TF_ONE_WAY, .code = 7 });
}

/* A target that died: the lookup fails, so no target is named. */
Test(report, dead_target)
{
	struct bt_buf w = { .len = 0 };
	uint64_t payload = 42;
	struct binder_transaction_data t;
	struct bt_result r;
	struct bt_br br;
	uint32_t h;

	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	h = start_server(NULL);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, h, 0xdead);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	bt_kill(&s1);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DEAD_BINDER, "%s", bt_br_name(br.cmd));
	expect_none(); /* a death is no failed transaction */
	t = bt_tr(h, C_ECHO, 0, &payload, sizeof(payload), NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_DEAD_REPLY, "%s", bt_br_name(r.final));
	expect_one(&(struct want){ .error = BR_DEAD_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .code = C_ECHO, .data_size = sizeof(payload) });
}

/* A sync call to a frozen proc: the target is known, no thread chosen. */
Test(report, frozen_target_sync)
{
	uint32_t payload = 5;
	struct binder_transaction_data t;
	struct bt_result r;
	uint32_t h;

	h = start_server(NULL);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	t = bt_tr(h, C_ECHO, 0, &payload, sizeof(payload), NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_FROZEN_REPLY, "%s", bt_br_name(r.final));
	expect_one(&(struct want){ .error = BR_FROZEN_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .to_pid = s1.pid, .code = C_ECHO, .data_size = sizeof(payload) });
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

/* A oneway queued to a frozen proc is no failure, but it is reported. */
Test(report, frozen_target_oneway)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	uint32_t seq = 0;
	struct binder_transaction_data t;
	struct bt_result r;
	uint32_t h;

	h = start_server(&cfg);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	t = bt_tr(h, C_SEQ, TF_ONE_WAY, &seq, sizeof(seq), NULL, 0);
	cr_assert_eq(bt_oneway(&c, &t, &r), 0);
	cr_assert_eq(r.final, th_kernel_before(6, 3) && bt_driver() == BT_MAINLINE ?
				      BR_TRANSACTION_COMPLETE : BR_TRANSACTION_PENDING_FROZEN,
		     "%s", bt_br_name(r.final));
	expect_one(&(struct want){ .error = BR_TRANSACTION_PENDING_FROZEN, .from_pid = getpid(),
				   .from_tid = gettid(), .to_pid = s1.pid, .flags = TF_ONE_WAY,
				   .code = C_SEQ, .data_size = sizeof(seq) });
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	/* delivered after the thaw, and that is no report either */
	cr_assert_eq(srv_get_report(&c, h).received, 2, "the oneway and C_REPORT");
	expect_none();
}

/* The oneway that crosses the spam threshold, once (see freeze61's test:
 * the 53rd of 1000 bytes on a 128 KiB mapping), and no other report. */
Test(report, oneway_spam_suspect)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1, .wait_go = true };
	static uint8_t payload[1000];
	uint32_t on = 1, h, n, first = 0;

	c.autoack = false;
	h = start_server(&cfg);
	cr_assert_eq(bt_ioctl(c.fd, BINDER_ENABLE_ONEWAY_SPAM_DETECTION, &on), 0);
	for (n = 0; n < 54; n++) {
		struct binder_transaction_data t;
		struct bt_result r;

		memcpy(payload, &n, sizeof(n));
		t = bt_tr(h, C_SEQ, TF_ONE_WAY, payload, sizeof(payload), NULL, 0);
		cr_assert_eq(bt_oneway(&c, &t, &r), 0);
		if (r.final == BR_ONEWAY_SPAM_SUSPECT && !first)
			first = n + 1;
	}
	cr_assert_eq(first, 53, "first suspect at %u", first);
	expect_one(&(struct want){ .error = BR_ONEWAY_SPAM_SUSPECT, .from_pid = getpid(),
				   .from_tid = gettid(), .to_pid = s1.pid, .flags = TF_ONE_WAY,
				   .code = C_SEQ, .data_size = sizeof(payload) });
	cr_assert_eq(bt_send_u64(s1.to_child, SRV_CMD_SERVE), 0);
}

/* A reply the driver refuses (an object of no known type): the replier is
 * the sender, the caller (pid and thread) the target. */
Test(report, failed_reply)
{
	uint8_t junk[24] = { 0 };
	binder_size_t off = 0;
	struct binder_transaction_data t;
	struct bt_conn rx;
	struct bt_result r;
	struct bt_br br;

	open_node_owner(&rx, 6, 0x1700, 0x1800);
	t = bt_tr(get_handle(&c, 6), 0x58, 0, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	expect_none();
	cr_assert_eq(bt_reply(&rx, &br.tr, junk, sizeof(junk), &off, 1), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION_COMPLETE, &br, BT_TIMEOUT_MS), 0);
	memset(&r, 0, sizeof(r));
	cr_assert_eq(bt_wait_result(&c, &r, true, BT_TIMEOUT_MS), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "caller got %s", bt_br_name(r.final));
	/* the reply's own code and flags: bt_reply sends code 0, flags 0 */
	expect_one(&(struct want){ .error = BR_FAILED_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .to_pid = getpid(), .to_tid = gettid(), .is_reply = true,
				   .data_size = sizeof(junk) });
	bt_close(&rx);
}

/* BC_REPLY with no call to answer: a reply, and no target. */
Test(report, reply_without_call)
{
	uint32_t v = 9;
	struct binder_transaction_data t = bt_tr(0, 3, 0, &v, sizeof(v), NULL, 0);
	struct bt_buf w = { .len = 0 };
	struct bt_br br;

	bt_put_tr(&w, BC_REPLY, &t);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_FAILED_REPLY, "%s", bt_br_name(br.cmd));
	expect_one(&(struct want){ .error = BR_FAILED_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .is_reply = true, .code = 3, .data_size = sizeof(v) });
}

/* Calls, replies and oneways that succeed are not reported. */
Test(report, success_is_not_reported)
{
	uint32_t seq = 0, h = start_server(NULL);
	struct binder_transaction_data t = bt_tr(h, C_SEQ, TF_ONE_WAY, &seq, sizeof(seq), NULL, 0);
	struct bt_result r;

	for (int i = 0; i < 5; i++)
		cr_assert_eq(bt_ping(&c, h), BR_REPLY);
	cr_assert_eq(bt_oneway(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE);
	cr_assert_eq(srv_get_report(&c, h).received, 7);
	expect_none();
}

/* n failing calls to a bad handle, code i each; their duration in ms. */
static int64_t fail_calls(uint32_t n)
{
	int64_t t0 = th_now_ms();

	for (uint32_t i = 0; i < n; i++) {
		struct binder_transaction_data t = bt_tr(99, i, 0, NULL, 0, NULL, 0);
		struct bt_result r;

		cr_assert_eq(bt_call(&c, &t, &r), 0);
		cr_assert_eq(r.final, BR_FAILED_REPLY, "call %u: %s", i, bt_br_name(r.final));
	}
	return th_now_ms() - t0;
}

static void need_reports(void)
{
	if (!expected_family())
		cr_skip_test("%s on Linux %d.%d has no transaction reports", th_driver_name(),
			     th_kernel() / 100, th_kernel() % 100);
}

/* A listener hears what happens after it joined, all of it. */
Test(report, late_listener_hears_what_follows)
{
	struct bc_report got[16];
	bc_report_listener *late;
	size_t n;

	need_reports();
	fail_calls(5);
	late = listen_all();
	fail_calls(3);
	n = drain(late, got, 16, NULL);
	cr_assert_eq(n, 3, "the late listener got %zu", n);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(got[i].code, i, "in order: %u at %zu", got[i].code, i);
	n = drain(lst, got, 16, NULL);
	cr_assert_eq(n, 8, "the early one got %zu", n);
	bc_report_listener_unref(late);
}

/*
 * A listener that does not read: with room for them all, every report
 * waits in its buffer, in order; with no room, binder goes on regardless,
 * the listener is told once that it lost some, keeps what fitted and hears
 * the next failure again.
 */
Test(report, slow_listener_loses_only_what_does_not_fit)
{
	enum { N = 200 };
	static struct bc_report got[N + 8];
	int big = 8 << 20, tiny = 1, lost = 0;
	int64_t quiet_ms, full_ms;
	bc_report_listener *slow;
	size_t n;
	int fd;

	need_reports();
	lst = bc_report_listener_unref(lst); /* only the slow one listens */
	slow = listen_all();
	fd = bc_report_listener_get_fd(slow);
	/* root in the guest: past rmem_max */
	cr_assert_eq(setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)), 0);
	quiet_ms = fail_calls(N);
	n = drain(slow, got, N + 8, &lost);
	cr_assert_eq(lost, 0);
	cr_assert_eq(n, N, "%zu of %d reports waited", n, N);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(got[i].code, i, "in order: %u at %zu", got[i].code, i);

	cr_assert_eq(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &tiny, sizeof(tiny)), 0);
	full_ms = fail_calls(N);
	cr_log_info("%d failing calls: %lld ms with room, %lld ms with the buffer full", N,
		    (long long)quiet_ms, (long long)full_ms);
	n = drain(slow, got, N + 8, &lost);
	cr_log_info("with a tiny buffer: %zu reports kept, %d overflow notices", n, lost);
	cr_assert_eq(lost, 1, "told once: %d", lost);
	cr_assert_geq(n, 1);
	cr_assert_lt(n, N);
	for (size_t i = 1; i < n; i++)
		cr_assert_gt(got[i].code, got[i - 1].code, "in order");
	/* never held up: a driver that waited for the listener would stall
	 * here for good; the bound is the hang-catcher's, since how long 200
	 * failing calls take is up to the host */
	cr_assert_lt(full_ms, TH_HANG_MS, "%lld ms", (long long)full_ms);
	/* drained, it hears again */
	fail_calls(1);
	n = drain(slow, got, N + 8, &lost);
	cr_assert_eq(n, 1);
	cr_assert_eq(lost, 1);
	bc_report_listener_unref(slow);
}

/* A listener in a helper process: as another user, or in a network
 * namespace of its own; it reads one report (or waits for none). */
struct far_listener {
	uid_t uid;	/* 0: stay root */
	bool netns;	/* unshare(CLONE_NEWNET) first */
	uint32_t code;	/* the report expected */
};

enum { FAR_OK, FAR_NONE = 10, FAR_WRONG, FAR_SETUP };

static int far_listener_main(void *arg, int rd, int wr)
{
	const struct far_listener *f = arg;
	bc_report_listener *l = NULL;
	struct bc_report r;
	int ret;

	(void)rd;
	if (f->netns && unshare(CLONE_NEWNET))
		return bt_send_u64(wr, errno), FAR_SETUP;
	if (f->uid && (setgroups(0, NULL) || setgid(f->uid) || setuid(f->uid)))
		return bt_send_u64(wr, errno), FAR_SETUP;
	ret = bc_report_listener_new(NULL, &l);
	/* another namespace may not even see the family: no reports either */
	if (ret == -ENOENT && f->netns)
		return bt_send_u64(wr, 0), FAR_NONE;
	if (ret)
		return bt_send_u64(wr, (uint64_t)-ret), FAR_SETUP;
	bt_send_u64(wr, 0);
	ret = bc_report_listener_read(l, &r, f->netns ? 1000 : BT_TIMEOUT_MS);
	bc_report_listener_unref(l);
	if (ret == -EAGAIN)
		return FAR_NONE;
	return ret == 0 && r.code == f->code ? FAR_OK : FAR_WRONG;
}

/* Run a far listener around one failing call; its exit status. */
static int far_listener_run(struct far_listener *f)
{
	struct bt_child ch;
	int ret = bt_spawn_ready(&ch, far_listener_main, f, BT_TIMEOUT_MS);

	cr_assert_eq(ret, 0, "listener set-up: %s", strerror(-ret));
	{
		struct binder_transaction_data t = bt_tr(98, f->code, 0, NULL, 0, NULL, 0);
		struct bt_result r;

		cr_assert_eq(bt_call(&c, &t, &r), 0);
		cr_assert_eq(r.final, BR_FAILED_REPLY);
	}
	ret = bt_join(&ch, BT_TIMEOUT_MS + 2000);
	if (ret == -ETIMEDOUT)
		bt_kill(&ch);
	return ret;
}

/* As in mainline, the group asks for no privilege: any user may listen. */
Test(report, unprivileged_listener_hears)
{
	struct far_listener f = { .uid = 1000, .code = 0x4242 };

	need_reports();
	cr_assert_eq(far_listener_run(&f), FAR_OK);
}

/* Reports go to the initial network namespace only. */
Test(report, other_network_namespace_hears_nothing)
{
	struct far_listener f = { .netns = true, .code = 0x4242 };

	need_reports();
	cr_assert_eq(far_listener_run(&f), FAR_NONE);
	/* while this namespace's listener heard it */
	expect_one(&(struct want){ .error = BR_FAILED_REPLY, .from_pid = getpid(), .from_tid = gettid(),
				   .code = 0x4242 });
}
