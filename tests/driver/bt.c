/* SPDX-License-Identifier: MIT */
/* bt: raw binder ioctl helpers for the driver conformance tests. */
#include "bt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

int bt_in_helper;

/* ---- environment ---------------------------------------------------------- */

enum bt_driver bt_driver(void)
{
	return th_is_binderc() ? BT_BINDERC : BT_MAINLINE;
}

void bt_fail_at(const char *file, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (bt_in_helper) {
		fprintf(stderr, "[helper %d on %s] %s:%d: %s\n", (int)getpid(),
			th_device(), file, line, msg);
		_exit(99);
	}
	cr_assert_fail("%s:%d: %s", file, line, msg);
	abort();
}

/* ---- open / ioctl --------------------------------------------------------- */

int bt_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

int bt_open_dev(struct bt_conn *c, int oflags)
{
	return bt_open_dev_at(c, th_device(), oflags);
}

int bt_open_dev_at(struct bt_conn *c, const char *path, int oflags)
{
	memset(c, 0, sizeof(*c));
	c->fd = open(path, O_RDWR | O_CLOEXEC | oflags);
	if (c->fd < 0)
		return -errno;
	c->map = MAP_FAILED;
	c->autoack = true;
	return 0;
}

int bt_open(struct bt_conn *c, size_t map_size)
{
	return bt_open_at(c, th_device(), map_size);
}

int bt_open_at(struct bt_conn *c, const char *path, size_t map_size)
{
	int ret = bt_open_dev_at(c, path, O_NONBLOCK);

	if (ret)
		return ret;
	c->map = mmap(NULL, map_size, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, c->fd, 0);
	if (c->map == MAP_FAILED) {
		ret = -errno;
		close(c->fd);
		c->fd = -1;
		return ret;
	}
	c->map_size = map_size;
	return 0;
}

void bt_thread_conn(struct bt_conn *thr, const struct bt_conn *proc)
{
	memset(thr, 0, sizeof(*thr));
	thr->fd = proc->fd;
	thr->map = proc->map;
	thr->map_size = proc->map_size;
	thr->autoack = proc->autoack;
}

void bt_close(struct bt_conn *c)
{
	if (c->map && c->map != MAP_FAILED)
		munmap(c->map, c->map_size);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->map = MAP_FAILED;
}

int bt_write_read(int fd, const void *w, size_t wsize, binder_size_t *wc,
		  void *r, size_t rsize, binder_size_t *rc)
{
	struct binder_write_read bwr = {
		.write_size = wsize,
		.write_buffer = (binder_uintptr_t)(uintptr_t)w,
		.read_size = rsize,
		.read_buffer = (binder_uintptr_t)(uintptr_t)r,
	};
	int ret = bt_ioctl(fd, BINDER_WRITE_READ, &bwr);

	if (wc)
		*wc = bwr.write_consumed;
	if (rc)
		*rc = bwr.read_consumed;
	return ret;
}

int bt_write(struct bt_conn *c, const void *w, size_t wsize)
{
	binder_size_t wc = 0;
	int ret = bt_write_read(c->fd, w, wsize, &wc, NULL, 0, NULL);

	if (ret)
		return ret;
	return wc == wsize ? 0 : -EMSGSIZE;
}

int bt_enter_looper(struct bt_conn *c)
{
	uint32_t cmd = BC_ENTER_LOOPER;

	return bt_write(c, &cmd, sizeof(cmd));
}

int bt_become_ctxmgr(struct bt_conn *c, const struct flat_binder_object *ext, int timeout_ms)
{
	int64_t deadline = th_now_ms() + timeout_ms;
	struct flat_binder_object o;
	int zero = 0, ret;

	if (ext)
		o = *ext;
	while ((ret = ext ? bt_ioctl(c->fd, BINDER_SET_CONTEXT_MGR_EXT, &o)
			  : bt_ioctl(c->fd, BINDER_SET_CONTEXT_MGR, &zero)) == -EBUSY &&
	       th_now_ms() < deadline)
		usleep(5000);
	return ret;
}

int bt_get_ee(struct bt_conn *c, struct binder_extended_error *ee)
{
	memset(ee, 0, sizeof(*ee));
	return bt_ioctl(c->fd, BINDER_GET_EXTENDED_ERROR, ee);
}

/* ---- command building ----------------------------------------------------- */

void bt_put(struct bt_buf *b, const void *p, size_t n)
{
	bt_require(b->len + n <= sizeof(b->data), "bt_buf overflow");
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void bt_put32(struct bt_buf *b, uint32_t v) { bt_put(b, &v, sizeof(v)); }
void bt_put64(struct bt_buf *b, uint64_t v) { bt_put(b, &v, sizeof(v)); }

void bt_put_ref(struct bt_buf *b, uint32_t cmd, uint32_t handle)
{
	bt_put32(b, cmd);
	bt_put32(b, handle);
}

void bt_put_free(struct bt_buf *b, binder_uintptr_t buffer)
{
	bt_put32(b, BC_FREE_BUFFER);
	bt_put64(b, buffer);
}

void bt_put_death(struct bt_buf *b, uint32_t cmd, uint32_t handle, binder_uintptr_t cookie)
{
	struct binder_handle_cookie hc = { .handle = handle, .cookie = cookie };

	bt_put32(b, cmd);
	bt_put(b, &hc, sizeof(hc));
}

void bt_put_ptr_cookie(struct bt_buf *b, uint32_t cmd, binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct binder_ptr_cookie pc = { .ptr = ptr, .cookie = cookie };

	bt_put32(b, cmd);
	bt_put(b, &pc, sizeof(pc));
}

void bt_put_tr(struct bt_buf *b, uint32_t cmd, const struct binder_transaction_data *tr)
{
	bt_put32(b, cmd);
	bt_put(b, tr, sizeof(*tr));
}

void bt_put_tr_sg(struct bt_buf *b, uint32_t cmd, const struct binder_transaction_data *tr,
		  binder_size_t buffers_size)
{
	struct binder_transaction_data_sg sg = { .transaction_data = *tr,
						 .buffers_size = buffers_size };

	bt_put32(b, cmd);
	bt_put(b, &sg, sizeof(sg));
}

struct binder_transaction_data bt_tr(uint32_t handle, uint32_t code, uint32_t flags,
				     const void *data, size_t data_size,
				     const binder_size_t *offs, size_t offs_bytes)
{
	struct binder_transaction_data tr;

	memset(&tr, 0, sizeof(tr));
	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags;
	tr.data_size = data_size;
	tr.offsets_size = offs_bytes;
	tr.data.ptr.buffer = (binder_uintptr_t)(uintptr_t)data;
	tr.data.ptr.offsets = (binder_uintptr_t)(uintptr_t)offs;
	return tr;
}

struct flat_binder_object bt_fbo_binder(uint32_t type, binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	struct flat_binder_object o;

	memset(&o, 0, sizeof(o));
	o.hdr.type = type;
	o.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f;
	o.binder = ptr;
	o.cookie = cookie;
	return o;
}

struct flat_binder_object bt_fbo_handle(uint32_t type, uint32_t handle)
{
	struct flat_binder_object o;

	memset(&o, 0, sizeof(o));
	o.hdr.type = type;
	o.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS;
	o.handle = handle;
	return o;
}

struct binder_fd_object bt_fdo(int fd)
{
	struct binder_fd_object fo;

	memset(&fo, 0, sizeof(fo));
	fo.hdr.type = BINDER_TYPE_FD;
	fo.fd = (uint32_t)fd;
	return fo;
}

/* ---- reading -------------------------------------------------------------- */

size_t bt_br_payload(uint32_t cmd)
{
	return _IOC_SIZE(cmd);
}

const char *bt_br_name(uint32_t cmd)
{
	const char *name = binder_br_name(cmd);

	return name ? name : cmd ? "BR_?" : "(none)";
}

const char *bt_bc_name(uint32_t cmd)
{
	const char *name = binder_bc_name(cmd);

	return name ? name : "BC_?";
}

static int wait_readable(int fd, int64_t deadline)
{
	int64_t left = deadline - th_now_ms();
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (left <= 0)
		return -ETIMEDOUT;
	/* slices keep a lost wakeup from turning into a hang; the poll tests
	 * check wakeups on their own */
	if (left > 200)
		left = 200;
	if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

int bt_next(struct bt_conn *c, struct bt_br *br, int timeout_ms)
{
	int64_t deadline = th_now_ms() + timeout_ms;

	for (;;) {
		while (c->rpos + 4 <= c->rlen) {
			uint32_t cmd;
			size_t n;

			memcpy(&cmd, c->rbuf + c->rpos, 4);
			n = bt_br_payload(cmd);
			bt_require(c->rpos + 4 + n <= c->rlen,
				   "truncated %s (0x%x) in read buffer", bt_br_name(cmd), cmd);
			c->rpos += 4;
			if (cmd == BR_NOOP)
				continue;
			memset(br, 0, sizeof(*br));
			br->cmd = cmd;
			bt_require(n <= sizeof(br->raw), "BR payload too big: 0x%x", cmd);
			memcpy(br->raw, c->rbuf + c->rpos, n);
			c->rpos += n;
			if (c->nlog < sizeof(c->log) / sizeof(c->log[0]))
				c->log[c->nlog++] = cmd;
			return 0;
		}
		c->rlen = c->rpos = 0;
		binder_size_t rc = 0;
		int ret = bt_write_read(c->fd, NULL, 0, NULL, c->rbuf, sizeof(c->rbuf), &rc);

		if (ret == 0) {
			c->rlen = rc;
			continue;
		}
		if (ret != -EAGAIN && ret != -EINTR)
			return ret;
		ret = wait_readable(c->fd, deadline);
		if (ret)
			return ret;
	}
}

bool bt_read_empty(struct bt_conn *c)
{
	binder_size_t rc = 1234;
	int ret;

	if (c->rpos < c->rlen)
		return false;
	c->rpos = c->rlen = 0;
	ret = bt_write_read(c->fd, NULL, 0, NULL, c->rbuf, 128, &rc);
	if (ret == -EAGAIN && rc == 0)
		return true;
	if (ret == 0) {
		uint32_t first = 0, second = 0;

		/* keep what was read for bt_next */
		c->rlen = rc;
		if (rc >= 4)
			memcpy(&first, c->rbuf, 4);
		if (rc >= 8)
			memcpy(&second, c->rbuf + 4, 4);
		fprintf(stderr, "bt_read_empty: not empty: %llu bytes: %s, %s\n",
			(unsigned long long)rc, bt_br_name(first), bt_br_name(second));
	} else {
		fprintf(stderr, "bt_read_empty: read gave %d, read_consumed %llu\n", ret,
			(unsigned long long)rc);
	}
	return false;
}

static void ack_node(struct bt_conn *c, const struct bt_br *br)
{
	struct bt_buf w = { .len = 0 };

	if (!c->autoack)
		return;
	if (br->cmd == BR_INCREFS)
		bt_put_ptr_cookie(&w, BC_INCREFS_DONE, br->pc.ptr, br->pc.cookie);
	else if (br->cmd == BR_ACQUIRE)
		bt_put_ptr_cookie(&w, BC_ACQUIRE_DONE, br->pc.ptr, br->pc.cookie);
	else if (br->cmd == BR_DEAD_BINDER) {
		bt_put32(&w, BC_DEAD_BINDER_DONE);
		bt_put64(&w, br->cookie);
	}
	if (w.len)
		bt_require(bt_write(c, w.data, w.len) == 0, "ack write failed");
}

int bt_wait_result(struct bt_conn *c, struct bt_result *r, bool sync, int timeout_ms)
{
	int64_t deadline = th_now_ms() + timeout_ms;
	struct bt_br br;

	for (;;) {
		int64_t left = deadline - th_now_ms();
		int ret = bt_next(c, &br, left > 0 ? (int)left : 0);

		if (ret)
			return ret;
		if (r->nseen < sizeof(r->seen) / sizeof(r->seen[0]))
			r->seen[r->nseen++] = br.cmd;
		switch (br.cmd) {
		case BR_TRANSACTION_COMPLETE:
		case BR_ONEWAY_SPAM_SUSPECT:
		case BR_TRANSACTION_PENDING_FROZEN: /* a oneway queued to a frozen proc */
			r->complete = true;
			if (!sync) {
				r->final = br.cmd;
				return 0;
			}
			break;
		case BR_REPLY:
			r->final = BR_REPLY;
			r->reply = br.tr;
			return 0;
		case BR_FAILED_REPLY:
		case BR_DEAD_REPLY:
		case BR_FROZEN_REPLY:
		case BR_ERROR:
			r->final = br.cmd;
			return 0;
		case BR_INCREFS:
		case BR_ACQUIRE:
		case BR_RELEASE:
		case BR_DECREFS:
			if (r->nrefs < sizeof(r->refs) / sizeof(r->refs[0]))
				r->refs[r->nrefs++] = br;
			ack_node(c, &br);
			break;
		case BR_DEAD_BINDER:
			ack_node(c, &br);
			break;
		case BR_TRANSACTION:
		case BR_TRANSACTION_SEC_CTX:
			bt_require(c->nested, "unexpected nested %s (code 0x%x)",
				   bt_br_name(br.cmd), br.tr.code);
			c->nested(c, &br.tr, c->nested_arg);
			break;
		default:
			break;
		}
	}
}

int bt_call_sg(struct bt_conn *c, const struct binder_transaction_data *tr,
	       binder_size_t buffers_size, struct bt_result *r)
{
	struct bt_buf w = { .len = 0 };
	int ret;

	memset(r, 0, sizeof(*r));
	bt_put_tr_sg(&w, BC_TRANSACTION_SG, tr, buffers_size);
	ret = bt_write(c, w.data, w.len);
	if (ret)
		return ret;
	return bt_wait_result(c, r, !(tr->flags & TF_ONE_WAY), BT_TIMEOUT_MS);
}

int bt_send(struct bt_conn *c, const struct binder_transaction_data *tr)
{
	struct bt_buf w = { .len = 0 };

	bt_put_tr(&w, BC_TRANSACTION, tr);
	return bt_write(c, w.data, w.len);
}

int bt_call(struct bt_conn *c, const struct binder_transaction_data *tr, struct bt_result *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	ret = bt_send(c, tr);
	if (ret)
		return ret;
	return bt_wait_result(c, r, !(tr->flags & TF_ONE_WAY), BT_TIMEOUT_MS);
}

int bt_oneway(struct bt_conn *c, const struct binder_transaction_data *tr, struct bt_result *r)
{
	struct binder_transaction_data t = *tr;

	t.flags |= TF_ONE_WAY;
	return bt_call(c, &t, r);
}

uint32_t bt_ping(struct bt_conn *c, uint32_t handle)
{
	struct binder_transaction_data tr = bt_tr(handle, BT_PING_TRANSACTION, 0, NULL, 0, NULL, 0);
	struct bt_result r;
	int ret = bt_call(c, &tr, &r);

	if (ret)
		return 0;
	if (r.final == BR_REPLY)
		bt_require(bt_free(c, r.reply.data.ptr.buffer) == 0, "free reply");
	return r.final;
}

int bt_free(struct bt_conn *c, binder_uintptr_t buffer)
{
	struct bt_buf w = { .len = 0 };

	bt_put_free(&w, buffer);
	return bt_write(c, w.data, w.len);
}

int bt_reply(struct bt_conn *c, const struct binder_transaction_data *in,
	     const void *data, size_t size, const binder_size_t *offs, size_t noffs)
{
	struct bt_buf w = { .len = 0 };

	bt_put_free(&w, in->data.ptr.buffer);
	if (!(in->flags & TF_ONE_WAY)) {
		struct binder_transaction_data tr =
			bt_tr(0, 0, 0, data, size, offs, noffs * sizeof(binder_size_t));
		bt_put_tr(&w, BC_REPLY, &tr);
	}
	return bt_write(c, w.data, w.len);
}

int bt_reply_empty(struct bt_conn *c, const struct binder_transaction_data *in)
{
	return bt_reply(c, in, NULL, 0, NULL, 0);
}

int bt_send_reply(struct bt_conn *c, const void *data, size_t size)
{
	struct binder_transaction_data tr = bt_tr(0, 0, 0, data, size, NULL, 0);
	struct bt_buf w = { .len = 0 };

	bt_put_tr(&w, BC_REPLY, &tr);
	return bt_write(c, w.data, w.len);
}

int bt_expect(struct bt_conn *c, uint32_t cmd, struct bt_br *out, int timeout_ms)
{
	int64_t deadline = th_now_ms() + timeout_ms;
	struct bt_br br;

	for (;;) {
		int64_t left = deadline - th_now_ms();
		int ret = bt_next(c, &br, left > 0 ? (int)left : 0);

		if (ret)
			return ret;
		if (br.cmd == cmd) {
			if (out)
				*out = br;
			return 0;
		}
		if (br.cmd == BR_INCREFS || br.cmd == BR_ACQUIRE) {
			ack_node(c, &br);
			continue;
		}
		if (br.cmd == BR_RELEASE || br.cmd == BR_DECREFS || br.cmd == BR_SPAWN_LOOPER ||
		    br.cmd == BR_TRANSACTION_COMPLETE)
			continue;
		bt_fail_at(__FILE__, __LINE__, "expected %s, got %s", bt_br_name(cmd),
			   bt_br_name(br.cmd));
	}
}

/* ---- server loop ---------------------------------------------------------- */

int bt_serve(struct bt_conn *c, bt_handler_fn fn, void *arg, int n, int timeout_ms)
{
	int64_t deadline = th_now_ms() + timeout_ms;
	int handled = 0;
	struct bt_br br;

	while (handled < n) {
		int64_t left = deadline - th_now_ms();

		if (left <= 0 || bt_next(c, &br, (int)left))
			break;
		switch (br.cmd) {
		case BR_TRANSACTION:
		case BR_TRANSACTION_SEC_CTX:
			fn(c, &br.tr, arg);
			handled++;
			break;
		case BR_INCREFS:
		case BR_ACQUIRE:
		case BR_DEAD_BINDER:
			ack_node(c, &br);
			break;
		default:
			break;
		}
	}
	return handled;
}

void bt_serve_until(struct bt_conn *c, bt_handler_fn fn, void *arg, int rd, int slice_ms)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = rd, .events = POLLIN }, { .fd = c->fd, .events = POLLIN } };
		struct bt_br br;
		int ret;

		/* everything queued now, without waiting */
		while ((ret = bt_next(c, &br, 0)) == 0) {
			if (br.cmd == BR_TRANSACTION || br.cmd == BR_TRANSACTION_SEC_CTX)
				fn(c, &br.tr, arg);
			else
				ack_node(c, &br);
		}
		/*
		 * Then sleep until the parent writes (or closes its end) or the
		 * driver has work: no budget of slices, which on a slow guest
		 * would run out before the parent's command came.  slice_ms
		 * only guards against a lost wakeup.  A read that fails (say
		 * after munmap) waits on the pipe alone, not in a busy loop.
		 */
		if (poll(p, ret == -ETIMEDOUT ? 2 : 1, slice_ms) > 0 && p[0].revents)
			return;
	}
}

/* ---- helper processes ----------------------------------------------------- */

int bt_spawn(struct bt_child *ch, int (*fn)(void *arg, int rd, int wr), void *arg)
{
	int p2c[2], c2p[2];

	if (pipe2(p2c, O_CLOEXEC) || pipe2(c2p, O_CLOEXEC))
		return -errno;
	ch->pid = th_fork();
	if (ch->pid < 0)
		return ch->pid;
	if (ch->pid == 0) {
		int ret;

		bt_in_helper = 1;
		for (int fd = 3; fd < 1024; fd++)
			if (fd != p2c[0] && fd != c2p[1])
				close(fd);
		ret = fn(arg, p2c[0], c2p[1]);
		_exit(ret);
	}
	close(p2c[0]);
	close(c2p[1]);
	ch->to_child = p2c[1];
	ch->from_child = c2p[0];
	return 0;
}

int bt_spawn_ready(struct bt_child *ch, int (*fn)(void *arg, int rd, int wr), void *arg,
		   int timeout_ms)
{
	uint64_t v = ~0ull;
	int ret = bt_spawn(ch, fn, arg);

	if (ret)
		return ret;
	ret = bt_recv_u64(ch->from_child, &v, timeout_ms);
	if (ret || v) {
		bt_kill(ch);
		return ret ? ret : v < 4096 ? -(int)v : -EPROTO;
	}
	return 0;
}

int bt_join(struct bt_child *ch, int timeout_ms)
{
	int ret = th_wait(ch->pid, timeout_ms);

	if (ret < 0)
		return ret;
	ch->pid = 0;
	close(ch->to_child);
	close(ch->from_child);
	return ret;
}

void bt_kill(struct bt_child *ch)
{
	if (ch->pid <= 0)
		return;
	kill(ch->pid, SIGKILL);
	bt_join(ch, BT_TIMEOUT_MS);
}

int bt_send_u64(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v)) == sizeof(v) ? 0 : -EIO;
}

int bt_recv_u64(int fd, uint64_t *v, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, timeout_ms);

	if (r == 0)
		return -ETIMEDOUT;
	if (r < 0)
		return -errno;
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -EIO;
}

/* ---- the test context manager --------------------------------------------- */

struct cm_state {
	uint32_t slots[BT_SM_SLOTS];
	bool weak[BT_SM_SLOTS];
};

static void cm_handler(struct bt_conn *c, const struct binder_transaction_data *tr, void *arg)
{
	struct cm_state *s = arg;
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	const binder_size_t *offs = (const binder_size_t *)(uintptr_t)tr->data.ptr.offsets;
	uint32_t slot = 0;
	struct bt_buf w = { .len = 0 };

	if (tr->data_size >= 4)
		memcpy(&slot, data, 4);
	switch (tr->code) {
	case BT_SM_ADD: {
		struct flat_binder_object o;

		bt_require(slot < BT_SM_SLOTS && tr->data_size >= 8 + sizeof(o) &&
			   tr->offsets_size == sizeof(binder_size_t) && offs[0] == 8,
			   "bad SM_ADD");
		memcpy(&o, data + 8, sizeof(o));
		bt_require(o.hdr.type == BINDER_TYPE_HANDLE || o.hdr.type == BINDER_TYPE_WEAK_HANDLE,
			   "SM_ADD type %x", o.hdr.type);
		/* hold our own ref: the one the buffer holds goes with the buffer */
		bt_put_ref(&w, o.hdr.type == BINDER_TYPE_HANDLE ? BC_ACQUIRE : BC_INCREFS, o.handle);
		if (s->slots[slot])
			bt_put_ref(&w, s->weak[slot] ? BC_DECREFS : BC_RELEASE, s->slots[slot]);
		s->slots[slot] = o.handle;
		s->weak[slot] = o.hdr.type == BINDER_TYPE_WEAK_HANDLE;
		bt_require(bt_write(c, w.data, w.len) == 0, "SM_ADD acquire");
		bt_reply_empty(c, tr);
		break;
	}
	case BT_SM_GET: {
		if (slot < BT_SM_SLOTS && s->slots[slot] && !s->weak[slot]) {
			struct flat_binder_object o = bt_fbo_handle(BINDER_TYPE_HANDLE, s->slots[slot]);
			binder_size_t off = 0;

			bt_reply(c, tr, &o, sizeof(o), &off, 1);
		} else {
			uint32_t none = ~0u;

			bt_reply(c, tr, &none, sizeof(none), NULL, 0);
		}
		break;
	}
	case BT_SM_DEL:
		if (slot < BT_SM_SLOTS && s->slots[slot]) {
			bt_put_ref(&w, s->weak[slot] ? BC_DECREFS : BC_RELEASE, s->slots[slot]);
			s->slots[slot] = 0;
			bt_require(bt_write(c, w.data, w.len) == 0, "SM_DEL release");
		}
		bt_reply_empty(c, tr);
		break;
	case BT_SM_WHO: {
		uint32_t who[2] = { (uint32_t)tr->sender_pid, tr->sender_euid };

		bt_reply(c, tr, who, sizeof(who), NULL, 0);
		break;
	}
	case BT_SM_ECHO: {
		static uint8_t copy[BT_VM_SIZE_LIBBINDER];
		size_t n = tr->data_size < sizeof(copy) ? tr->data_size : sizeof(copy);

		memcpy(copy, data, n);
		bt_reply(c, tr, copy, n, NULL, 0);
		break;
	}
	default: /* PING and anything else: an empty reply */
		bt_reply_empty(c, tr);
		break;
	}
}

/* arg: the device path, NULL for th_device() */
static int cm_main(void *arg, int rd, int wr)
{
	struct cm_state st;
	struct bt_conn c;
	int ret;

	memset(&st, 0, sizeof(st));
	/* each step's errno goes to the parent, which prints it */
	ret = bt_open_at(&c, arg ? (const char *)arg : th_device(), BT_VM_SIZE_LIBBINDER);
	/* the previous test's manager may still be in deferred release */
	if (!ret)
		ret = bt_become_ctxmgr(&c, NULL, TH_HANG_MS);
	if (!ret)
		ret = bt_enter_looper(&c);
	bt_send_u64(wr, (uint64_t)(-ret));
	if (ret)
		return 11;
	/* until the parent closes its end or asks us to stop */
	bt_serve_until(&c, cm_handler, &st, rd, 200);
	return 0;
}

int bt_cm_start(struct bt_child *cm)
{
	return bt_cm_start_on(cm, NULL);
}

int bt_cm_start_on(struct bt_child *cm, const char *path)
{
	/* longer than the manager's own bound, so that its errno comes first */
	return bt_spawn_ready(cm, cm_main, (void *)path, TH_HANG_MS + 10000);
}

void bt_cm_stop(struct bt_child *cm)
{
	bt_kill(cm);
}

int bt_sm_add_result(struct bt_conn *c, uint32_t slot, const struct flat_binder_object *obj,
		     struct bt_result *r)
{
	struct {
		uint32_t slot, pad;
		struct flat_binder_object o;
	} d = { .slot = slot, .pad = 0, .o = *obj };
	binder_size_t off = 8;
	struct binder_transaction_data tr = bt_tr(0, BT_SM_ADD, TF_ACCEPT_FDS, &d, sizeof(d), &off,
						  sizeof(off));
	int ret = bt_call(c, &tr, r);

	if (ret == 0 && r->final == BR_REPLY)
		bt_free(c, r->reply.data.ptr.buffer);
	return ret;
}

uint32_t bt_sm_add(struct bt_conn *c, uint32_t slot, const struct flat_binder_object *obj)
{
	struct bt_result r;

	if (bt_sm_add_result(c, slot, obj, &r))
		return 0;
	return r.final;
}

int bt_sm_get(struct bt_conn *c, uint32_t slot, uint32_t *handle)
{
	struct binder_transaction_data tr = bt_tr(0, BT_SM_GET, TF_ACCEPT_FDS, &slot, sizeof(slot),
						  NULL, 0);
	struct flat_binder_object o;
	struct bt_buf w = { .len = 0 };
	struct bt_result r;
	int ret = bt_call(c, &tr, &r);

	*handle = 0;
	if (ret)
		return ret;
	if (r.final != BR_REPLY)
		return -EPROTO;
	if (r.reply.data_size != sizeof(o) || r.reply.offsets_size != sizeof(binder_size_t)) {
		bt_free(c, r.reply.data.ptr.buffer);
		return -ENOENT;
	}
	memcpy(&o, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(o));
	if (o.hdr.type != BINDER_TYPE_HANDLE) {
		bt_free(c, r.reply.data.ptr.buffer);
		return -EPROTO;
	}
	*handle = o.handle;
	bt_put_ref(&w, BC_ACQUIRE, o.handle);
	bt_put_free(&w, r.reply.data.ptr.buffer);
	return bt_write(c, w.data, w.len);
}

uint32_t bt_sm_del(struct bt_conn *c, uint32_t slot)
{
	struct binder_transaction_data tr = bt_tr(0, BT_SM_DEL, 0, &slot, sizeof(slot), NULL, 0);
	struct bt_result r;

	if (bt_call(c, &tr, &r))
		return 0;
	if (r.final == BR_REPLY)
		bt_free(c, r.reply.data.ptr.buffer);
	return r.final;
}

/* ---- the differences table ------------------------------------------------ */
#include "differences.h"

long bt_expected(const char *key, long mainline_value)
{
	char name[256];

	snprintf(name, sizeof(name), "%s/%s", criterion_current_suite->name,
		 criterion_current_test->name);
	for (const struct bt_difference *d = bt_differences; d->test; d++) {
		if (strcmp(d->test, name) || strcmp(d->key, key))
			continue;
		/* A row with .since: the test gives the older mainline's value,
		 * the row the value of mainline since that kernel. */
		bt_require(d->since || d->mainline == mainline_value,
			   "differences.h row %s/%s says mainline %ld, test says %ld", name, key,
			   d->mainline, mainline_value);
		if (bt_driver() == BT_BINDERC) {
			cr_log_info("known difference %s/%s: %s", name, key, d->reason);
			return d->binderc;
		}
		if (d->since && th_kernel() < d->since)
			return mainline_value;
		return d->mainline;
	}
	return mainline_value;
}

void bt_pattern(uint8_t *p, size_t n, uint32_t seq)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seq * 131 + i * 7 + 1);
}

bool bt_has_pattern(const uint8_t *p, size_t n, uint32_t seq)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)(seq * 131 + i * 7 + 1))
			return false;
	return true;
}
