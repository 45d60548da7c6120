/* SPDX-License-Identifier: MIT */
/*
 * Bad input.  Each test asserts the exact outcome (BR_FAILED_REPLY plus the
 * BINDER_GET_EXTENDED_ERROR param, or the ioctl's -errno and
 * write_consumed) and that the process, the context manager and a fresh
 * process remain usable afterwards.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

/* This process, the manager and another process still work; no error is
 * left pending and no work behind. */
static void assert_usable_clean(void)
{
	struct binder_extended_error ee;

	assert_usable();
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_OK);
	cr_assert_eq(ee.param, 0);
	cr_assert(bt_read_empty(&c), "stray work left behind");
}

/* Send one bad transaction; expect BR_FAILED_REPLY (no COMPLETE) and the
 * extended error param. */
static void expect_failed_sg(const struct binder_transaction_data *tr, bool sg,
			     binder_size_t buffers_size, uint32_t want_cmd, int32_t want_param)
{
	struct bt_buf w = { .len = 0 };
	struct binder_extended_error ee;
	binder_size_t wc = 0;
	struct bt_result r;

	if (sg)
		bt_put_tr_sg(&w, BC_TRANSACTION_SG, tr, buffers_size);
	else
		bt_put_tr(&w, BC_TRANSACTION, tr);
	cr_assert_eq(bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, w.len, "write_consumed %llu", (unsigned long long)wc);
	memset(&r, 0, sizeof(r));
	cr_assert_eq(bt_wait_result(&c, &r, true, BT_TIMEOUT_MS), 0);
	cr_assert_eq(r.final, want_cmd, "got %s", bt_br_name(r.final));
	cr_assert_eq(r.complete, false, "BR_TRANSACTION_COMPLETE for a failed transaction");
	cr_assert_eq(r.nseen, 1, "extra BRs around the failure (%u)", r.nseen);
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_neq(ee.id, 0);
	cr_assert_eq(ee.command, want_cmd, "ee.command %s", bt_br_name(ee.command));
	cr_assert_eq(ee.param, bt_expected("ee.param", want_param), "ee.param %d, want %d",
		     ee.param, want_param);
	/* read and cleared */
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_OK);
	cr_assert_eq(node_info(&c, 0).ptr, 0, "a node leaked from the failed transaction");
	assert_usable_clean();
}

static void expect_failed(const struct binder_transaction_data *tr, int32_t want_param)
{
	expect_failed_sg(tr, false, 0, BR_FAILED_REPLY, want_param);
}

TestSuite(offsets, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(offsets, size_not_multiple_of_8)
{
	struct flat_binder_object o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x100, 0);
	binder_size_t off = 0;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, &o, sizeof(o), &off, 4);

	expect_failed(&t, -EINVAL);
}

Test(offsets, beyond_data)
{
	uint8_t data[24] = { 0 };
	binder_size_t off = 100;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, data, sizeof(data), &off, 8);

	/* 6.1 copies the bytes up to the object first: out of range is EFAULT */
	expect_failed(&t, -EFAULT);
}

Test(offsets, object_overruns_data_end)
{
	struct {
		uint8_t pad[16];
		struct flat_binder_object o;
	} d;
	binder_size_t off = 16;
	struct binder_transaction_data t;

	memset(&d, 0, sizeof(d));
	d.o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x100, 0);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, 32, &off, 8);
	expect_failed(&t, -EINVAL);
}

Test(offsets, at_data_end)
{
	uint8_t data[24] = { 0 };
	binder_size_t off = 24;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, data, sizeof(data), &off, 8);

	expect_failed(&t, -EINVAL);
}

Test(offsets, unaligned)
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
	expect_failed(&t, -EINVAL);
}

Test(offsets, four_byte_aligned_is_accepted)
{
	struct {
		uint32_t pad;
		struct flat_binder_object o;
	} __attribute__((packed)) d;
	binder_size_t off = 4;
	struct binder_transaction_data t;
	struct bt_result r;

	memset(&d, 0, sizeof(d));
	d.o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x100, 0x200);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), &off, 8);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	/* the manager freed the request before replying: by the time the
	 * node work is read nothing holds the node, so no BR_INCREFS/ACQUIRE */
	cr_assert_eq(r.nrefs, 0, "node work for a node nobody holds any more");
	bt_free(&c, r.reply.data.ptr.buffer);
	cr_assert_eq(node_info(&c, 0).ptr, 0);
}

Test(offsets, decreasing)
{
	struct flat_binder_object o[2] = { bt_fbo_binder(BINDER_TYPE_BINDER, 0x100, 0),
					   bt_fbo_binder(BINDER_TYPE_BINDER, 0x200, 0) };
	binder_size_t offs[2] = { 24, 0 };
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, o, sizeof(o), offs, 16);

	expect_failed(&t, -EFAULT);
}

Test(offsets, overlapping)
{
	struct flat_binder_object o[2] = { bt_fbo_binder(BINDER_TYPE_BINDER, 0x100, 0),
					   bt_fbo_binder(BINDER_TYPE_BINDER, 0x200, 0) };
	binder_size_t offs[2] = { 0, 8 };
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, o, sizeof(o), offs, 16);

	expect_failed(&t, -EFAULT);
}

Test(offsets, unknown_object_type)
{
	struct flat_binder_object o = bt_fbo_binder(0x12345678, 0x100, 0);
	binder_size_t off = 0;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, &o, sizeof(o), &off, 8);

	expect_failed(&t, -EINVAL);
}

Test(offsets, offsets_pointer_unmapped)
{
	uint8_t data[24] = { 0 };
	struct binder_transaction_data t =
		bt_tr(0, BT_PING_TRANSACTION, 0, data, sizeof(data), (void *)8, 8);

	expect_failed(&t, -EFAULT);
}

Test(offsets, data_pointer_unmapped)
{
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, (void *)8, 64, NULL, 0);

	expect_failed(&t, -EFAULT);
}

/* ---- sizes ----------------------------------------------------------------- */

TestSuite(sizes, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(sizes, data_size_overflows)
{
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);

	/* binder_size_t, not size_t: a 32-bit size_t's -4 is a plain 4 GiB,
	 * too big (-ENOSPC) rather than an overflow. */
	t.data_size = (binder_size_t)-4;
	expect_failed(&t, -EINVAL);
}

Test(sizes, offsets_size_overflows)
{
	uint8_t data[8] = { 0 };
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, data, sizeof(data), NULL, 0);

	t.offsets_size = (binder_size_t)-4; /* as above */
	expect_failed(&t, -EINVAL);
}

Test(sizes, buffers_size_overflows)
{
	uint8_t data[8] = { 0 };
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, data, sizeof(data), NULL, 0);

	expect_failed_sg(&t, true, (binder_size_t)-8, BR_FAILED_REPLY, -EINVAL);
}

Test(sizes, buffers_size_unaligned)
{
	uint8_t data[8] = { 0 };
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, data, sizeof(data), NULL, 0);

	expect_failed_sg(&t, true, 12, BR_FAILED_REPLY, -EINVAL);
}

Test(sizes, bigger_than_the_mapping)
{
	struct binder_transaction_data t =
		bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 16u << 20, NULL, 0);

	expect_failed(&t, -ENOSPC);
}

/* ---- objects --------------------------------------------------------------- */

TestSuite(badobj, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(badobj, ptr_in_plain_transaction)
{
	static uint64_t blob = 42;
	struct {
		uint64_t header;
		struct binder_buffer_object p;
	} d;
	binder_size_t off = 8;
	struct binder_transaction_data t;

	memset(&d, 0, sizeof(d));
	d.p.hdr.type = BINDER_TYPE_PTR;
	d.p.buffer = (binder_uintptr_t)(uintptr_t)&blob;
	d.p.length = sizeof(blob);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), &off, 8);
	expect_failed(&t, -EINVAL);
}

Test(badobj, ptr_longer_than_buffers_size)
{
	static uint64_t blob[4];
	struct {
		uint64_t header;
		struct binder_buffer_object p;
	} d;
	binder_size_t off = 8;
	struct binder_transaction_data t;

	memset(&d, 0, sizeof(d));
	d.p.hdr.type = BINDER_TYPE_PTR;
	d.p.buffer = (binder_uintptr_t)(uintptr_t)blob;
	d.p.length = sizeof(blob);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), &off, 8);
	expect_failed_sg(&t, true, 16, BR_FAILED_REPLY, -EINVAL);
}

Test(badobj, parent_at_offset_zero_rejected)
{
	static uint64_t parent[2], child;
	struct {
		struct binder_buffer_object a, b;
	} d;
	binder_size_t offs[2] = { 0, sizeof(d.a) };
	struct binder_transaction_data t;

	/* mainline: a fixup target at data offset 0 reads as "no parent" */
	memset(&d, 0, sizeof(d));
	d.a.hdr.type = BINDER_TYPE_PTR;
	d.a.buffer = (binder_uintptr_t)(uintptr_t)parent;
	d.a.length = sizeof(parent);
	d.b.hdr.type = BINDER_TYPE_PTR;
	d.b.flags = BINDER_BUFFER_FLAG_HAS_PARENT;
	d.b.buffer = (binder_uintptr_t)(uintptr_t)&child;
	d.b.length = sizeof(child);
	d.b.parent = 0;
	d.b.parent_offset = 8;
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), offs, sizeof(offs));
	expect_failed_sg(&t, true, 24, BR_FAILED_REPLY, -EINVAL);
}

Test(badobj, parent_offset_past_parent)
{
	static uint64_t parent[2], child;
	struct sg_pair d;
	binder_size_t offs[2];
	struct binder_transaction_data t;

	/* 12 + 8 > 16 */
	sg_pair_init(&d, offs, parent, sizeof(parent), &child, sizeof(child), 12);
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), offs, sizeof(offs));
	expect_failed_sg(&t, true, 24, BR_FAILED_REPLY, -EINVAL);
}

Test(badobj, fixups_out_of_order)
{
	static uint64_t parent[4], c1, c2;
	struct {
		uint64_t header;
		struct binder_buffer_object a, b, c;
	} d;
	binder_size_t offs[3] = { 8, 8 + sizeof(d.a), 8 + 2 * sizeof(d.a) };
	struct binder_transaction_data t;

	memset(&d, 0, sizeof(d));
	d.a.hdr.type = BINDER_TYPE_PTR;
	d.a.buffer = (binder_uintptr_t)(uintptr_t)parent;
	d.a.length = sizeof(parent);
	d.b = d.a;
	d.b.flags = BINDER_BUFFER_FLAG_HAS_PARENT;
	d.b.buffer = (binder_uintptr_t)(uintptr_t)&c1;
	d.b.length = 8;
	d.b.parent = 0;
	d.b.parent_offset = 16;
	d.c = d.b;
	d.c.buffer = (binder_uintptr_t)(uintptr_t)&c2;
	d.c.parent_offset = 0; /* decreasing within the same parent */
	t = bt_tr(0, BT_PING_TRANSACTION, 0, &d, sizeof(d), offs, sizeof(offs));
	expect_failed_sg(&t, true, 48, BR_FAILED_REPLY, -EINVAL);
}

Test(badobj, fda_overflows_parent)
{
	static uint32_t fds[2];
	struct sg_fda d;
	binder_size_t offs[2];
	struct binder_transaction_data t;
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	uint32_t h;

	h = start_server(&cfg);
	sg_fda_init(&d, offs, fds, sizeof(fds), 3);
	t = bt_tr(h, C_FDINFO, TF_ACCEPT_FDS, &d, sizeof(d), offs, sizeof(offs));
	expect_failed_sg(&t, true, 8, BR_FAILED_REPLY, -EINVAL);
}

Test(badobj, bogus_handle_object)
{
	struct flat_binder_object o = bt_fbo_handle(BINDER_TYPE_HANDLE, 999);
	binder_size_t off = 0;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, &o, sizeof(o), &off, 8);

	expect_failed(&t, -EINVAL);
}

Test(badobj, weak_handle_object_used_as_strong)
{
	struct bt_buf w = { .len = 0 };
	struct flat_binder_object o = bt_fbo_handle(BINDER_TYPE_HANDLE, 0);
	binder_size_t off = 0;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, &o, sizeof(o), &off, 8);
	struct bt_result r;

	bt_put_ref(&w, BC_INCREFS, 0); /* a weak ref to the manager, handle 0 */
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	expect_failed(&t, -EINVAL);
	/* as a weak handle it is fine */
	o.hdr.type = BINDER_TYPE_WEAK_HANDLE;
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	bt_free(&c, r.reply.data.ptr.buffer);
}

Test(badobj, fd_to_node_refusing_fds)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1, .node_no_fds = true };
	struct binder_fd_object fo = bt_fdo(0);
	binder_size_t off = 0;
	struct binder_transaction_data t;
	uint32_t h;

	h = start_server(&cfg);
	t = bt_tr(h, C_FDINFO, TF_ACCEPT_FDS, &fo, sizeof(fo), &off, 8);
	expect_failed(&t, -EPERM);
}

Test(badobj, bad_fd)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct binder_fd_object fo = bt_fdo(9999);
	binder_size_t off = 0;
	struct binder_transaction_data t;
	uint32_t h;

	h = start_server(&cfg);
	t = bt_tr(h, C_FDINFO, TF_ACCEPT_FDS, &fo, sizeof(fo), &off, 8);
	expect_failed(&t, -EBADF);
}

Test(badobj, binder_cookie_mismatch)
{
	struct bt_result r;
	struct flat_binder_object o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x700, 0x999);
	binder_size_t off0 = 0;
	struct binder_transaction_data bad =
		bt_tr(0, BT_PING_TRANSACTION, 0, &o, sizeof(o), &off0, 8);
	struct binder_extended_error ee;

	publish(&c, NULL, 0, BINDER_TYPE_BINDER, 0x700, 0x701);
	cr_assert_eq(bt_call(&c, &bad, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.param, -EINVAL);
	cr_assert_eq(node_info(&c, 0).ptr, 0x700, "the published node is unaffected");
	cr_assert_eq(bt_ping(&c, 0), BR_REPLY);
}

/* ---- handles --------------------------------------------------------------- */

TestSuite(handles, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(handles, bogus_target)
{
	struct binder_transaction_data t = bt_tr(999, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);

	expect_failed(&t, -EINVAL);
}

Test(handles, stale_target)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct bt_buf w = { .len = 0 };
	struct binder_transaction_data t;
	uint32_t h;

	h = start_server(&cfg);
	cr_assert_eq(bt_ping(&c, h), BR_REPLY);
	bt_put_ref(&w, BC_RELEASE, h);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	t = bt_tr(h, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	expect_failed(&t, -EINVAL);
}

Test(handles, weak_target_used_as_strong)
{
	struct srv_cfg cfg = { .first_slot = 0, .nslots = 1 };
	struct bt_buf w = { .len = 0 };
	struct binder_transaction_data t;
	uint32_t h;

	h = start_server(&cfg);
	bt_put_ref(&w, BC_INCREFS, h);
	bt_put_ref(&w, BC_RELEASE, h);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	t = bt_tr(h, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	expect_failed(&t, -EINVAL);
	/* BC_ACQUIRE can't promote a weak-only ref (handle 0 aside): still weak */
	w.len = 0;
	bt_put_ref(&w, BC_ACQUIRE, h);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_ping(&c, h), BR_FAILED_REPLY);
	/* a fresh strong ref from the manager makes it usable again */
	cr_assert_eq(get_handle(&c, 0), h);
	cr_assert_eq(bt_ping(&c, h), BR_REPLY);
}

Test(handles, refcount_below_zero_is_ignored)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;

	bt_put_ref(&w, BC_RELEASE, 0);
	bt_put_ref(&w, BC_DECREFS, 0);
	bt_put_ref(&w, BC_RELEASE, 77);
	bt_put_ref(&w, BC_DECREFS, 77);
	cr_assert_eq(bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, w.len);
	assert_usable_clean();
}

Test(handles, done_without_pending_ack_is_ignored)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;

	bt_put_ptr_cookie(&w, BC_INCREFS_DONE, 0x1234, 0);
	bt_put_ptr_cookie(&w, BC_ACQUIRE_DONE, 0x1234, 0);
	cr_assert_eq(bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, w.len);
	assert_usable_clean();
}

Test(handles, death_request_twice_and_wrong_cookie)
{
	struct bt_buf w = { .len = 0 };
	struct bt_br br;

	cr_assert_eq(bt_enter_looper(&c), 0);
	bt_put_ref(&w, BC_INCREFS, 0);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, 0, 1);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, 0, 2); /* already set: ignored */
	bt_put_death(&w, BC_CLEAR_DEATH_NOTIFICATION, 0, 2);   /* wrong cookie: ignored */
	bt_put32(&w, BC_DEAD_BINDER_DONE);                     /* nothing delivered: ignored */
	bt_put64(&w, 1);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c));
	w.len = 0;
	bt_put_death(&w, BC_CLEAR_DEATH_NOTIFICATION, 0, 1);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_CLEAR_DEATH_NOTIFICATION_DONE);
	cr_assert_eq(br.cookie, 1);
	cr_assert(bt_read_empty(&c));
	assert_usable_clean();
}

/* ---- buffers ---------------------------------------------------------------- */

TestSuite(freebuf, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

static struct binder_transaction_data echo(struct bt_conn *conn, const char *s)
{
	struct binder_transaction_data t = bt_tr(0, BT_SM_ECHO, 0, s, strlen(s) + 1, NULL, 0);
	struct bt_result r;

	cr_assert_eq(bt_call(conn, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	cr_assert_str_eq((const char *)(uintptr_t)r.reply.data.ptr.buffer, s);
	return r.reply;
}

Test(freebuf, bogus_address)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;

	bt_put_free(&w, 0x1234);
	bt_put_free(&w, (binder_uintptr_t)(uintptr_t)c.map + 8);
	cr_assert_eq(bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, 24);
	assert_usable_clean();
}

Test(freebuf, foreign_address)
{
	struct bt_conn c2;
	struct binder_transaction_data a, b;

	cr_assert_eq(bt_open(&c2, BT_VM_SIZE_DEFAULT), 0);
	a = echo(&c, "AAAAAAAA");
	/* another binder process frees our buffer: no effect on ours */
	cr_assert_eq(bt_free(&c2, a.data.ptr.buffer), 0);
	cr_assert(bt_read_empty(&c2));
	b = echo(&c, "BBBBBBBB");
	cr_assert_neq(b.data.ptr.buffer, a.data.ptr.buffer, "buffer was freed by a foreign free");
	cr_assert_str_eq((const char *)(uintptr_t)a.data.ptr.buffer, "AAAAAAAA");
	cr_assert_eq(bt_free(&c, a.data.ptr.buffer), 0);
	cr_assert_eq(bt_free(&c, b.data.ptr.buffer), 0);
	bt_close(&c2);
	assert_usable_clean();
}

Test(freebuf, already_freed)
{
	struct binder_transaction_data a, b, d;

	a = echo(&c, "first");
	cr_assert_eq(bt_free(&c, a.data.ptr.buffer), 0);
	b = echo(&c, "second");
	cr_assert_eq(b.data.ptr.buffer, a.data.ptr.buffer, "freed space is reused");
	cr_assert_eq(bt_free(&c, b.data.ptr.buffer), 0);
	/* twice: ignored, and nothing else is freed by it */
	cr_assert_eq(bt_free(&c, b.data.ptr.buffer), 0);
	cr_assert(bt_read_empty(&c));
	a = echo(&c, "third");
	d = echo(&c, "fourth");
	cr_assert_eq(bt_free(&c, a.data.ptr.buffer), 0);
	cr_assert_eq(bt_free(&c, a.data.ptr.buffer), 0);
	cr_assert_str_eq((const char *)(uintptr_t)d.data.ptr.buffer, "fourth");
	cr_assert_eq(bt_free(&c, d.data.ptr.buffer), 0);
	assert_usable_clean();
}

/* ---- protocol --------------------------------------------------------------- */

TestSuite(protocol, .init = fixture_setup, .fini = fixture_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(protocol, reply_with_nothing_to_reply_to)
{
	struct binder_transaction_data t = bt_tr(0, 0, 0, NULL, 0, NULL, 0);
	struct bt_buf w = { .len = 0 };
	struct binder_extended_error ee;
	binder_size_t wc = 0;
	struct bt_br br;

	bt_put_tr(&w, BC_REPLY, &t);
	cr_assert_eq(bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, w.len);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_FAILED_REPLY, "%s", bt_br_name(br.cmd));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	cr_assert_eq(ee.command, BR_FAILED_REPLY);
	cr_assert_eq(ee.param, -EPROTO);
	assert_usable_clean();
}

Test(protocol, pending_error_stops_the_write_loop)
{
	struct binder_transaction_data bad = bt_tr(999, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;
	struct bt_br br;

	cr_assert_eq(bt_enter_looper(&c), 0);
	bt_put_tr(&w, BC_TRANSACTION, &bad);
	bt_put_ref(&w, BC_INCREFS, 0);
	cr_assert_eq(bt_write_read(c.fd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, 4 + sizeof(bad), "consumed past the failed transaction");
	/* while the error is unread, nothing more is consumed */
	cr_assert_eq(bt_write_read(c.fd, w.data + wc, w.len - wc, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, 0);
	cr_assert_eq(bt_next(&c, &br, BT_TIMEOUT_MS), 0);
	cr_assert_eq(br.cmd, BR_FAILED_REPLY);
	/* BC_INCREFS 0 never ran: no ref 0, so a death request is ignored */
	w.len = 0;
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, 0, 5);
	bt_put_death(&w, BC_CLEAR_DEATH_NOTIFICATION, 0, 5);
	cr_assert_eq(bt_write(&c, w.data, w.len), 0);
	cr_assert(bt_read_empty(&c), "BC_INCREFS after a failed transaction was executed");
	assert_usable_clean();
}

Test(protocol, unknown_command)
{
	uint32_t w[3] = { BC_ENTER_LOOPER, 0x12345678, BC_ENTER_LOOPER };
	binder_size_t wc = 0;

	cr_assert_eq(bt_write_read(c.fd, w, sizeof(w), &wc, NULL, 0, NULL), -EINVAL);
	cr_assert_eq(wc, 4);
	assert_usable_clean();
}

Test(protocol, unsupported_commands)
{
	uint32_t a[3] = { BC_ATTEMPT_ACQUIRE, 0, 0 };
	uint32_t b[2] = { BC_ACQUIRE_RESULT, 0 };
	binder_size_t wc = 0;

	cr_assert_eq(bt_write_read(c.fd, a, sizeof(a), &wc, NULL, 0, NULL), -EINVAL);
	cr_assert_eq(wc, 0);
	cr_assert_eq(bt_write_read(c.fd, b, sizeof(b), &wc, NULL, 0, NULL), -EINVAL);
	cr_assert_eq(wc, 0);
	assert_usable_clean();
}

Test(protocol, null_buffers)
{
	binder_size_t wc = 5, rc = 5;

	cr_assert_eq(bt_write_read(c.fd, NULL, 4, &wc, NULL, 0, NULL), -EFAULT);
	cr_assert_eq(wc, 0);
	cr_assert_eq(bt_write_read(c.fd, NULL, 0, NULL, NULL, 128, &rc), -EFAULT);
	cr_assert_eq(rc, 0);
	assert_usable_clean();
}

Test(protocol, payload_runs_into_unmapped_page)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t cmd = BC_INCREFS;
	binder_size_t wc = 9;

	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(mprotect(p + pg, pg, PROT_NONE), 0);
	memcpy(p + pg - 4, &cmd, 4);
	cr_assert_eq(bt_write_read(c.fd, p + pg - 4, 8, &wc, NULL, 0, NULL), -EFAULT);
	cr_assert_eq(wc, 0);
	munmap(p, 2 * pg);
	assert_usable_clean();
}

/*
 * A read buffer whose BR_NOOP fits but whose room for the transaction runs
 * into an unmapped page: both drivers fail the read with EFAULT.  Mainline
 * has taken the transaction off the queue by then and drops it (the sync
 * caller gets BR_FAILED_REPLY; a oneway would be lost and its node's later
 * oneways stall behind its never-freed buffer).  binderc faults the room in
 * before taking any work, so the call waits for the next good read.
 */
Test(protocol, read_room_runs_into_unmapped_page)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool kept = bt_expected("work kept after a faulting read", 0);
	struct binder_transaction_data t;
	struct bt_conn rx;
	struct bt_result r;
	struct bt_br br;
	binder_size_t rc = 0;

	cr_assert_neq(p, MAP_FAILED);
	cr_assert_eq(mprotect(p + pg, pg, PROT_NONE), 0);
	/* a second open of ours serves the node; the call waits on its queue */
	open_node_owner(&rx, 6, 0x1700, 0x1800);
	t = bt_tr(get_handle(&c, 6), 0x57, 0, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_write_read(rx.fd, NULL, 0, NULL, p + pg - 8, 256, &rc), -EFAULT);
	cr_assert_eq(rc, 0);

	memset(&r, 0, sizeof(r));
	bt_wait_result(&c, &r, true, kept ? 300 : BT_TIMEOUT_MS);
	cr_assert_eq(r.final, kept ? 0 : BR_FAILED_REPLY, "caller after the faulting read: %s",
		     bt_br_name(r.final));
	if (kept) {
		/* the next good read gets the call, and the caller its reply */
		cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
		cr_assert_eq(br.tr.code, 0x57);
		cr_assert_eq(bt_reply_empty(&rx, &br.tr), 0);
		cr_assert_eq(bt_expect(&rx, BR_TRANSACTION_COMPLETE, &br, BT_TIMEOUT_MS), 0);
		finish_call(&c);
	}
	cr_assert(bt_read_empty(&rx));
	bt_close(&rx);
	munmap(p, 2 * pg);
	assert_usable_clean();
}

/*
 * A reply carrying an fd that the caller has no free descriptor for
 * (RLIMIT_NOFILE): both drivers drop the reply, install nothing and give
 * the caller BR_FAILED_REPLY; the replier's BC_REPLY itself succeeded.
 * binderc's failed reply comes as the caller thread's own error item, so a
 * fault while writing it can never touch the freed reply.
 */
Test(protocol, reply_fd_without_a_free_descriptor)
{
	struct binder_transaction_data t;
	struct binder_fd_object fdo;
	binder_size_t off = 0;
	struct rlimit old, low;
	struct bt_conn rx;
	struct bt_result r;
	struct bt_br br;
	int pipefd[2], lowest, ret;

	cr_assert_eq(pipe(pipefd), 0);
	open_node_owner(&rx, 6, 0x1700, 0x1800);
	t = bt_tr(get_handle(&c, 6), 0x58, TF_ACCEPT_FDS, NULL, 0, NULL, 0);
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	fdo = bt_fdo(pipefd[0]);
	cr_assert_eq(bt_reply(&rx, &br.tr, &fdo, sizeof(fdo), &off, 1), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION_COMPLETE, &br, BT_TIMEOUT_MS), 0);

	/* every descriptor below the limit is taken while the caller reads */
	lowest = dup(0);
	cr_assert_geq(lowest, 0);
	close(lowest);
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = (rlim_t)lowest;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	memset(&r, 0, sizeof(r));
	ret = bt_wait_result(&c, &r, true, BT_TIMEOUT_MS);
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &old), 0);

	cr_assert_eq(ret, 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "caller got %s", bt_br_name(r.final));
	cr_assert_eq(fcntl(lowest, F_GETFD), -1, "an fd was installed at %d", lowest);
	cr_assert(bt_read_empty(&c));
	cr_assert(bt_read_empty(&rx));
	bt_close(&rx);
	close(pipefd[0]);
	close(pipefd[1]);
	assert_usable_clean();
}

Test(protocol, write_size_cuts_a_command)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;

	/* mainline reads a command's payload past write_size (it only checks
	 * the command word against the end): 6 bytes of BC_INCREFS consume 8 */
	bt_put_ref(&w, BC_INCREFS, 0);
	cr_assert_eq(bt_write_read(c.fd, w.data, 6, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, bt_expected("write_consumed", 8));
	assert_usable_clean();
}

/* ---- context manager and mmap -------------------------------------------- */

TestSuite(ctxmgr, .timeout = TH_TEST_TIMEOUT_S);

static int become_ctxmgr(struct bt_conn *m, bool map)
{
	int ret = map ? bt_open(m, BT_VM_SIZE_DEFAULT) : bt_open_dev(m, O_NONBLOCK);

	return ret ? ret : bt_become_ctxmgr(m, NULL, TH_HANG_MS);
}

Test(ctxmgr, call_to_oneself)
{
	struct bt_conn m;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct bt_buf w = { .len = 0 };
	struct binder_extended_error ee;
	binder_size_t wc = 7;
	struct bt_result r;

	cr_assert_eq(become_ctxmgr(&m, true), 0);
	cr_assert_eq(bt_send(&m, &t), 0);
	memset(&r, 0, sizeof(r));
	cr_assert_eq(bt_wait_result(&m, &r, true, BT_TIMEOUT_MS), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&m, &ee), 0);
	cr_assert_eq(ee.param, -EINVAL);
	/* the manager taking a ref on handle 0: the ioctl fails */
	w.len = 0;
	bt_put_ref(&w, BC_INCREFS, 0);
	cr_assert_eq(bt_write_read(m.fd, w.data, w.len, &wc, NULL, 0, NULL), -EINVAL);
	cr_assert_eq(wc, 0);
	cr_assert(bt_read_empty(&m));
	bt_close(&m);
}

Test(ctxmgr, second_manager_busy_and_info_for_ref_is_manager_only)
{
	struct bt_conn m, o;
	int zero = 0;
	struct binder_node_info_for_ref info;

	cr_assert_eq(become_ctxmgr(&m, true), 0);
	cr_assert_eq(bt_open(&o, BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_ioctl(o.fd, BINDER_SET_CONTEXT_MGR, &zero), -EBUSY);
	cr_assert_eq(bt_ioctl(m.fd, BINDER_SET_CONTEXT_MGR, &zero), -EBUSY);
	memset(&info, 0, sizeof(info));
	cr_assert_eq(bt_ioctl(o.fd, BINDER_GET_NODE_INFO_FOR_REF, &info), -EPERM);
	info.reserved1 = 1;
	cr_assert_eq(bt_ioctl(m.fd, BINDER_GET_NODE_INFO_FOR_REF, &info), -EINVAL);
	info.reserved1 = 0;
	info.handle = 5;
	cr_assert_eq(bt_ioctl(m.fd, BINDER_GET_NODE_INFO_FOR_REF, &info), -EINVAL);
	bt_close(&o);
	bt_close(&m);
}

static int nommap_mgr_main(void *arg, int rd, int wr)
{
	struct bt_conn m;
	uint64_t v;

	(void)arg;
	bt_require(become_ctxmgr(&m, false) == 0, "become manager");
	bt_send_u64(wr, 0);
	bt_recv_u64(rd, &v, TH_HANG_MS);
	return 0;
}

Test(ctxmgr, target_without_mmap_is_dead)
{
	struct bt_conn o;
	struct bt_child m;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct binder_extended_error ee;
	struct bt_result r;

	cr_assert_eq(bt_spawn_ready(&m, nommap_mgr_main, NULL, TH_HANG_MS + 10000), 0);
	cr_assert_eq(bt_open(&o, BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_call(&o, &t, &r), 0);
	cr_assert_eq(r.final, BR_DEAD_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&o, &ee), 0);
	cr_assert_eq(ee.command, BR_DEAD_REPLY);
	cr_assert_eq(ee.param, -ESRCH);
	bt_close(&o);
	bt_kill(&m);
}

Test(ctxmgr, manager_in_same_process_counts_as_self)
{
	struct bt_conn m, o;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct binder_extended_error ee;
	struct bt_result r;

	/* the self check compares pids: another open in the manager's
	 * process can't call handle 0 either */
	cr_assert_eq(become_ctxmgr(&m, true), 0);
	cr_assert_eq(bt_open(&o, BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_call(&o, &t, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&o, &ee), 0);
	cr_assert_eq(ee.param, -EINVAL);
	bt_close(&o);
	bt_close(&m);
}

Test(ctxmgr, no_manager_is_dead_reply)
{
	/* no test manager in this test: wait for any previous one to go */
	struct bt_conn o;
	struct binder_transaction_data t = bt_tr(0, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct binder_extended_error ee;
	struct bt_result r;

	cr_assert_eq(bt_open(&o, BT_VM_SIZE_DEFAULT), 0);
	for (int64_t end = th_now_ms() + TH_HANG_MS;;) {
		cr_assert_eq(bt_call(&o, &t, &r), 0);
		if (r.final == BR_DEAD_REPLY)
			break;
		if (r.final == BR_REPLY)
			bt_free(&o, r.reply.data.ptr.buffer);
		if (!th_nap_until(end))
			break;
	}
	cr_assert_eq(r.final, BR_DEAD_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&o, &ee), 0);
	cr_assert_eq(ee.command, BR_DEAD_REPLY);
	cr_assert_eq(ee.param, -EINVAL);
	bt_close(&o);
}

TestSuite(mmap, .timeout = TH_TEST_TIMEOUT_S);

Test(mmap, writable_mapping_refused)
{
	struct bt_conn o;

	cr_assert_eq(bt_open_dev(&o, O_NONBLOCK), 0);
	cr_assert_eq(mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, o.fd, 0), MAP_FAILED);
	cr_assert_eq(errno, EPERM);
	cr_assert_eq(mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE, o.fd, 0), MAP_FAILED);
	cr_assert_eq(errno, EPERM);
	/* still mappable read-only afterwards */
	o.map = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, o.fd, 0);
	cr_assert_neq(o.map, MAP_FAILED, "%s", strerror(errno));
	o.map_size = 65536;
	/* and it can't be made writable later */
	cr_assert_eq(mprotect(o.map, 65536, PROT_READ | PROT_WRITE), -1);
	cr_assert_eq(errno, EACCES);
	bt_close(&o);
}

Test(mmap, second_mapping_busy)
{
	struct bt_conn o;
	void *p;

	cr_assert_eq(bt_open(&o, 65536), 0);
	p = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, o.fd, 0);
	cr_assert_eq(p, MAP_FAILED);
	cr_assert_eq(errno, EBUSY);
	bt_close(&o);
}

static void *map_from_thread(void *arg)
{
	int fd = *(int *)arg;
	void *p = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, fd, 0);

	return (void *)(intptr_t)(p == MAP_FAILED ? errno : 0);
}

Test(mmap, from_another_thread_of_the_opener)
{
	struct bt_conn o;
	pthread_t th;
	void *res;

	/* the check is on the thread group: any thread of the opener may map */
	cr_assert_eq(bt_open_dev(&o, O_NONBLOCK), 0);
	cr_assert_eq(pthread_create(&th, NULL, map_from_thread, &o.fd), 0);
	cr_assert_eq(pthread_join(th, &res), 0);
	cr_assert_eq((intptr_t)res, 0, "%s", strerror((int)(intptr_t)res));
	bt_close(&o);
}

Test(mmap, from_another_process)
{
	struct bt_conn o;
	int status = 0;
	pid_t pid;

	cr_assert_eq(bt_open_dev(&o, O_NONBLOCK), 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		void *p = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, o.fd, 0);

		_exit(p == MAP_FAILED ? (errno == EINVAL ? 0 : 2) : 1);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status));
	cr_assert_eq(WEXITSTATUS(status), 0, "mmap by a forked child: %s",
		     WEXITSTATUS(status) == 1 ? "succeeded" : "wrong errno");
	/* the opener still can */
	o.map = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE, o.fd, 0);
	cr_assert_neq(o.map, MAP_FAILED);
	o.map_size = 65536;
	bt_close(&o);
}

Test(mmap, larger_than_4m_is_capped)
{
	struct bt_conn o;

	/* mainline maps min(vma, 4 MiB) and accepts a bigger vma */
	cr_assert_eq(bt_open(&o, 8u << 20), 0);
	bt_close(&o);
}
