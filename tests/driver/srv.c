/* SPDX-License-Identifier: MIT */
/* srv: the node server helper (see srv.h). */
#include "srv.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct srv_state {
	struct srv_report rep;
	uint32_t peer;
	int wr;
};

static void fill_fdinfo(struct srv_fdinfo *fi, int fd)
{
	struct stat st;

	memset(fi, 0, sizeof(*fi));
	fi->fd = fd;
	fi->cloexec = (fcntl(fd, F_GETFD) & FD_CLOEXEC) ? 1 : 0;
	if (fstat(fd, &st) == 0) {
		fi->ino = st.st_ino;
		fi->dev = st.st_dev;
	}
}

static void do_fdinfo(struct bt_conn *c, const struct binder_transaction_data *tr)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	const binder_size_t *offs = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	size_t n = tr->offsets_size / sizeof(binder_size_t);
	struct srv_fdinfo out[16];
	int fda_fds[16];
	size_t nout = 0, nfda = 0;

	for (size_t i = 0; i < n && nout < 16; i++) {
		const struct binder_object_header *h = (const void *)(data + offs[i]);

		if (h->type == BINDER_TYPE_FD) {
			const struct binder_fd_object *f = (const void *)h;

			fill_fdinfo(&out[nout++], (int)f->fd);
		} else if (h->type == BINDER_TYPE_FDA) {
			const struct binder_fd_array_object *a = (const void *)h;
			const struct binder_buffer_object *p =
				(const void *)(data + offs[a->parent]);
			const uint32_t *fds = (const uint32_t *)(uintptr_t)(p->buffer + a->parent_offset);

			for (size_t k = 0; k < a->num_fds && nout < 16; k++) {
				fill_fdinfo(&out[nout++], (int)fds[k]);
				if (nfda < 16)
					fda_fds[nfda++] = (int)fds[k];
			}
		}
	}
	/* free first: the kernel closes fd-array fds when the buffer goes */
	bt_require(bt_free(c, tr->data.ptr.buffer) == 0, "free");
	for (size_t i = 0; i < nout; i++) {
		for (size_t k = 0; k < nfda; k++)
			if (out[i].fd == fda_fds[k])
				out[i].closed_after_free =
					fcntl(out[i].fd, F_GETFD) < 0 && errno == EBADF;
	}
	/* single FD objects stay open: the receiver owns them */
	for (size_t i = 0; i < nout; i++) {
		bool in_fda = false;

		for (size_t k = 0; k < nfda; k++)
			in_fda |= out[i].fd == fda_fds[k];
		if (!in_fda)
			close(out[i].fd);
	}
	bt_require(bt_send_reply(c, out, nout * sizeof(out[0])) == 0, "reply");
}

static void do_sginfo(struct bt_conn *c, const struct binder_transaction_data *tr)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	const binder_size_t *offs = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	uintptr_t lo = (uintptr_t)c->map, hi = lo + c->map_size;
	struct srv_sginfo si;

	memset(&si, 0, sizeof(si));
	si.nobj = tr->offsets_size / sizeof(binder_size_t);
	si.ok = 1;
	if (si.nobj >= 1 && tr->offsets_size >= 8) {
		const struct binder_buffer_object *p0 = (const void *)(data + offs[0]);

		si.buf0_in_map = p0->hdr.type == BINDER_TYPE_PTR && p0->buffer >= lo &&
				 p0->buffer + p0->length <= hi;
		if (si.nobj >= 2 && si.buf0_in_map) {
			const struct binder_buffer_object *p1 = (const void *)(data + offs[1]);
			uint64_t fixed;

			if (p1->hdr.type != BINDER_TYPE_PTR || p1->parent_offset + 8 > p0->length) {
				si.ok = 0;
			} else {
				memcpy(&fixed, (const void *)(uintptr_t)(p0->buffer + p1->parent_offset), 8);
				/* the parent's pointer slot now points at the child copy */
				si.ok = fixed == p1->buffer && p1->buffer >= lo && p1->buffer < hi;
				if (si.ok)
					memcpy(si.child, (const void *)(uintptr_t)p1->buffer,
					       p1->length < sizeof(si.child) ? p1->length : sizeof(si.child));
			}
		}
	}
	bt_reply(c, tr, &si, sizeof(si), NULL, 0);
}

static void srv_handler(struct bt_conn *c, const struct binder_transaction_data *tr, void *arg)
{
	struct srv_state *st = arg;
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	uint32_t v = 0;

	st->rep.received++;
	if (tr->data_size >= 4)
		memcpy(&v, data, 4);
	switch (tr->code) {
	case C_ECHO: {
		static uint8_t copy[4096];
		size_t n = tr->data_size < sizeof(copy) ? tr->data_size : sizeof(copy);

		memcpy(copy, data, n);
		bt_reply(c, tr, copy, n, NULL, 0);
		break;
	}
	case C_SEQ:
		if (v != st->rep.seq_next)
			st->rep.seq_errors++;
		if (tr->sender_pid != 0)
			st->rep.sender_pid_nonzero_oneway++;
		st->rep.seq_next = v + 1;
		bt_reply_empty(c, tr);
		break;
	case C_RECURSE: {
		uint32_t hops = 1;

		bt_require(bt_free(c, tr->data.ptr.buffer) == 0, "free");
		if (v > 0) {
			uint32_t d = v - 1;
			struct binder_transaction_data t;
			struct bt_result r;

			if (!st->peer)
				bt_require(bt_sm_get(c, 4, &st->peer) == 0 && st->peer, "peer");
			t = bt_tr(st->peer, C_RECURSE, 0, &d, sizeof(d), NULL, 0);
			bt_require(bt_call(c, &t, &r) == 0 && r.final == BR_REPLY, "recurse call");
			memcpy(&hops, (void *)(uintptr_t)r.reply.data.ptr.buffer, 4);
			bt_free(c, r.reply.data.ptr.buffer);
			hops++;
		}
		bt_require(bt_send_reply(c, &hops, sizeof(hops)) == 0, "reply");
		break;
	}
	case C_FDINFO:
		do_fdinfo(c, tr);
		break;
	case C_SGINFO:
		do_sginfo(c, tr);
		break;
	case C_REPORT:
		bt_reply(c, tr, &st->rep, sizeof(st->rep), NULL, 0);
		break;
	case C_HANG:
		bt_send_u64(st->wr, C_HANG);
		for (;;)
			pause();
	case C_NOFREE:
		bt_require(bt_send_reply(c, NULL, 0) == 0, "reply");
		break;
	default:
		bt_reply_empty(c, tr);
		break;
	}
}

int srv_main(void *arg, int rd, int wr)
{
	struct srv_cfg *cfg = arg;
	struct srv_state st;
	struct bt_conn c;

	memset(&st, 0, sizeof(st));
	st.wr = wr;
	bt_require(bt_open(&c, cfg->map_size ? cfg->map_size : BT_VM_SIZE_DEFAULT) == 0, "open");
	if (cfg->max_threads)
		bt_require(bt_ioctl(c.fd, BINDER_SET_MAX_THREADS, &cfg->max_threads) == 0, "max");
	bt_require(bt_enter_looper(&c) == 0, "looper");
	for (uint32_t i = 0; i < cfg->nslots; i++) {
		struct flat_binder_object o =
			bt_fbo_binder(BINDER_TYPE_BINDER, SRV_PTR(i), SRV_COOKIE(i));

		if (cfg->node_no_fds)
			o.flags &= ~FLAT_BINDER_FLAG_ACCEPTS_FDS;
		bt_require(bt_sm_add(&c, cfg->first_slot + i, &o) == BR_REPLY, "publish");
	}
	c.nested = srv_handler;
	c.nested_arg = &st;
	bt_send_u64(wr, 0);
	if (cfg->wait_go) {
		uint64_t v = 0;

		if (bt_recv_u64(rd, &v, 600000) || v != SRV_CMD_SERVE)
			return 0;
	}
	for (;;) {
		uint64_t v = 0;

		bt_serve_until(&c, srv_handler, &st, rd, 100);
		if (read(rd, &v, sizeof(v)) != sizeof(v) || v == SRV_CMD_EXIT)
			return 0;
	}
}

int srv_start(struct bt_child *ch, struct srv_cfg *cfg)
{
	return bt_spawn_ready(ch, srv_main, cfg, TH_HANG_MS);
}

void srv_stop(struct bt_child *ch)
{
	if (ch->pid > 0) {
		bt_send_u64(ch->to_child, SRV_CMD_EXIT);
		if (bt_join(ch, 3000) == -ETIMEDOUT)
			bt_kill(ch);
	}
}

uint32_t get_handle(struct bt_conn *c, uint32_t slot)
{
	uint32_t h = 0;
	int ret = bt_sm_get(c, slot, &h);

	bt_require(ret == 0 && h != 0, "no handle in slot %u (%d)", slot, ret);
	return h;
}

struct srv_report srv_get_report(struct bt_conn *c, uint32_t h)
{
	struct binder_transaction_data t = bt_tr(h, C_REPORT, 0, NULL, 0, NULL, 0);
	struct srv_report rep;
	struct bt_result r;

	bt_require(bt_call(c, &t, &r) == 0 && r.final == BR_REPLY, "report: %s",
		   bt_br_name(r.final));
	bt_require(r.reply.data_size == sizeof(rep), "report size %llu",
		   (unsigned long long)r.reply.data_size);
	memcpy(&rep, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(rep));
	bt_free(c, r.reply.data.ptr.buffer);
	return rep;
}

/* ---- the fixture ---------------------------------------------------------- */

struct bt_child cm, s1;
struct bt_conn c;

void fixture_setup(void)
{
	int ret = bt_cm_start(&cm);

	bt_require(ret == 0, "test context manager did not start: %s", strerror(-ret));
	bt_require(bt_open(&c, BT_VM_SIZE_DEFAULT) == 0, "open");
}

void fixture_teardown(void)
{
	srv_stop(&s1);
	bt_close(&c);
	bt_cm_stop(&cm);
}

uint32_t start_server(struct srv_cfg *cfg)
{
	static struct srv_cfg one_node = { .first_slot = 0, .nslots = 1 };
	int ret;

	if (!cfg)
		cfg = &one_node;
	ret = srv_start(&s1, cfg);
	bt_require(ret == 0, "server did not start (%d)", ret);
	return get_handle(&c, cfg->first_slot);
}

void assert_usable(void)
{
	struct bt_conn other;

	bt_require(bt_ping(&c, 0) == BR_REPLY, "this process is no longer usable");
	bt_require(bt_open(&other, BT_VM_SIZE_DEFAULT) == 0, "open");
	bt_require(bt_ping(&other, 0) == BR_REPLY, "another process is no longer usable");
	bt_close(&other);
}

void call_fails(const struct binder_transaction_data *t, bool sg, binder_size_t buffers_size,
		int32_t param)
{
	struct binder_extended_error ee;
	struct bt_result r;
	int ret = sg ? bt_call_sg(&c, t, buffers_size, &r) : bt_call(&c, t, &r);

	bt_require(ret == 0, "call: %d", ret);
	bt_require(r.final == BR_FAILED_REPLY, "want BR_FAILED_REPLY, got %s", bt_br_name(r.final));
	bt_require(bt_get_ee(&c, &ee) == 0, "extended error");
	bt_require(ee.command == BR_FAILED_REPLY, "ee.command %s", bt_br_name(ee.command));
	bt_require(ee.param == param, "ee.param %d, want %d", ee.param, param);
}

struct binder_node_debug_info node_info(struct bt_conn *conn, binder_uintptr_t after)
{
	struct binder_node_debug_info i;
	int ret;

	memset(&i, 0, sizeof(i));
	i.ptr = after;
	ret = bt_ioctl(conn->fd, BINDER_GET_NODE_DEBUG_INFO, &i);
	bt_require(ret == 0, "BINDER_GET_NODE_DEBUG_INFO: %d", ret);
	return i;
}

void publish(struct bt_conn *conn, struct bt_result *r, uint32_t slot, uint32_t type,
	     binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct flat_binder_object o = bt_fbo_binder(type, ptr, cookie);
	struct bt_result mine;
	int ret;

	if (!r)
		r = &mine;
	ret = bt_sm_add_result(conn, slot, &o, r);
	bt_require(ret == 0 && r->final == BR_REPLY, "publish: %d, %s", ret, bt_br_name(r->final));
}

void open_node_owner(struct bt_conn *q, uint32_t slot, binder_uintptr_t ptr,
		     binder_uintptr_t cookie)
{
	bt_require(bt_open(q, BT_VM_SIZE_DEFAULT) == 0, "open");
	bt_require(bt_enter_looper(q) == 0, "looper");
	publish(q, NULL, slot, BINDER_TYPE_BINDER, ptr, cookie);
}

void finish_call(struct bt_conn *conn)
{
	struct bt_result r;
	int ret;

	memset(&r, 0, sizeof(r));
	ret = bt_wait_result(conn, &r, true, BT_TIMEOUT_MS);
	bt_require(ret == 0 && r.final == BR_REPLY, "reply: %d, %s", ret, bt_br_name(r.final));
	bt_require(bt_free(conn, r.reply.data.ptr.buffer) == 0, "free reply");
}

int stuck_caller_main(void *arg, int rd, int wr)
{
	const struct stuck_caller *cfg = arg;
	static uint8_t data[4096] = { 1 };
	struct binder_transaction_data t;
	struct bt_conn q;
	uint32_t h = 0;

	(void)rd;
	bt_require(cfg->size <= sizeof(data), "stuck_caller size");
	bt_require(bt_open(&q, BT_VM_SIZE_DEFAULT) == 0, "open");
	bt_require(bt_sm_get(&q, cfg->slot, &h) == 0 && h, "get");
	t = bt_tr(h, cfg->code, 0, cfg->size ? data : NULL, cfg->size, NULL, 0);
	bt_require(bt_send(&q, &t) == 0, "call");
	bt_send_u64(wr, 0);
	for (;;)
		pause();
}

void sg_fda_init(struct sg_fda *d, binder_size_t offs[2], const uint32_t *fds,
		 size_t fds_bytes, uint32_t num_fds)
{
	memset(d, 0, sizeof(*d));
	d->p.hdr.type = BINDER_TYPE_PTR;
	d->p.buffer = (binder_uintptr_t)(uintptr_t)fds;
	d->p.length = fds_bytes;
	d->a.hdr.type = BINDER_TYPE_FDA;
	d->a.num_fds = num_fds;
	d->a.parent = 0;
	d->a.parent_offset = 0;
	offs[0] = offsetof(struct sg_fda, p);
	offs[1] = offsetof(struct sg_fda, a);
}

void sg_pair_init(struct sg_pair *d, binder_size_t offs[2], const void *parent,
		  size_t parent_len, const void *child, size_t child_len,
		  binder_size_t parent_offset)
{
	memset(d, 0, sizeof(*d));
	d->a.hdr.type = BINDER_TYPE_PTR;
	d->a.buffer = (binder_uintptr_t)(uintptr_t)parent;
	d->a.length = parent_len;
	d->b.hdr.type = BINDER_TYPE_PTR;
	d->b.flags = BINDER_BUFFER_FLAG_HAS_PARENT;
	d->b.buffer = (binder_uintptr_t)(uintptr_t)child;
	d->b.length = child_len;
	d->b.parent = 0;
	d->b.parent_offset = parent_offset;
	offs[0] = offsetof(struct sg_pair, a);
	offs[1] = offsetof(struct sg_pair, b);
}
