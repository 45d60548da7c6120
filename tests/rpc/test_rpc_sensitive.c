/* SPDX-License-Identifier: MIT */
/*
 * BINDERC_FLAG_CLEAR_BUF (Android's FLAG_CLEAR_BUF, AIDL's @SensitiveData):
 * the flag reaches the called object's transaction over RPC binder (it
 * can only have learnt it from the transaction's flags word) and in
 * process; the reply on both ends is marked sensitive (BBinder::transact
 * marks it so); and a sensitive parcel's buffer is zeroed before the
 * parcel cache hands it out again, where a plain one keeps its bytes;
 * and the connection's read buffer gives up such a call's bytes.
 */
#include "internal.h"
#include "rpc_internal.h"
#include "rpct.h"

#define CODE_FLAGS 1 /* -> int32 the transaction's flags, int32 1 if the reply is sensitive */

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int r;

	(void)self;
	(void)in;
	(void)ud;
	if (code != CODE_FLAGS)
		return -EBADMSG;
	r = bc_parcel_write_int32(reply, (int32_t)bc_txn_get_flags(txn));
	return r < 0 ? r : bc_parcel_write_int32(reply, !!(reply->flags & BINDERC_PARCEL_SENSITIVE));
}

static bc_binder *object_new(void)
{
	bc_class *c = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new("org.binderc.test.ISensitive", on_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &b), 0);
	bc_class_unref(c);
	return b;
}

/* Call @b with @flags: what its handler saw. */
static void call(bc_binder *b, uint32_t flags, int32_t *seen, int32_t *reply_marked, bool *ours_marked)
{
	bc_parcel *data = NULL, *reply = NULL;

	cr_assert_eq(bc_binder_new_parcel(b, &data), 0);
	cr_assert_eq(bc_binder_transact(b, CODE_FLAGS, data, &reply, flags, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, seen), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, reply_marked), 0);
	*ours_marked = reply->flags & BINDERC_PARCEL_SENSITIVE;
	cr_assert_eq(!!(data->flags & BINDERC_PARCEL_SENSITIVE), !!(flags & BINDERC_FLAG_CLEAR_BUF));
	bc_parcel_unref(data);
	bc_parcel_unref(reply);
}

Test(rpc_sensitive, flag_crosses_rpc)
{
	bc_binder *obj = object_new(), *root = NULL;
	struct rpct_server t;
	bc_rpc_session *s = NULL;
	int32_t seen, marked;
	bool ours;
	int fd;

	rpct_server_start(&t, obj, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);

	call(root, BINDERC_FLAG_CLEAR_BUF, &seen, &marked, &ours);
	cr_expect_eq((uint32_t)seen, BINDERC_FLAG_CLEAR_BUF);
	cr_expect_eq(marked, 1);
	cr_expect(ours);

	call(root, 0, &seen, &marked, &ours);
	cr_expect_eq(seen, 0);
	cr_expect_eq(marked, 0);
	cr_expect(!ours);

	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(rpct_server_join(&t), 0);
	bc_binder_unref(obj);
}

Test(rpc_sensitive, flag_reaches_local_object)
{
	bc_binder *obj = object_new();
	int32_t seen, marked;
	bool ours;

	call(obj, BINDERC_FLAG_CLEAR_BUF, &seen, &marked, &ours);
	cr_expect_eq((uint32_t)seen, BINDERC_FLAG_CLEAR_BUF);
	cr_expect_eq(marked, 1);
	cr_expect(ours);
	call(obj, 0, &seen, &marked, &ours);
	cr_expect_eq(seen, 0);
	cr_expect_eq(marked, 0);
	/* flags nobody defined are still refused */
	cr_expect_eq(bc_binder_transact(obj, CODE_FLAGS, NULL, NULL, 0x40, NULL), -EINVAL);
	bc_binder_unref(obj);
}

/* Write a secret into a new parcel (sensitive or not), free it and take
 * the next parcel: the thread's parcel cache gives its buffer back.
 * What is left of the secret there. */
static bool secret_left(bool sensitive)
{
	static const char secret[] = "0123456789abcdef";
	bc_parcel *p = NULL, *q = NULL;
	uint8_t *buf;
	bool left;

	cr_assert_eq(bc_parcel_new(&p), 0);
	if (sensitive)
		bc_parcel_mark_sensitive(p);
	cr_assert_eq(bc_parcel_write_raw(p, secret, 16), 0);
	buf = p->data;
	bc_parcel_unref(p);
	cr_assert_eq(bc_parcel_new(&q), 0);
	cr_assert_eq(q->data, buf, "the cache did not hand the buffer back");
	left = memcmp(q->data, secret, 16) == 0;
	cr_expect_eq(q->flags & BINDERC_PARCEL_SENSITIVE, 0u, "a reused parcel starts unmarked");
	bc_parcel_unref(q);
	return left;
}

Test(rpc_sensitive, buffer_zeroed_before_reuse)
{
	cr_expect(secret_left(false), "control: a plain parcel keeps its bytes in the cache");
	cr_expect(!secret_left(true));
}

/* Growing a sensitive parcel moves its data; the contents survive. */
Test(rpc_sensitive, growth_keeps_data)
{
	bc_parcel *p = NULL;
	int32_t v;

	cr_assert_eq(bc_parcel_new(&p), 0);
	bc_parcel_mark_sensitive(p);
	for (int32_t i = 0; i < 1000; i++)
		cr_assert_eq(bc_parcel_write_int32(p, i), 0);
	for (int32_t i = 0; i < 1000; i++) {
		cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
		cr_assert_eq(v, i);
	}
	bc_parcel_unref(p);
	bc_parcel_mark_sensitive(NULL);
}

/* What the socket brought for a FLAG_CLEAR_BUF call is zeroed in the
 * connection's read buffer after the call (rpc_dispatch.c, rpc_call.c),
 * and only bytes of that buffer are. */
Test(rpc_sensitive, read_buffer_wipe)
{
	uint8_t buf[64], other[16];
	struct rpc_conn c;

	memset(&c, 0, sizeof(c));
	memset(buf, 0xa5, sizeof(buf));
	memset(other, 0xa5, sizeof(other));
	bc__rpc_wipe_read(&c, buf, 8); /* no buffer yet: nothing */
	cr_expect_eq(buf[0], 0xa5);
	c.rbuf = buf;
	c.rcap = sizeof(buf);
	bc__rpc_wipe_read(&c, buf + 8, 16);
	for (size_t i = 0; i < sizeof(buf); i++)
		cr_expect_eq(buf[i], i >= 8 && i < 24 ? 0 : 0xa5, "byte %zu", i);
	/* past its end, or elsewhere: untouched */
	bc__rpc_wipe_read(&c, buf + 60, 8);
	cr_expect_eq(buf[60], 0xa5);
	bc__rpc_wipe_read(&c, other, sizeof(other));
	cr_expect_eq(other[0], 0xa5);
	bc__rpc_wipe_read(&c, buf + 56, 8); /* exactly to the end */
	cr_expect_eq(buf[63], 0);
}
