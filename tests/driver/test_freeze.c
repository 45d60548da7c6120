/* SPDX-License-Identifier: MIT */
/*
 * Frozen-binder notifications (Linux 6.12): BC_REQUEST_FREEZE_NOTIFICATION,
 * BC_CLEAR_FREEZE_NOTIFICATION, BC_FREEZE_NOTIFICATION_DONE,
 * BR_FROZEN_BINDER and BR_CLEAR_FREEZE_NOTIFICATION_DONE.
 *
 * The watcher is the test process (connection c, a looper); the watched
 * node belongs to the server s1 (srv.h), which the test freezes and thaws
 * with BINDER_FREEZE.  What mainline does, and binderc must do:
 *  - the current state comes at once after the request (none if the
 *    owner is gone), then again on every freeze that holds and every
 *    thaw, even when the state did not change;
 *  - once a notice was read nothing more comes for that watch until
 *    BC_FREEZE_NOTIFICATION_DONE; changes in between are merged into one
 *    notice after the ack (only if the state differs from the one read);
 *    a notice queued but not read just takes the newest state;
 *  - refusals fail the BINDER_WRITE_READ ioctl with EINVAL and
 *    write_consumed stops at the refused command: a bad handle, a second
 *    request on the ref, a clear with no watch or another cookie, an ack
 *    naming no delivered notice;
 *  - a clear answers BR_CLEAR_FREEZE_NOTIFICATION_DONE at once, in place
 *    of an unread notice, or after the ack of a read one;
 *  - a watch goes with its ref and with its holder.
 *
 * Mainline before 6.12 has none of it: the commands are unknown (EINVAL,
 * nothing consumed); `unknown_before_6_12` checks that there and the other
 * tests are skipped.
 *
 * Suite freeze61 asserts 6.1 features that had no test: TF_UPDATE_TXN,
 * GET_FROZEN_INFO's "calls in flight" bit with BINDER_FREEZE's wait, and
 * the oneway-spam threshold.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

static bool have_notifications(void)
{
	return bt_driver() == BT_BINDERC || !th_kernel_before(6, 12);
}

static void need_notifications(void)
{
	if (!have_notifications())
		cr_skip_test("mainline before 6.12 has no frozen-binder notifications");
}

static int freeze_pid(int fd, pid_t pid, bool enable)
{
	/* the kernel waits for calls in flight to be counted out, and returns
	 * as soon as they are: a hang-catcher, not a guess of how long */
	struct binder_freeze_info i = { .pid = (uint32_t)pid, .enable = enable, .timeout_ms = TH_HANG_MS };

	return bt_ioctl(fd, BINDER_FREEZE, &i);
}

static void put_hc(struct bt_buf *w, uint32_t cmd, uint32_t handle, binder_uintptr_t cookie)
{
	struct binder_handle_cookie hc = { .handle = handle, .cookie = cookie };

	bt_put32(w, cmd);
	bt_put(w, &hc, sizeof(hc));
}

/* One command; the ioctl's result, and write_consumed in *wc if asked. */
static int cmd_hc(struct bt_conn *conn, uint32_t cmd, uint32_t handle, binder_uintptr_t cookie,
		  binder_size_t *wc)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t consumed = 0;
	int ret;

	put_hc(&w, cmd, handle, cookie);
	ret = bt_write_read(conn->fd, w.data, w.len, &consumed, NULL, 0, NULL);
	if (wc)
		*wc = consumed;
	return ret;
}

static int request(struct bt_conn *conn, uint32_t h, binder_uintptr_t cookie)
{
	return cmd_hc(conn, BC_REQUEST_FREEZE_NOTIFICATION, h, cookie, NULL);
}

static int clear(struct bt_conn *conn, uint32_t h, binder_uintptr_t cookie)
{
	return cmd_hc(conn, BC_CLEAR_FREEZE_NOTIFICATION, h, cookie, NULL);
}

static int done(struct bt_conn *conn, binder_uintptr_t cookie)
{
	struct bt_buf w = { .len = 0 };

	bt_put32(&w, BC_FREEZE_NOTIFICATION_DONE);
	bt_put64(&w, cookie);
	return bt_write(conn, w.data, w.len);
}

static struct binder_frozen_state_info next_notice(struct bt_conn *conn)
{
	struct binder_frozen_state_info info;
	struct bt_br br;
	int ret = bt_next(conn, &br, BT_TIMEOUT_MS);

	bt_require(ret == 0, "no notice: %d", ret);
	bt_require(br.cmd == BR_FROZEN_BINDER, "got %s, not BR_FROZEN_BINDER", bt_br_name(br.cmd));
	memcpy(&info, br.raw, sizeof(info));
	return info;
}

static void expect_notice(struct bt_conn *conn, binder_uintptr_t cookie, bool frozen)
{
	struct binder_frozen_state_info info = next_notice(conn);

	cr_assert_eq(info.cookie, cookie, "cookie %llx", (unsigned long long)info.cookie);
	cr_assert_eq(info.is_frozen, frozen, "is_frozen %u, expected %d", info.is_frozen, frozen);
	cr_assert_eq(info.reserved, 0);
}

static void expect_clear_done(struct bt_conn *conn, binder_uintptr_t cookie)
{
	struct bt_br br;

	cr_assert_eq(bt_next(conn, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_CLEAR_FREEZE_NOTIFICATION_DONE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, cookie);
}

/* The live watches of the driver under test (mainline "freeze" in stats). */
static long live_watches(void)
{
	bool bc = bt_driver() == BT_BINDERC;
	FILE *f = fopen(bc ? "/sys/kernel/debug/binderc/counters" : "/sys/kernel/debug/binder/stats",
			"r");
	char line[256];
	long v = -1, total;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (bc ? sscanf(line, "freezes %ld", &v) == 1
		       : sscanf(line, "freeze: active %ld total %ld", &v, &total) == 2)
			break;
	}
	fclose(f);
	/* mainline omits kinds never created */
	return v < 0 && !bc ? 0 : v;
}

static bool watches_drop_to(long n)
{
	int64_t end = th_now_ms() + TH_HANG_MS;

	do
		if (live_watches() == n)
			return true;
	while (th_nap_until(end));
	return false;
}

/* The fixture plus: c is a looper, s1 serves one node, *h is c's handle. */
static void setup_watch(uint32_t *h)
{
	need_notifications();
	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	*h = start_server(NULL);
}

TestSuite(freeze_notify, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(freeze_notify, unknown_before_6_12)
{
	binder_size_t wc = 1234;
	uint32_t h;
	int ret;

	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	h = start_server(NULL);
	ret = cmd_hc(&c, BC_REQUEST_FREEZE_NOTIFICATION, h, 0xf00, &wc);
	if (have_notifications()) {
		cr_assert_eq(ret, 0);
		expect_notice(&c, 0xf00, false);
		cr_assert_eq(done(&c, 0xf00), 0);
		return;
	}
	cr_log_info("mainline before 6.12: the commands are unknown");
	cr_assert_eq(ret, -EINVAL);
	cr_assert_eq(wc, 0);
	cr_assert(bt_read_empty(&c));
}

Test(freeze_notify, current_state_at_once_then_on_each_change)
{
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xc1), 0);
	expect_notice(&c, 0xc1, false);
	cr_assert(bt_read_empty(&c), "one notice only");
	cr_assert_eq(done(&c, 0xc1), 0);
	cr_assert(bt_read_empty(&c), "nothing changed");

	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	expect_notice(&c, 0xc1, true);
	cr_assert_eq(done(&c, 0xc1), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xc1, false);
	cr_assert_eq(done(&c, 0xc1), 0);
	/* a thaw of a thawed proc notifies too */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xc1, false);
	cr_assert_eq(done(&c, 0xc1), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	expect_notice(&c, 0xc1, true);
	cr_assert_eq(done(&c, 0xc1), 0);
	/* and a freeze of a frozen one */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	expect_notice(&c, 0xc1, true);
	cr_assert_eq(done(&c, 0xc1), 0);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

Test(freeze_notify, request_on_frozen_owner_says_frozen)
{
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert_eq(request(&c, h, 0xc2), 0);
	expect_notice(&c, 0xc2, true);
	cr_assert_eq(done(&c, 0xc2), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xc2, false);
	cr_assert_eq(done(&c, 0xc2), 0);
}

Test(freeze_notify, nothing_more_until_done_changes_merged)
{
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xc3), 0);
	expect_notice(&c, 0xc3, false);
	/* read, not acked: freeze and thaw are held back */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert(bt_read_empty(&c), "a notice before the ack");
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert(bt_read_empty(&c), "a notice before the ack");
	cr_assert_eq(done(&c, 0xc3), 0);
	/* three changes, one notice with the newest state */
	expect_notice(&c, 0xc3, true);
	cr_assert(bt_read_empty(&c), "changes not merged");
	cr_assert_eq(done(&c, 0xc3), 0);
	cr_assert(bt_read_empty(&c));

	/* back to the state that was read: still one notice after the ack */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xc3, false);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(done(&c, 0xc3), 0);
	expect_notice(&c, 0xc3, false);
	cr_assert_eq(done(&c, 0xc3), 0);

	/* the same state again while read: no resend after the ack */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xc3, false);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	cr_assert_eq(done(&c, 0xc3), 0);
	cr_assert(bt_read_empty(&c), "an unchanged state was sent again after the ack");
}

Test(freeze_notify, unread_notice_takes_the_newest_state)
{
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xc4), 0);
	/* queued, not read: freeze, thaw, freeze rewrite it in place */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	expect_notice(&c, 0xc4, true);
	cr_assert(bt_read_empty(&c), "more than one notice");
	cr_assert_eq(done(&c, 0xc4), 0);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

Test(freeze_notify, second_request_refused)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;
	uint32_t h;
	int ret;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xc5), 0);
	/* a good command, then the second request: consumed stops between */
	bt_put_ref(&w, BC_INCREFS, h);
	put_hc(&w, BC_REQUEST_FREEZE_NOTIFICATION, h, 0xc5);
	put_hc(&w, BC_REQUEST_FREEZE_NOTIFICATION, h, 0xc6);
	ret = bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL);
	cr_assert_eq(ret, -EINVAL, "same cookie: %d", ret);
	cr_assert_eq(wc, 8, "write_consumed %llu", (unsigned long long)wc);
	cr_assert_eq(cmd_hc(&c, BC_REQUEST_FREEZE_NOTIFICATION, h, 0xc6, &wc), -EINVAL,
		     "another cookie");
	cr_assert_eq(wc, 0);
	/* no BR_ERROR: only the first request's notice */
	expect_notice(&c, 0xc5, false);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(done(&c, 0xc5), 0);
	w.len = 0;
	bt_put_ref(&w, BC_DECREFS, h);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
}

Test(freeze_notify, bad_handles_refused)
{
	struct bt_conn q;
	binder_size_t wc = 1;
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(cmd_hc(&c, BC_REQUEST_FREEZE_NOTIFICATION, h + 100, 1, &wc), -EINVAL);
	cr_assert_eq(wc, 0);
	cr_assert_eq(cmd_hc(&c, BC_CLEAR_FREEZE_NOTIFICATION, h + 100, 1, &wc), -EINVAL);
	cr_assert_eq(wc, 0);
	/* handle 0 before BC_INCREFS / BC_ACQUIRE: no ref yet */
	cr_assert_eq(bt_open(&q, BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_enter_looper(&q), 0);
	cr_assert_eq(cmd_hc(&q, BC_REQUEST_FREEZE_NOTIFICATION, 0, 2, &wc), -EINVAL);
	cr_assert_eq(wc, 0);
	/* with the ref: the manager's current state */
	{
		struct bt_buf w = { .len = 0 };

		bt_put_ref(&w, BC_INCREFS, 0);
		cr_assert_eq(bt_write(&q, w.data, w.len), 0);
	}
	cr_assert_eq(request(&q, 0, 2), 0);
	expect_notice(&q, 2, false);
	cr_assert_eq(done(&q, 2), 0);
	cr_assert(bt_read_empty(&q));
	cr_assert(bt_read_empty(&c), "no BR_ERROR for a refused command");
	bt_close(&q);
}

Test(freeze_notify, clear_and_done_errors)
{
	binder_size_t wc = 1;
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(cmd_hc(&c, BC_CLEAR_FREEZE_NOTIFICATION, h, 0xc7, &wc), -EINVAL,
		     "clear with no watch");
	cr_assert_eq(wc, 0);
	cr_assert_eq(done(&c, 0xc7), -EINVAL, "done with nothing delivered");
	cr_assert_eq(request(&c, h, 0xc7), 0);
	cr_assert_eq(done(&c, 0xc7), -EINVAL, "done before the notice was read");
	expect_notice(&c, 0xc7, false);
	cr_assert_eq(cmd_hc(&c, BC_CLEAR_FREEZE_NOTIFICATION, h, 0xc8, &wc), -EINVAL,
		     "clear with another cookie");
	cr_assert_eq(wc, 0);
	cr_assert_eq(done(&c, 0xc8), -EINVAL, "done with another cookie");
	cr_assert_eq(done(&c, 0xc7), 0);
	cr_assert_eq(done(&c, 0xc7), -EINVAL, "done twice");
	cr_assert_eq(clear(&c, h, 0xc7), 0);
	expect_clear_done(&c, 0xc7);
	cr_assert_eq(clear(&c, h, 0xc7), -EINVAL, "clear twice");
	cr_assert(bt_read_empty(&c), "no BR_ERROR for a refused command");
	/* a new watch after the clear, with any cookie */
	cr_assert_eq(request(&c, h, 0xc9), 0);
	expect_notice(&c, 0xc9, false);
	cr_assert_eq(done(&c, 0xc9), 0);
}

Test(freeze_notify, clear_in_place_of_an_unread_notice)
{
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xca), 0);
	cr_assert_eq(clear(&c, h, 0xca), 0);
	expect_clear_done(&c, 0xca);
	cr_assert(bt_read_empty(&c), "the unread notice was still delivered");
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert(bt_read_empty(&c), "a cleared watch was notified");
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	cr_assert(bt_read_empty(&c));
}

Test(freeze_notify, clear_during_pending_waits_for_done)
{
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xcb), 0);
	expect_notice(&c, 0xcb, false);
	cr_assert_eq(clear(&c, h, 0xcb), 0);
	cr_assert(bt_read_empty(&c), "clear answered before the ack");
	/* a change while cleared and pending: no notice, the ack still counts */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert(bt_read_empty(&c));
	/* the ref is free for a new watch even before the ack */
	cr_assert_eq(request(&c, h, 0xcc), 0);
	expect_notice(&c, 0xcc, true);
	cr_assert_eq(done(&c, 0xcb), 0);
	expect_clear_done(&c, 0xcb);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(done(&c, 0xcc), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xcc, false);
	cr_assert_eq(done(&c, 0xcc), 0);
	cr_assert_eq(clear(&c, h, 0xcc), 0);
	expect_clear_done(&c, 0xcc);
}

Test(freeze_notify, owner_death_ends_the_notices)
{
	struct bt_buf w = { .len = 0 };
	struct bt_br br;
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xcd), 0);
	expect_notice(&c, 0xcd, false);
	cr_assert_eq(done(&c, 0xcd), 0);
	/*
	 * Calls fail with BR_DEAD_REPLY as soon as the owner is marked dead,
	 * before its nodes are released; only the death notice says the node
	 * has lost its process (mainline sends a state while it has one).
	 */
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, h, 0xdead);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	bt_kill(&s1);
	cr_assert_eq(bt_expect(&c, BR_DEAD_BINDER, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cookie, 0xdead);
	w.len = 0;
	bt_put32(&w, BC_DEAD_BINDER_DONE);
	bt_put64(&w, 0xdead);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_ping(&c, h), BR_DEAD_REPLY);
	cr_assert(bt_read_empty(&c), "a notice for the owner's death");
	/* the watch outlives the owner: a second request is still refused */
	cr_assert_eq(request(&c, h, 0xce), -EINVAL);
	cr_assert_eq(clear(&c, h, 0xcd), 0);
	expect_clear_done(&c, 0xcd);
	/* on a dead node: a watch, but no state to send */
	cr_assert_eq(request(&c, h, 0xcf), 0);
	cr_assert(bt_read_empty(&c), "a state for a dead owner");
	cr_assert_eq(request(&c, h, 0xcf), -EINVAL);
	cr_assert_eq(done(&c, 0xcf), -EINVAL);
	cr_assert_eq(clear(&c, h, 0xcf), 0);
	expect_clear_done(&c, 0xcf);
	cr_assert(watches_drop_to(0), "watches left: %ld", live_watches());
}

Test(freeze_notify, ref_release_drops_the_watch)
{
	struct bt_buf w = { .len = 0 };
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xd0), 0);
	expect_notice(&c, 0xd0, false);
	cr_assert_eq(live_watches(), 1);
	/* read, not acked: the ref goes and its watch with it */
	bt_put_ref(&w, BC_RELEASE, h);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(watches_drop_to(0), "watches left: %ld", live_watches());
	cr_assert_eq(done(&c, 0xd0), -EINVAL, "an ack for a watch that is gone");
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	/* queued, not read: the same */
	h = get_handle(&c, 0);
	cr_assert_eq(request(&c, h, 0xd1), 0);
	w.len = 0;
	bt_put_ref(&w, BC_RELEASE, h);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c), "a notice for a ref that is gone");
	cr_assert(watches_drop_to(0), "watches left: %ld", live_watches());
}

/* A helper holding a watch with one notice read and one change merged. */
static int holder_main(void *arg, int rd, int wr)
{
	struct bt_conn q;
	uint32_t h;

	(void)arg;
	(void)rd;
	bt_require(bt_open(&q, BT_VM_SIZE_DEFAULT) == 0, "open");
	q.autoack = false;
	bt_require(bt_enter_looper(&q) == 0, "looper");
	h = get_handle(&q, 0);
	bt_require(request(&q, h, 0xd2) == 0, "request");
	bt_require(next_notice(&q).is_frozen == 0, "state");
	bt_send_u64(wr, 0);
	pause();
	return 0;
}

Test(freeze_notify, holder_death_frees_its_watches)
{
	struct bt_child holder;
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(bt_spawn_ready(&holder, holder_main, NULL, BT_TIMEOUT_MS), 0);
	cr_assert_eq(request(&c, h, 0xd3), 0);
	expect_notice(&c, 0xd3, false);
	cr_assert_eq(done(&c, 0xd3), 0);
	cr_assert_eq(live_watches(), 2);
	/* the holder's notice is read, not acked: this change is merged */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	expect_notice(&c, 0xd3, true);
	bt_kill(&holder);
	cr_assert(watches_drop_to(1), "watches: %ld", live_watches());
	cr_assert_eq(done(&c, 0xd3), 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	expect_notice(&c, 0xd3, false);
	cr_assert_eq(done(&c, 0xd3), 0);
}

Test(freeze_notify, every_holder_hears)
{
	struct bt_conn q[3];
	uint32_t hq[3], h;

	setup_watch(&h);
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(bt_open(&q[i], BT_VM_SIZE_DEFAULT), 0);
		q[i].autoack = false;
		cr_assert_eq(bt_enter_looper(&q[i]), 0);
		hq[i] = get_handle(&q[i], 0);
		cr_assert_eq(request(&q[i], hq[i], 0xe0 + i), 0);
		expect_notice(&q[i], 0xe0 + i, false);
		cr_assert_eq(done(&q[i], 0xe0 + i), 0);
	}
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	for (int i = 0; i < 3; i++) {
		expect_notice(&q[i], 0xe0 + i, true);
		cr_assert_eq(done(&q[i], 0xe0 + i), 0);
	}
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	for (int i = 0; i < 3; i++) {
		expect_notice(&q[i], 0xe0 + i, false);
		cr_assert_eq(done(&q[i], 0xe0 + i), 0);
		cr_assert(bt_read_empty(&q[i]));
		bt_close(&q[i]);
	}
	cr_assert(bt_read_empty(&c), "a proc without a watch was notified");
	cr_assert(watches_drop_to(0), "watches left: %ld", live_watches());
}

Test(freeze_notify, failed_freeze_sends_nothing)
{
	struct stuck_caller sc = { .slot = 0, .code = C_HANG, .size = 8 };
	struct bt_child stuck;
	uint64_t v;
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xd4), 0);
	expect_notice(&c, 0xd4, false);
	cr_assert_eq(done(&c, 0xd4), 0);
	/* s1 holds a call it never answers: freezing it fails (EAGAIN) */
	cr_assert_eq(bt_spawn_ready(&stuck, stuck_caller_main, &sc, BT_TIMEOUT_MS), 0);
	cr_assert_eq(bt_recv_u64(s1.from_child, &v, BT_TIMEOUT_MS), 0);
	cr_assert_eq(v, C_HANG);
	{
		struct binder_freeze_info i = { .pid = (uint32_t)s1.pid, .enable = 1, .timeout_ms = 0 };

		cr_assert_eq(bt_ioctl(c.fd, BINDER_FREEZE, &i), -EAGAIN);
	}
	cr_assert(bt_read_empty(&c), "a notice for a freeze that did not hold");
	bt_kill(&stuck);
	bt_kill(&s1); /* it never returns from the hung call */
}

/* ---- counted storms ----------------------------------------------------- */

Test(freeze_notify, lockstep_cycles_one_notice_each)
{
	enum { CYCLES = 2000 };
	unsigned notices = 0, wrong = 0;
	int64_t t0;
	uint32_t h;

	setup_watch(&h);
	cr_assert_eq(request(&c, h, 0xf1), 0);
	expect_notice(&c, 0xf1, false);
	cr_assert_eq(done(&c, 0xf1), 0);
	t0 = th_now_ms();
	for (int i = 0; i < CYCLES; i++) {
		for (int frozen = 1; frozen >= 0; frozen--) {
			struct binder_frozen_state_info info;

			cr_assert_eq(freeze_pid(c.fd, s1.pid, frozen), 0);
			info = next_notice(&c);
			notices++;
			wrong += info.is_frozen != (uint32_t)frozen || info.cookie != 0xf1;
			cr_assert_eq(done(&c, 0xf1), 0);
		}
	}
	cr_assert(bt_read_empty(&c), "a notice too many");
	cr_log_info("%s: %d freeze/thaw cycles, %u notices (%u wrong) in %lld ms",
		    th_driver_name(), CYCLES, notices, wrong, (long long)(th_now_ms() - t0));
	printf("freeze_notify lockstep (%s): %d cycles, %u notices, %u wrong\n", th_driver_name(),
	       CYCLES, notices, wrong);
	cr_assert_eq(notices, 2 * CYCLES);
	cr_assert_eq(wrong, 0);
}

struct toggler {
	pid_t pid;
	int fd, toggles, failures;
};

static void *toggle_main(void *arg)
{
	struct toggler *t = arg;

	for (int i = 0; i < t->toggles; i++)
		t->failures += freeze_pid(t->fd, t->pid, i % 2 == 0) != 0;
	return NULL;
}

Test(freeze_notify, storm_merges_and_ends_on_the_last_state)
{
	enum { TOGGLES = 5000, WATCHERS = 2 };
	struct toggler t = { .toggles = TOGGLES };
	struct bt_conn q[WATCHERS];
	unsigned notices[WATCHERS] = { 0 }, repeats[WATCHERS] = { 0 };
	uint32_t last[WATCHERS], hq, h;
	pthread_t th;
	int64_t quiet_since;
	bool running = true;

	setup_watch(&h);
	for (int i = 0; i < WATCHERS; i++) {
		cr_assert_eq(bt_open(&q[i], BT_VM_SIZE_DEFAULT), 0);
		q[i].autoack = false;
		cr_assert_eq(bt_enter_looper(&q[i]), 0);
		hq = get_handle(&q[i], 0);
		cr_assert_eq(request(&q[i], hq, 0x100 + i), 0);
		last[i] = next_notice(&q[i]).is_frozen;
		cr_assert_eq(done(&q[i], 0x100 + i), 0);
	}
	t.pid = s1.pid;
	t.fd = c.fd;
	cr_assert_eq(pthread_create(&th, NULL, toggle_main, &t), 0);
	/* read and ack as they come; after the toggler ends, wait for quiet */
	quiet_since = th_now_ms();
	for (;;) {
		bool got = false;

		if (running && pthread_tryjoin_np(th, NULL) == 0) {
			running = false;
			quiet_since = th_now_ms();
		}
		for (int i = 0; i < WATCHERS; i++) {
			struct bt_br br;
			struct binder_frozen_state_info info;

			if (bt_next(&q[i], &br, 1) != 0)
				continue;
			cr_assert_eq(br.cmd, BR_FROZEN_BINDER, "%s", bt_br_name(br.cmd));
			memcpy(&info, br.raw, sizeof(info));
			cr_assert_eq(info.cookie, 0x100 + i);
			repeats[i] += info.is_frozen == last[i];
			last[i] = info.is_frozen;
			notices[i]++;
			cr_assert_eq(done(&q[i], 0x100 + i), 0);
			got = true;
		}
		if (got)
			quiet_since = th_now_ms();
		if (!running && th_now_ms() - quiet_since > 300)
			break;
	}
	cr_assert_eq(t.failures, 0);
	for (int i = 0; i < WATCHERS; i++) {
		printf("freeze_notify storm (%s): %d toggles, watcher %d: %u notices (%u repeating "
		       "the state before), last %s\n",
		       th_driver_name(), TOGGLES, i, notices[i], repeats[i],
		       last[i] ? "frozen" : "thawed");
		cr_log_info("watcher %d: %u notices for %d toggles", i, notices[i], TOGGLES);
		/* the last toggle thaws: every watcher ends on it, and hears no more */
		cr_assert_eq(last[i], 0, "watcher %d ends on a stale state", i);
		cr_assert_geq(notices[i], 1);
		cr_assert_leq(notices[i], TOGGLES);
		cr_assert(bt_read_empty(&q[i]), "a notice after the last ack");
		bt_close(&q[i]);
	}
	cr_assert(watches_drop_to(0), "watches left: %ld", live_watches());
}

/* ---- the 6.1 freeze features that had no asserting test ------------------- */

/* GET_FROZEN_INFO of pid: -errno, or sync_recv | async_recv << 8. */
static long frozen_info(int fd, pid_t pid)
{
	struct binder_frozen_status_info i = { .pid = (uint32_t)pid };
	int ret = bt_ioctl(fd, BINDER_GET_FROZEN_INFO, &i);

	return ret ? ret : (long)(i.sync_recv | i.async_recv << 8);
}

static uint32_t send_seq(uint32_t h, uint32_t seq, uint32_t flags)
{
	struct binder_transaction_data t = bt_tr(h, C_SEQ, TF_ONE_WAY | flags, &seq, sizeof(seq),
						 NULL, 0);
	struct bt_result r;

	cr_assert_eq(bt_oneway(&c, &t, &r), 0);
	return r.final;
}

/* Oneways are handled one at a time per node, behind the sync report
 * calls: ask until seq_next is @want; *oneways gets the oneways received
 * (the report calls taken out). */
static struct srv_report report_when_seq(uint32_t h, uint32_t want, uint32_t *oneways)
{
	struct srv_report rep;
	uint32_t calls = 0;

	int64_t end = th_now_ms() + TH_HANG_MS;

	do {
		rep = srv_get_report(&c, h);
		calls++;
	} while (rep.seq_next != want && th_nap_until(end));
	*oneways = rep.received - calls;
	return rep;
}

TestSuite(freeze61, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

/* TF_UPDATE_TXN: a oneway to a frozen proc replaces the queued one it makes
 * outdated (same sender, target, code and flags); not when thawed. */
Test(freeze61, update_txn_replaces_a_queued_oneway)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1, .wait_go = true };
	struct srv_report rep;
	uint32_t h, n;

	c.autoack = false;
	h = start_server(&cfg);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	send_seq(h, 0, 0);
	send_seq(h, 1, TF_UPDATE_TXN);
	send_seq(h, 2, TF_UPDATE_TXN); /* replaces 1 */
	send_seq(h, 3, 0);	       /* other flags: queued */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	send_seq(h, 4, TF_UPDATE_TXN);
	send_seq(h, 5, TF_UPDATE_TXN); /* thawed: both kept */
	cr_assert_eq(bt_send_u64(s1.to_child, SRV_CMD_SERVE), 0);
	rep = report_when_seq(h, 6, &n);
	cr_log_info("received %u oneways, seq errors %u", n, rep.seq_errors);
	cr_assert_eq(n, 5, "0, 2, 3, 4 and 5: %u oneways", n);
	cr_assert_eq(rep.seq_errors, 1, "only the gap of the replaced 1: %u", rep.seq_errors);
	cr_assert_eq(rep.seq_next, 6);
	cr_assert_eq(rep.sender_pid_nonzero_oneway, 0, "sender_pid is 0 in oneway deliveries");
}

/* GET_FROZEN_INFO bit 1 of sync_recv: calls in flight; BINDER_FREEZE waits
 * timeout_ms for them, then fails with EAGAIN and leaves the proc thawed. */
Test(freeze61, frozen_info_says_calls_in_flight)
{
	struct stuck_caller sc = { .slot = 0, .code = C_HANG, .size = 8 };
	struct binder_freeze_info fi = { .enable = 1, .timeout_ms = 200 };
	struct bt_child stuck;
	int64_t t0, waited;
	uint64_t v;
	uint32_t h;

	h = start_server(NULL);
	cr_assert_eq(frozen_info(c.fd, s1.pid), 0);
	cr_assert_eq(bt_spawn_ready(&stuck, stuck_caller_main, &sc, BT_TIMEOUT_MS), 0);
	cr_assert_eq(bt_recv_u64(s1.from_child, &v, BT_TIMEOUT_MS), 0);
	cr_assert_eq(v, C_HANG);
	cr_assert_eq(frozen_info(c.fd, s1.pid), 2, "info 0x%lx", frozen_info(c.fd, s1.pid));
	cr_assert_eq(frozen_info(c.fd, stuck.pid), 2, "the caller waits too");
	fi.pid = (uint32_t)s1.pid;
	t0 = th_now_ms();
	cr_assert_eq(bt_ioctl(c.fd, BINDER_FREEZE, &fi), -EAGAIN);
	waited = th_now_ms() - t0;
	cr_log_info("BINDER_FREEZE waited %lld ms", (long long)waited);
	cr_assert_geq(waited, 150, "did not wait for the call: %lld ms", (long long)waited);
	/* undone, so the next attempt is no different */
	cr_assert_eq(bt_ioctl(c.fd, BINDER_FREEZE, &fi), -EAGAIN);
	cr_assert_eq(frozen_info(c.fd, s1.pid), 2);
	(void)h;
	bt_kill(&stuck);
	bt_kill(&s1);
}

/* BINDER_ENABLE_ONEWAY_SPAM_DETECTION: once the receiver's async space is
 * below a tenth of its mapping and this sender holds over 50 of its
 * buffers or a quarter of the mapping, the oneway completes with
 * BR_ONEWAY_SPAM_SUSPECT, once, until the space recovers; without the
 * opt-in the same oneway completes as usual. */
Test(freeze61, oneway_spam_suspect_once)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1, .wait_go = true };
	static uint8_t payload[1000];
	struct srv_report rep;
	uint32_t on = 1, h, n, first = 0, suspects = 0;
	struct bt_conn quiet;

	c.autoack = false;
	h = start_server(&cfg);
	cr_assert_eq(bt_ioctl(c.fd, BINDER_ENABLE_ONEWAY_SPAM_DETECTION, &on), 0);
	for (n = 0; n < 54; n++) {
		struct binder_transaction_data t;
		struct bt_result r;

		memcpy(payload, &n, sizeof(n));
		t = bt_tr(h, C_SEQ, TF_ONE_WAY, payload, sizeof(payload), NULL, 0);
		cr_assert_eq(bt_oneway(&c, &t, &r), 0);
		cr_assert(r.final == BR_TRANSACTION_COMPLETE || r.final == BR_ONEWAY_SPAM_SUSPECT,
			  "oneway %u: %s", n, bt_br_name(r.final));
		if (r.final == BR_ONEWAY_SPAM_SUSPECT && !suspects++)
			first = n + 1;
	}
	printf("oneway spam (%s): first BR_ONEWAY_SPAM_SUSPECT at oneway %u of 1000 bytes "
	       "(128 KiB mapping), %u in %u\n",
	       th_driver_name(), first, suspects, n);
	cr_assert_eq(suspects, 1, "suspects: %u", suspects);
	/* mainline 6.1 (and binderc): 1000 bytes per oneway from 64 KiB of
	 * async space leaves less than 13107 (a tenth of the mapping) at the
	 * 53rd */
	cr_assert_eq(first, 53, "first suspect at %u", first);
	/* a sender that did not opt in is not told (and 54 KiB of 64 leave
	 * room for its small oneway) */
	cr_assert_eq(bt_open(&quiet, BT_VM_SIZE_DEFAULT), 0);
	{
		uint32_t seq = n;
		struct binder_transaction_data t = bt_tr(get_handle(&quiet, 0), C_SEQ, TF_ONE_WAY,
							 &seq, sizeof(seq), NULL, 0);
		struct bt_result r;

		cr_assert_eq(bt_oneway(&quiet, &t, &r), 0);
		cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE, "%s", bt_br_name(r.final));
	}
	bt_close(&quiet);
	cr_assert_eq(bt_send_u64(s1.to_child, SRV_CMD_SERVE), 0);
	rep = report_when_seq(h, n + 1, &first);
	cr_assert_eq(first, n + 1, "received %u oneways", first);
	cr_assert_eq(rep.seq_errors, 0);
}
