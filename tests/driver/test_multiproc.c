/* SPDX-License-Identifier: MIT */
/*
 * Multi-process behaviour: refcount handshakes, handle numbering, nested
 * and recursive calls, oneway ordering and async space, death notices,
 * fds / fd arrays / scatter-gather buffers, the thread pool, big payloads.
 *
 * Each test forks its own test context manager (the srv.h fixture) and
 * node servers (start_server, srv_start); they die with the test.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

TestSuite(refs, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(refs, strong_binder_handshake)
{
	struct bt_result r;
	struct bt_br br;
	struct binder_node_debug_info ni;
	struct bt_buf w = { .len = 0 };

	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 0, BINDER_TYPE_BINDER, 0x1000, 0x2000);
	/* the node work rides back with the reply: INCREFS, ACQUIRE first */
	cr_assert_eq(r.nseen, 4, "saw %u BRs", r.nseen);
	cr_assert_eq(r.seen[0], BR_INCREFS, "%s", bt_br_name(r.seen[0]));
	cr_assert_eq(r.seen[1], BR_ACQUIRE, "%s", bt_br_name(r.seen[1]));
	cr_assert_eq(r.seen[2], BR_TRANSACTION_COMPLETE);
	cr_assert_eq(r.seen[3], BR_REPLY);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(r.refs[i].pc.ptr, 0x1000);
		cr_assert_eq(r.refs[i].pc.cookie, 0x2000);
	}
	ni = node_info(&c, 0);
	cr_assert_eq(ni.ptr, 0x1000);
	cr_assert_eq(ni.cookie, 0x2000);
	cr_assert_eq(ni.has_strong_ref, 1);
	cr_assert_eq(ni.has_weak_ref, 1);
	cr_assert_eq(node_info(&c, 0x1000).ptr, 0, "only one node");
	bt_put_ptr_cookie(&w, BC_INCREFS_DONE, 0x1000, 0x2000);
	bt_put_ptr_cookie(&w, BC_ACQUIRE_DONE, 0x1000, 0x2000);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c));
	/* the manager drops its handle: the owner is told to release */
	cr_assert_eq(bt_sm_del(&c, 0), BR_REPLY);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_RELEASE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.pc.ptr, 0x1000);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DECREFS, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.pc.cookie, 0x2000);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(node_info(&c, 0).ptr, 0, "node freed after BR_DECREFS");
}

Test(refs, weak_binder_handshake)
{
	struct bt_result r;
	struct bt_br br;
	struct binder_node_debug_info ni;
	struct bt_buf w = { .len = 0 };

	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 1, BINDER_TYPE_WEAK_BINDER, 0x3000, 0x4000);
	cr_assert_eq(r.nseen, 3, "saw %u BRs", r.nseen);
	cr_assert_eq(r.seen[0], BR_INCREFS, "%s", bt_br_name(r.seen[0]));
	cr_assert_eq(r.seen[1], BR_TRANSACTION_COMPLETE);
	cr_assert_eq(r.seen[2], BR_REPLY);
	ni = node_info(&c, 0);
	cr_assert_eq(ni.ptr, 0x3000);
	cr_assert_eq(ni.has_strong_ref, 0);
	cr_assert_eq(ni.has_weak_ref, 1);
	bt_put_ptr_cookie(&w, BC_INCREFS_DONE, 0x3000, 0x4000);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(bt_sm_del(&c, 1), BR_REPLY);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DECREFS, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.pc.ptr, 0x3000);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(node_info(&c, 0).ptr, 0);
}

Test(refs, no_release_before_acquire_done)
{
	struct bt_result r;
	struct bt_buf w = { .len = 0 };
	struct bt_br br;

	/* an unacked BR_ACQUIRE keeps a local strong ref on the node */
	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 0, BINDER_TYPE_BINDER, 0x5000, 0x6000);
	cr_assert_eq(bt_sm_del(&c, 0), BR_REPLY);
	cr_assert(bt_read_empty(&c), "BR_RELEASE before BC_ACQUIRE_DONE");
	bt_put_ptr_cookie(&w, BC_INCREFS_DONE, 0x5000, 0x6000);
	bt_put_ptr_cookie(&w, BC_ACQUIRE_DONE, 0x5000, 0x6000);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_RELEASE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DECREFS, "%s", bt_br_name(br.cmd));
}

Test(refs, handles_lowest_free_from_one)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 3 };
	struct bt_buf w = { .len = 0 };
	uint32_t h[3];

	cr_assert_eq(srv_start(&s1, &cfg), 0);
	for (int i = 0; i < 3; i++)
		h[i] = get_handle(&c, i);
	cr_assert_eq(h[0], 1);
	cr_assert_eq(h[1], 2);
	cr_assert_eq(h[2], 3);
	/* the same node again: the same handle */
	cr_assert_eq(get_handle(&c, 1), 2);
	/* drop handle 2 entirely (two strong refs taken above) */
	bt_put_ref(&w, BC_RELEASE, 2);
	bt_put_ref(&w, BC_RELEASE, 2);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_ping(&c, 2), BR_FAILED_REPLY, "handle 2 must be gone");
	/* handle 0 names the manager even without a ref */
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
	cr_assert_eq(get_handle(&c, 1), 2, "lowest free handle is reused");
	cr_assert_eq(bt_ping(&c, 1), BR_REPLY);
	cr_assert_eq(bt_ping(&c, 2), BR_REPLY);
	cr_assert_eq(bt_ping(&c, 3), BR_REPLY);
}

static int holder_main(void *arg, int rd, int wr)
{
	struct bt_conn q;
	uint32_t h = 0;
	uint64_t cmd;
	struct bt_buf w = { .len = 0 };

	(void)arg;
	bt_require(bt_open(&q, BT_VM_SIZE_DEFAULT) == 0, "open");
	bt_require(bt_sm_get(&q, 0, &h) == 0 && h, "get");
	bt_send_u64(wr, h);
	bt_require(bt_recv_u64(rd, &cmd, TH_HANG_MS) == 0 && cmd == 1, "cmd ping");
	bt_send_u64(wr, bt_ping(&q, h));
	bt_require(bt_recv_u64(rd, &cmd, TH_HANG_MS) == 0 && cmd == 2, "cmd release");
	bt_put_ref(&w, BC_RELEASE, h);
	bt_require(bt_write(&q, w.data, w.len) == 0, "release");
	bt_send_u64(wr, 0);
	bt_recv_u64(rd, &cmd, TH_HANG_MS);
	return 0;
}

static void serve_ping(struct bt_conn *conn, const struct binder_transaction_data *tr, void *arg)
{
	(void)arg;
	bt_reply_empty(conn, tr);
}

Test(refs, node_lives_while_any_handle_holds_it)
{
	struct bt_result r;
	struct bt_child q;
	uint64_t v;
	struct bt_br br;

	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 0, BINDER_TYPE_BINDER, 0x7000, 0x8000);
	cr_assert_eq(bt_spawn(&q, holder_main, NULL), 0);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	cr_assert_neq(v, 0);
	/* the manager lets go; the holder still has it */
	cr_assert_eq(bt_sm_del(&c, 0), BR_REPLY);
	cr_assert(bt_read_empty(&c), "released while a handle still holds the node");
	cr_assert_eq(node_info(&c, 0).ptr, 0x7000);
	bt_send_u64(q.to_child, 1);
	cr_assert_eq(bt_serve(&c, serve_ping, NULL, 1, BT_TIMEOUT_MS), 1);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	cr_assert_eq(v, BR_REPLY, "holder's ping: %s", bt_br_name((uint32_t)v));
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_TRANSACTION_COMPLETE, "%s", bt_br_name(br.cmd));
	bt_send_u64(q.to_child, 2);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_RELEASE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.pc.ptr, 0x7000);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DECREFS, "%s", bt_br_name(br.cmd));
	bt_send_u64(q.to_child, 3);
	cr_assert_eq(bt_join(&q, TH_HANG_MS), 0);
	cr_assert_eq(node_info(&c, 0).ptr, 0);
}

Test(refs, released_when_holder_dies)
{
	struct bt_result r;
	struct bt_child q;
	uint64_t v;
	struct bt_br br;

	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 0, BINDER_TYPE_BINDER, 0x9000, 0xa000);
	cr_assert_eq(bt_spawn(&q, holder_main, NULL), 0);
	cr_assert_eq(bt_recv_u64(q.from_child, &v, TH_HANG_MS), 0);
	cr_assert_eq(bt_sm_del(&c, 0), BR_REPLY);
	bt_kill(&q);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_RELEASE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DECREFS, "%s", bt_br_name(br.cmd));
	cr_assert_eq(node_info(&c, 0).ptr, 0);
}

/* ---- calls ---------------------------------------------------------------- */

TestSuite(calls, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

struct rec_state {
	uint32_t peer;
	int nested_seen;
	pthread_t caller;
	bool on_caller_thread;
};

static void rec_handler(struct bt_conn *conn, const struct binder_transaction_data *tr, void *arg)
{
	struct rec_state *st = arg;
	uint32_t depth = 0, hops = 1;

	st->nested_seen++;
	st->on_caller_thread = pthread_equal(pthread_self(), st->caller);
	bt_require(tr->code == C_RECURSE, "code %x", tr->code);
	memcpy(&depth, (void *)(uintptr_t)tr->data.ptr.buffer, 4);
	bt_require(bt_free(conn, tr->data.ptr.buffer) == 0, "free");
	if (depth > 0) {
		uint32_t d = depth - 1;
		struct binder_transaction_data t = bt_tr(st->peer, C_RECURSE, 0, &d, 4, NULL, 0);
		struct bt_result r;

		bt_require(bt_call(conn, &t, &r) == 0 && r.final == BR_REPLY, "inner call");
		memcpy(&hops, (void *)(uintptr_t)r.reply.data.ptr.buffer, 4);
		bt_free(conn, r.reply.data.ptr.buffer);
		hops++;
	}
	bt_require(bt_send_reply(conn, &hops, 4) == 0, "reply");
}

static void recursion(uint32_t depth)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct rec_state st = { .peer = 0, .nested_seen = 0, .caller = pthread_self() };
	struct bt_result r;
	struct binder_transaction_data t;
	uint32_t hops = 0;

	/* a single-threaded caller: a nested call can only reach us if the
	 * driver routes it to the thread waiting for the reply */
	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 4, BINDER_TYPE_BINDER, 0xb000, 0xc000);
	st.peer = start_server(&cfg);
	c.nested = rec_handler;
	c.nested_arg = &st;
	t = bt_tr(st.peer, C_RECURSE, 0, &depth, 4, NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	memcpy(&hops, (void *)(uintptr_t)r.reply.data.ptr.buffer, 4);
	cr_assert_eq(bt_free(&c, r.reply.data.ptr.buffer), 0);
	cr_assert_eq(hops, depth + 1);
	cr_assert_eq(st.nested_seen, (int)(depth / 2));
	if (depth >= 2)
		cr_assert(st.on_caller_thread);
	cr_assert_eq(bt_ping(&c, st.peer), BR_REPLY);
}

Test(calls, nested_reuses_waiting_thread) { recursion(2); }
Test(calls, recursive_depth_8) { recursion(8); }

Test(calls, sender_pid_and_euid)
{
	struct binder_transaction_data t = bt_tr(0, BT_SM_WHO, 0, NULL, 0, NULL, 0);
	struct bt_result r;
	uint32_t who[2];

	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY);
	cr_assert_eq(r.reply.data_size, sizeof(who));
	memcpy(who, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(who));
	cr_assert_eq((pid_t)who[0], getpid());
	cr_assert_eq(who[1], geteuid());
	/* replies carry no sender */
	cr_assert_eq(r.reply.sender_pid, 0);
	cr_assert_eq(bt_free(&c, r.reply.data.ptr.buffer), 0);
}

Test(calls, dead_reply_when_server_killed)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct binder_transaction_data t;
	struct bt_result r;
	struct binder_extended_error ee;
	uint64_t v = 0;
	uint32_t h;

	h = start_server(&cfg);
	t = bt_tr(h, C_HANG, 0, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_recv_u64(s1.from_child, &v, TH_HANG_MS), 0);
	cr_assert_eq(v, C_HANG);
	bt_kill(&s1);
	memset(&r, 0, sizeof(r));
	cr_assert_eq(bt_wait_result(&c, &r, true, BT_TIMEOUT_MS), 0);
	cr_assert_eq(r.final, BR_DEAD_REPLY, "%s", bt_br_name(r.final));
	cr_assert(r.complete, "BR_TRANSACTION_COMPLETE is still delivered");
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(bt_ping(&c, h), BR_DEAD_REPLY);
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
}

Test(calls, reply_to_dead_caller)
{
	struct stuck_caller call = { .slot = 4, .code = BT_PING_TRANSACTION, .size = 0 };
	struct bt_result r;
	struct bt_child q;
	struct bt_br br;
	struct binder_transaction_data rt = bt_tr(0, 0, 0, NULL, 0, NULL, 0);
	struct bt_buf w = { .len = 0 };
	struct binder_extended_error ee;

	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 4, BINDER_TYPE_BINDER, 0xd000, 0xe000);
	cr_assert_eq(bt_spawn_ready(&q, stuck_caller_main, &call, TH_HANG_MS), 0);
	cr_assert_eq(bt_expect(&c, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.tr.sender_pid, q.pid);
	bt_kill(&q);
	/* gives the deferred release time to run; if it has not, the reply
	 * goes to a thread not yet released and the replier sees the same */
	usleep(100 * 1000);
	bt_put_free(&w, br.tr.data.ptr.buffer);
	bt_put_tr(&w, BC_REPLY, &rt);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	/* the replier just sees its reply completed */
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_TRANSACTION_COMPLETE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_OK);
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
}

Test(calls, second_open_is_another_process)
{
	struct bt_conn c2;
	struct bt_br br;
	uint32_t h;
	struct binder_transaction_data t;

	/* one process, two opens: two binder processes that can call each other */
	open_node_owner(&c2, 3, 0x4242, 0x4343);
	h = get_handle(&c, 3);
	t = bt_tr(h, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(&c2, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.tr.target.ptr, 0x4242);
	cr_assert_eq(br.tr.cookie, 0x4343);
	cr_assert_eq(br.tr.sender_pid, getpid());
	cr_assert_eq(bt_reply_empty(&c2, &br.tr), 0);
	finish_call(&c);
	bt_close(&c2);
}

/* ---- oneway --------------------------------------------------------------- */

TestSuite(oneway, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(oneway, thousand_arrive_in_order)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct srv_report rep;
	int64_t end;
	uint32_t h;

	h = start_server(&cfg);
	for (uint32_t i = 0; i < 1000; i++) {
		struct binder_transaction_data t = bt_tr(h, C_SEQ, TF_ONE_WAY, &i, 4, NULL, 0);
		struct bt_result r;

		cr_assert_eq(bt_call(&c, &t, &r), 0);
		cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE, "oneway %u: %s", i,
			     bt_br_name(r.final));
	}
	/* a sync call on the same node queues behind them? no: it goes to the
	 * proc todo; poll the report until all arrived */
	end = th_now_ms() + TH_HANG_MS;
	do
		rep = srv_get_report(&c, h);
	while (rep.seq_next != 1000 && th_nap_until(end));
	cr_assert_eq(rep.seq_next, 1000, "received up to %u", rep.seq_next);
	cr_assert_eq(rep.seq_errors, 0, "%u out of order", rep.seq_errors);
	cr_assert_eq(rep.sender_pid_nonzero_oneway, 0, "oneway sender_pid must be 0");
}

Test(oneway, async_space_exhaustion_recovers)
{
	/* 128 KiB mapping: 64 KiB of async space = sixteen 4 KiB oneways */
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1, .wait_go = true };
	static uint8_t payload[4096];
	struct binder_extended_error ee;
	struct srv_report rep;
	int64_t end;
	uint32_t h, sent = 0;
	struct bt_result r;

	h = start_server(&cfg);
	for (uint32_t i = 0; i < 40; i++) {
		struct binder_transaction_data t;

		memcpy(payload, &i, 4);
		t = bt_tr(h, C_SEQ, TF_ONE_WAY, payload, sizeof(payload), NULL, 0);
		cr_assert_eq(bt_call(&c, &t, &r), 0);
		if (r.final != BR_TRANSACTION_COMPLETE)
			break;
		sent++;
	}
	cr_assert_eq(sent, 16, "oneways accepted before the async space ran out");
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_FAILED_REPLY);
	cr_assert_eq(ee.param, -ENOSPC);
	/* a sync call still fits in the other half */
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
	bt_send_u64(s1.to_child, SRV_CMD_SERVE);
	end = th_now_ms() + TH_HANG_MS;
	do
		rep = srv_get_report(&c, h);
	while (rep.seq_next != 16 && th_nap_until(end));
	cr_assert_eq(rep.seq_next, 16);
	cr_assert_eq(rep.seq_errors, 0);
	/* recovered: the space is back */
	for (uint32_t i = 16; i < 32; i++) {
		struct binder_transaction_data t;

		memcpy(payload, &i, 4);
		t = bt_tr(h, C_SEQ, TF_ONE_WAY, payload, sizeof(payload), NULL, 0);
		cr_assert_eq(bt_call(&c, &t, &r), 0);
		cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE, "after recovery %u: %s", i,
			     bt_br_name(r.final));
	}
	end = th_now_ms() + TH_HANG_MS;
	do
		rep = srv_get_report(&c, h);
	while (rep.seq_next != 32 && th_nap_until(end));
	cr_assert_eq(rep.seq_next, 32);
	cr_assert_eq(rep.seq_errors, 0);
}

/* ---- death ---------------------------------------------------------------- */

TestSuite(death, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(death, notice_when_owner_sigkilled)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct bt_buf w = { .len = 0 };
	struct bt_br br;
	struct binder_extended_error ee;
	uint32_t h;

	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	h = start_server(&cfg);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, h, 0xdead);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c));
	bt_kill(&s1);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DEAD_BINDER, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, 0xdead);
	cr_assert(bt_read_empty(&c), "one notice only");
	w.len = 0;
	bt_put32(&w, BC_DEAD_BINDER_DONE);
	bt_put64(&w, 0xdead);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_ping(&c, h), BR_DEAD_REPLY);
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_DEAD_REPLY);
	cr_assert_eq(ee.param, -EINVAL);
	w.len = 0;
	bt_put_death(&w, BC_CLEAR_DEATH_NOTIFICATION, h, 0xdead);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_CLEAR_DEATH_NOTIFICATION_DONE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, 0xdead);
	cr_assert(bt_read_empty(&c));
}

Test(death, request_on_dead_node_fires_at_once)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct bt_buf w = { .len = 0 };
	struct bt_br br;
	int64_t end;
	uint32_t h;

	c.autoack = false;
	cr_assert_eq(bt_enter_looper(&c), 0);
	h = start_server(&cfg);
	bt_kill(&s1);
	end = th_now_ms() + TH_HANG_MS;
	while (bt_ping(&c, h) != BR_DEAD_REPLY && th_nap_until(end))
		;
	cr_assert_eq(bt_ping(&c, h), BR_DEAD_REPLY);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, h, 0xbeef);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DEAD_BINDER, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, 0xbeef);
	/* clear while delivered: done comes after BC_DEAD_BINDER_DONE */
	w.len = 0;
	bt_put_death(&w, BC_CLEAR_DEATH_NOTIFICATION, h, 0xbeef);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c));
	w.len = 0;
	bt_put32(&w, BC_DEAD_BINDER_DONE);
	bt_put64(&w, 0xbeef);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_CLEAR_DEATH_NOTIFICATION_DONE, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, 0xbeef);
}

Test(death, notice_reaches_idle_thread_without_looper)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct bt_buf w = { .len = 0 };
	struct bt_br br;
	uint32_t h;

	/* 6.1 hands process work to any idle thread, looper or not (it only
	 * logs a user error for the missing BC_ENTER_LOOPER) */
	c.autoack = false;
	h = start_server(&cfg);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, h, 0xd1e);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	bt_kill(&s1);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DEAD_BINDER, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, 0xd1e);
}

struct blocked_call {
	struct bt_conn t;
	uint32_t handle;
	struct bt_result r;
	int ret;
};

static void *blocked_caller(void *arg)
{
	struct blocked_call *b = arg;
	struct binder_transaction_data t = bt_tr(b->handle, C_HANG, 0, NULL, 0, NULL, 0);

	b->ret = bt_call(&b->t, &t, &b->r);
	return NULL;
}

Test(death, notice_goes_to_process_not_blocked_thread)
{
	struct srv_cfg cfg1 = { .first_slot = 0, .nslots = 1 };
	struct srv_cfg cfg2 = { .first_slot = 1, .nslots = 1 };
	struct bt_buf w = { .len = 0 };
	struct blocked_call b;
	struct bt_child s2;
	struct bt_br br;
	pthread_t th;
	uint64_t v = 0;
	uint32_t h1;

	c.autoack = false;
	cr_assert_eq(srv_start(&s1, &cfg1), 0);
	cr_assert_eq(srv_start(&s2, &cfg2), 0);
	h1 = get_handle(&c, 0);
	memset(&b, 0, sizeof(b));
	bt_thread_conn(&b.t, &c);
	b.handle = get_handle(&c, 1);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, h1, 0xd1e);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	/* a second thread blocks in a call that never gets a reply */
	cr_assert_eq(pthread_create(&th, NULL, blocked_caller, &b), 0);
	cr_assert_eq(bt_recv_u64(s2.from_child, &v, TH_HANG_MS), 0);
	cr_assert_eq(v, C_HANG);
	bt_kill(&s1);
	/* the idle main thread gets the notice, not the blocked caller */
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_DEAD_BINDER, "%s", bt_br_name(br.cmd));
	cr_assert_eq(br.cookie, 0xd1e);
	bt_kill(&s2);
	cr_assert_eq(pthread_join(th, NULL), 0);
	cr_assert_eq(b.ret, 0);
	cr_assert_eq(b.r.final, BR_DEAD_REPLY, "%s", bt_br_name(b.r.final));
	for (unsigned i = 0; i < b.r.nseen; i++)
		cr_assert_neq(b.r.seen[i], BR_DEAD_BINDER, "blocked thread got the death notice");
}

/* ---- objects -------------------------------------------------------------- */

TestSuite(objects, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

static int make_file(const char *tag, struct stat *st)
{
	int fd = memfd_create(tag, MFD_CLOEXEC);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, tag, strlen(tag)), (ssize_t)strlen(tag));
	cr_assert_eq(fstat(fd, st), 0);
	return fd;
}

Test(objects, fd_installed_cloexec_in_receiver)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct stat st;
	int fd = make_file("fd-object", &st);
	struct binder_fd_object fo = bt_fdo(fd);
	binder_size_t off = 0;
	struct binder_transaction_data t;
	struct bt_result r;
	struct srv_fdinfo fi;
	uint32_t h;

	h = start_server(&cfg);
	t = bt_tr(h, C_FDINFO, TF_ACCEPT_FDS, &fo, sizeof(fo), &off, sizeof(off));
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(r.reply.data_size, sizeof(fi));
	memcpy(&fi, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(fi));
	bt_free(&c, r.reply.data.ptr.buffer);
	cr_assert_geq(fi.fd, 0);
	cr_assert_eq(fi.cloexec, 1);
	cr_assert_eq(fi.ino, st.st_ino);
	cr_assert_eq(fi.dev, st.st_dev);
	/* the sender's fd is untouched */
	cr_assert_geq(fcntl(fd, F_GETFD), 0);
	close(fd);
}

Test(objects, fd_array_in_parent_buffer)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct stat st[2];
	int fds[2] = { make_file("fda-0", &st[0]), make_file("fda-1", &st[1]) };
	uint32_t arr[2] = { (uint32_t)fds[0], (uint32_t)fds[1] };
	/* a parent at data offset 0 can't be fixed up in (mainline treats
	 * offset 0 as "no parent yet"): sg_fda starts with a header word */
	struct sg_fda d;
	binder_size_t offs[2];
	struct binder_transaction_data t;
	struct bt_result r;
	struct srv_fdinfo fi[2];
	uint32_t h;

	h = start_server(&cfg);
	sg_fda_init(&d, offs, arr, sizeof(arr), 2);
	t = bt_tr(h, C_FDINFO, TF_ACCEPT_FDS, &d, sizeof(d), offs, sizeof(offs));
	cr_assert_eq(bt_call_sg(&c, &t, sizeof(arr), &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(r.reply.data_size, sizeof(fi));
	memcpy(fi, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(fi));
	bt_free(&c, r.reply.data.ptr.buffer);
	for (int i = 0; i < 2; i++) {
		cr_assert_geq(fi[i].fd, 0);
		cr_assert_eq(fi[i].cloexec, 1);
		cr_assert_eq(fi[i].ino, st[i].st_ino, "fd %d refers to the wrong file", i);
		cr_assert_eq(fi[i].closed_after_free, 1,
			     "the driver closes fd-array fds when the buffer is freed");
	}
	cr_assert_neq(fi[0].fd, fi[1].fd);
	close(fds[0]);
	close(fds[1]);
}

Test(objects, ptr_with_parent_fixup)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	static const char child[8] = "payload";
	struct {
		uint64_t x;
		uint64_t ptr;
	} parent = { 0x1122334455667788ull, (uint64_t)(uintptr_t)child };
	struct sg_pair d;
	binder_size_t offs[2];
	struct binder_transaction_data t;
	struct bt_result r;
	struct srv_sginfo si;
	uint32_t h;

	h = start_server(&cfg);
	sg_pair_init(&d, offs, &parent, sizeof(parent), child, sizeof(child), 8);
	t = bt_tr(h, C_SGINFO, 0, &d, sizeof(d), offs, sizeof(offs));
	cr_assert_eq(bt_call_sg(&c, &t, sizeof(parent) + sizeof(child), &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	memcpy(&si, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(si));
	bt_free(&c, r.reply.data.ptr.buffer);
	cr_assert_eq(si.nobj, 2);
	cr_assert_eq(si.buf0_in_map, 1, "PTR buffer not rewritten into the receiver's mapping");
	cr_assert_eq(si.ok, 1, "parent's pointer not fixed up to the child copy");
	cr_assert_str_eq(si.child, "payload");
}

/* ---- thread pool ---------------------------------------------------------- */

TestSuite(pool, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

static unsigned count_spawn(struct bt_result *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nseen; i++)
		n += r->seen[i] == BR_SPAWN_LOOPER;
	return n;
}

static unsigned ping_spawns(void)
{
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct bt_result r;

	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY);
	bt_free(&c, r.reply.data.ptr.buffer);
	/* a BR_SPAWN_LOOPER may also ride in front of the next read */
	{
		struct bt_br br;

		while (c.rpos < c.rlen && bt_next(&c, &br, 0) == 0)
			if (br.cmd == BR_SPAWN_LOOPER)
				r.seen[r.nseen++] = br.cmd;
	}
	return count_spawn(&r);
}

static void *register_looper(void *arg)
{
	struct bt_conn t;
	uint32_t cmd = BC_REGISTER_LOOPER;

	bt_thread_conn(&t, arg);
	bt_require(bt_write(&t, &cmd, 4) == 0, "register");
	return NULL;
}

static void run_thread(void *(*fn)(void *), void *arg)
{
	pthread_t th;

	cr_assert_eq(pthread_create(&th, NULL, fn, arg), 0);
	cr_assert_eq(pthread_join(th, NULL), 0);
}

Test(pool, spawn_looper_counting)
{
	uint32_t max = 2;

	cr_assert_eq(ping_spawns(), 0, "no spawn requests with max_threads 0");
	cr_assert_eq(bt_ioctl(c.fd, BINDER_SET_MAX_THREADS, &max), 0);
	cr_assert_eq(ping_spawns(), 0, "no spawn request for a thread that is not a looper");
	cr_assert_eq(bt_enter_looper(&c), 0);
	cr_assert_eq(ping_spawns(), 1, "one request");
	cr_assert_eq(ping_spawns(), 0, "one request outstanding at a time");
	run_thread(register_looper, &c);
	cr_assert_eq(ping_spawns(), 1, "second request after the first thread registered");
	run_thread(register_looper, &c);
	cr_assert_eq(ping_spawns(), 0, "max_threads reached");
	cr_assert_eq(ping_spawns(), 0);
}

/* ---- payload -------------------------------------------------------------- */

TestSuite(payload, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

static uint32_t send_bytes(size_t n, struct binder_extended_error *ee)
{
	uint8_t *p = malloc(n);
	struct binder_transaction_data t;
	struct bt_result r;

	cr_assert_not_null(p);
	memset(p, 0x5a, n);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, p, n, NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	if (r.final == BR_REPLY)
		bt_free(&c, r.reply.data.ptr.buffer);
	cr_assert_eq(bt_get_ee(&c, ee), 0);
	free(p);
	return r.final;
}

Test(payload, gargantuan_950k_ok)
{
	struct binder_extended_error ee;

	for (int i = 0; i < 3; i++)
		cr_assert_eq(send_bytes(950 * 1024, &ee), BR_REPLY, "round %d", i);
	cr_assert_eq(ee.command, BR_OK);
}

Test(payload, limit_exceeded_1050k_fails)
{
	struct binder_extended_error ee;

	cr_assert_eq(send_bytes((size_t)(1.05 * 1024 * 1024), &ee),
		     BR_FAILED_REPLY);
	cr_assert_eq(ee.command, BR_FAILED_REPLY);
	cr_assert_eq(ee.param, -ENOSPC);
	cr_assert_eq(send_bytes(950 * 1024, &ee), BR_REPLY, "usable afterwards");
}

/* ---- poll and buffer clearing ---------------------------------------------- */

TestSuite(misc, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(misc, poll_wakes_for_the_reply)
{
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct pollfd p = { .fd = c.fd, .events = POLLIN };
	int64_t deadline;
	struct bt_result r;

	memset(&r, 0, sizeof(r));
	cr_assert_eq(bt_send(&c, &t), 0);
	deadline = th_now_ms() + BT_TIMEOUT_MS;
	/* one poll at a time and no slices: a lost wakeup shows as a timeout.
	 * BR_TRANSACTION_COMPLETE may wake it first; read what is there and
	 * poll again until the reply came */
	while (r.final == 0) {
		int64_t left = deadline - th_now_ms();
		int ret;

		cr_assert_gt(left, 0, "no reply within %d ms", BT_TIMEOUT_MS);
		p.revents = 0;
		cr_assert_eq(poll(&p, 1, (int)left), 1, "no wakeup for the reply");
		cr_assert(p.revents & POLLIN, "revents 0x%x", p.revents);
		ret = bt_wait_result(&c, &r, true, 0);
		cr_assert(ret == 0 || ret == -ETIMEDOUT, "read: %d", ret);
	}
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	cr_assert(r.complete);
	cr_assert_eq(bt_free(&c, r.reply.data.ptr.buffer), 0);
	/* nothing pending: poll says so */
	p.revents = 0;
	cr_assert_eq(poll(&p, 1, 0), 0, "revents 0x%x", p.revents);
}

struct poker {
	struct bt_conn peer;
	pid_t waiter; /* the thread that polls */
	int64_t ping_at;
	uint32_t final;
	int ret;
};

/* Whether thread tid of this process sleeps, in poll where the kernel
 * names the place (wchan), else in any interruptible sleep. */
static bool sleeps_in_poll(pid_t tid)
{
	char p[64], buf[512], *st;
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(p, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	st = strrchr(buf, ')');
	if (!st || st[1] != ' ' || st[2] != 'S')
		return false;
	snprintf(p, sizeof(p), "/proc/self/task/%d/wchan", (int)tid);
	f = fopen(p, "r");
	if (!f)
		return true;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return n == 0 || !strcmp(buf, "0") || strstr(buf, "poll");
}

/*
 * Another process (a second open) calls our node in slot 5 once the
 * waiter sleeps in poll: a fixed delay would not say that it got there
 * first on a slow guest.  If it is never seen there (a hang-catcher), the
 * call goes anyway and the test checks what it still can.
 */
static void *poke_later(void *arg)
{
	struct poker *pk = arg;
	int64_t end = th_now_ms() + TH_HANG_MS;
	uint32_t h = 0;

	while (!sleeps_in_poll(pk->waiter) && th_nap_until(end))
		;
	pk->ret = bt_sm_get(&pk->peer, 5, &h);
	if (pk->ret == 0) {
		pk->ping_at = th_now_ms();
		pk->final = bt_ping(&pk->peer, h);
	}
	return NULL;
}

Test(misc, poll_wakes_an_idle_looper_for_process_work)
{
	struct pollfd p = { .fd = c.fd, .events = POLLIN };
	struct poker pk;
	struct bt_result r;
	int64_t woke_at;
	pthread_t th;

	memset(&pk, 0, sizeof(pk));
	cr_assert_eq(bt_enter_looper(&c), 0);
	publish(&c, &r, 5, BINDER_TYPE_BINDER, 0x1100, 0x1200);
	cr_assert(bt_read_empty(&c));
	cr_assert_eq(bt_open(&pk.peer, BT_VM_SIZE_DEFAULT), 0);
	pk.waiter = gettid();
	cr_assert_eq(pthread_create(&th, NULL, poke_later, &pk), 0);
	/* no thread waits in a read: only the poll can take the call */
	cr_assert_eq(poll(&p, 1, TH_HANG_MS), 1, "idle looper not woken by an incoming call");
	woke_at = th_now_ms();
	cr_assert(p.revents & POLLIN, "revents 0x%x", p.revents);
	cr_assert_eq(bt_serve(&c, serve_ping, NULL, 1, BT_TIMEOUT_MS), 1);
	cr_assert_eq(pthread_join(th, NULL), 0);
	cr_assert_eq(pk.ret, 0, "peer's lookup: %d", pk.ret);
	cr_assert_eq(pk.final, BR_REPLY, "peer's ping: %s", bt_br_name(pk.final));
	cr_assert_geq(woke_at, pk.ping_at, "poll woke before the call was sent");
	bt_close(&pk.peer);
}

Test(misc, clear_buf_zeroes_on_free)
{
	struct bt_conn rx;
	struct bt_br br;
	char secret[64];
	uint32_t h;
	struct binder_transaction_data t;

	memset(secret, 's', sizeof(secret));
	/* a second open of our own is the receiver, so we can look inside */
	open_node_owner(&rx, 6, 0x1300, 0x1400);
	h = get_handle(&c, 6);
	t = bt_tr(h, 0x55, TF_CLEAR_BUF, secret, sizeof(secret), NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	cr_assert(br.tr.flags & TF_CLEAR_BUF);
	cr_assert_eq(memcmp((void *)(uintptr_t)br.tr.data.ptr.buffer, secret, sizeof(secret)), 0);
	cr_assert_eq(bt_reply_empty(&rx, &br.tr), 0);
	/* the pages stay mapped after the free; TF_CLEAR_BUF zeroed them */
	for (size_t i = 0; i < sizeof(secret); i++)
		cr_assert_eq(((volatile uint8_t *)(uintptr_t)br.tr.data.ptr.buffer)[i], 0,
			     "byte %zu not cleared", i);
	finish_call(&c);
	bt_close(&rx);
}

/*
 * munmap of the receive area: nothing queued can be read into it any more
 * (it cannot be mapped again), so binderc answers the queue at once, as if
 * the proc had died; mainline leaves it queued until the file is released
 * (an unread reply is then still delivered, pointing into the unmapped
 * area).  A new call fails on both.  Why binderc does this: differences.h.
 */
Test(misc, munmap_answers_what_was_queued)
{
	struct binder_transaction_data ping = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct binder_transaction_data call;
	struct bt_result r, rx_r;
	struct bt_conn rx, c2;
	bool dead_at_munmap = bt_expected("queued work answered at munmap", 0);
	uint32_t h;

	/* a second open of ours owns the node; no looper: calls stay queued */
	cr_assert_eq(bt_open(&rx, BT_VM_SIZE_DEFAULT), 0);
	publish(&rx, NULL, 6, BINDER_TYPE_BINDER, 0x1500, 0x1600);
	h = get_handle(&c, 6);
	/* rx's own call: the manager's reply waits, unread, on rx's thread.
	 * The manager serves its queue in order on one thread, so once it
	 * answered a ping of ours, it has answered rx's (no delay to guess) */
	cr_assert_eq(bt_send(&rx, &ping), 0);
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
	/* and a call to rx waits on rx's queue (queued when the write returned) */
	call = bt_tr(h, 0x56, 0, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &call), 0);

	cr_assert_eq(munmap(rx.map, rx.map_size), 0);
	rx.map = MAP_FAILED;
	memset(&r, 0, sizeof(r));
	memset(&rx_r, 0, sizeof(rx_r));
	/* what must come gets a hang-catcher; mainline's "nothing for the
	 * queued call" is a negative check, only wrong towards a pass */
	bt_wait_result(&c, &r, true, dead_at_munmap ? TH_HANG_MS : 1000);
	bt_wait_result(&rx, &rx_r, true, TH_HANG_MS);
	cr_assert_eq(r.final, dead_at_munmap ? BR_DEAD_REPLY : 0, "queued call: %s",
		     bt_br_name(r.final));
	cr_assert_eq(rx_r.final, dead_at_munmap ? BR_DEAD_REPLY : BR_REPLY, "unread reply: %s",
		     bt_br_name(rx_r.final));
	if (rx_r.final == BR_REPLY)
		cr_assert_eq(bt_free(&rx, rx_r.reply.data.ptr.buffer), 0);

	/* a new call finds no receive area on both drivers */
	cr_assert_eq(bt_open(&c2, BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_ping(&c2, get_handle(&c2, 6)), BR_DEAD_REPLY);
	bt_close(&c2);

	/* once rx is gone mainline answers the queued call too */
	bt_close(&rx);
	if (!dead_at_munmap) {
		cr_assert_eq(bt_wait_result(&c, &r, true, BT_TIMEOUT_MS), 0);
		cr_assert_eq(r.final, BR_DEAD_REPLY, "queued call after close: %s",
			     bt_br_name(r.final));
	}
	assert_usable();
}
