// SPDX-License-Identifier: MIT
/*
 * binderc-bench: binder through raw ioctls (no library), for any device.
 *
 * Rendezvous: the orchestrator starts one registry per device, a tiny
 * context manager that stores handles by key:
 *   REG_CODE    u32 key, pad, flat_binder_object at offset 8 (any 4-aligned
 *               offset named by the first offsets entry works) -> empty reply
 *   LOOKUP_CODE u32 key -> reply: flat_binder_object (handle) at 0, or
 *               u32 ~0 when the key is unknown
 *   PING        -> empty reply
 * A benchmark server opens the device, registers one local node under its
 * key and serves; the client looks the key up and calls the handle.  Both
 * keep the handles they receive with BC_ACQUIRE before freeing the buffer
 * that carried them.
 *
 * The command stream follows libbinder's habits: a received buffer is freed
 * with BC_FREE_BUFFER sent together with the next command, BR_INCREFS and
 * BR_ACQUIRE are acknowledged in the next write, the server replies with
 * BC_REPLY and reads BR_TRANSACTION_COMPLETE before blocking again.
 */
#include "bench.h"
#include "bbinder.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ---- connection ------------------------------------------------------------ */

int bb_open(struct bb_conn *c, const char *dev, size_t map_size)
{
	struct binder_version v = { 0 };
	uint32_t maxthr = 0;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->fd = open(dev, O_RDWR | O_CLOEXEC);
	if (c->fd < 0)
		return bench_fail(-errno, "open %s: %s", dev, strerror(errno));
	if (ioctl(c->fd, BINDER_VERSION, &v) < 0) {
		int e = errno;
		bb_close(c);
		return bench_fail(-e, "BINDER_VERSION: %s", strerror(e));
	}
	if (v.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION) {
		bb_close(c);
		return bench_fail(-EPROTO, "protocol version %d", v.protocol_version);
	}
	c->map = mmap(NULL, map_size, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, c->fd, 0);
	if (c->map == MAP_FAILED) {
		int e = errno;
		c->map = NULL;
		bb_close(c);
		return bench_fail(-e, "mmap %zu: %s", map_size, strerror(e));
	}
	c->map_size = map_size;
	if (ioctl(c->fd, BINDER_SET_MAX_THREADS, &maxthr) < 0) {
		int e = errno;
		bb_close(c);
		return bench_fail(-e, "BINDER_SET_MAX_THREADS: %s", strerror(e));
	}
	return 0;
}

void bb_close(struct bb_conn *c)
{
	if (c->map)
		munmap(c->map, c->map_size);
	if (c->fd >= 0)
		close(c->fd);
	c->map = NULL;
	c->fd = -1;
}

static void put(struct bb_conn *c, const void *p, size_t n)
{
	/* Callers keep well below the size; overflowing is a program bug. */
	if (c->wlen + n > sizeof(c->wbuf))
		abort();
	memcpy(c->wbuf + c->wlen, p, n);
	c->wlen += n;
}

void bb_put_cmd(struct bb_conn *c, uint32_t cmd, const void *arg, size_t n)
{
	put(c, &cmd, sizeof(cmd));
	if (n)
		put(c, arg, n);
}

static void flush_free(struct bb_conn *c)
{
	if (c->pending_free) {
		binder_uintptr_t b = c->pending_free;
		bb_put_cmd(c, BC_FREE_BUFFER, &b, sizeof(b));
		c->pending_free = 0;
	}
}

/* One BINDER_WRITE_READ: everything queued, then (when @want_read and the
 * previous read is used up) read into c->rbuf. */
static int bb_ioctl(struct bb_conn *c, bool want_read)
{
	bool do_read = want_read && c->rpos >= c->rlen;
	struct binder_write_read bwr = {
		.write_size = c->wlen,
		.write_buffer = (binder_uintptr_t)c->wbuf,
		.read_size = do_read ? sizeof(c->rbuf) : 0,
		.read_buffer = (binder_uintptr_t)c->rbuf,
	};

	for (;;) {
		if (ioctl(c->fd, BINDER_WRITE_READ, &bwr) == 0)
			break;
		if (errno != EINTR)
			return bench_fail(-errno, "BINDER_WRITE_READ: %s", strerror(errno));
	}
	if (bwr.write_consumed < bwr.write_size)
		return bench_fail(-EPROTO, "BINDER_WRITE_READ consumed %llu of %llu bytes",
				  (unsigned long long)bwr.write_consumed, (unsigned long long)bwr.write_size);
	c->wlen = 0;
	if (do_read) {
		c->rlen = bwr.read_consumed;
		c->rpos = 0;
	}
	return 0;
}

static int take(struct bb_conn *c, void *p, size_t n)
{
	if (c->rpos + n > c->rlen)
		return bench_fail(-EPROTO, "truncated BR payload");
	memcpy(p, c->rbuf + c->rpos, n);
	c->rpos += n;
	return 0;
}

/*
 * Read the next BR; handles the housekeeping ones (NOOP, SPAWN_LOOPER,
 * ref-count requests) itself.  Fills @tr for transactions and replies.
 * Issues a read-only ioctl when the buffer is used up (blocking).
 */
static int bb_next(struct bb_conn *c, uint32_t *cmd, struct binder_transaction_data *tr)
{
	for (;;) {
		if (c->rpos >= c->rlen) {
			int r = bb_ioctl(c, true);
			if (r < 0)
				return r;
			continue;
		}
		uint32_t br = 0;
		int r = take(c, &br, sizeof(br));
		if (r < 0)
			return r;
		switch (br) {
		case BR_NOOP:
		case BR_SPAWN_LOOPER:
			continue;
		case BR_INCREFS:
		case BR_ACQUIRE: {
			struct binder_ptr_cookie pc;
			if ((r = take(c, &pc, sizeof(pc))) < 0)
				return r;
			bb_put_cmd(c, br == BR_INCREFS ? BC_INCREFS_DONE : BC_ACQUIRE_DONE, &pc, sizeof(pc));
			c->n_acks++;
			continue;
		}
		case BR_RELEASE:
		case BR_DECREFS: {
			struct binder_ptr_cookie pc;
			if ((r = take(c, &pc, sizeof(pc))) < 0)
				return r;
			continue;
		}
		case BR_TRANSACTION_SEC_CTX: {
			struct binder_transaction_data_secctx s;
			if ((r = take(c, &s, sizeof(s))) < 0)
				return r;
			*tr = s.transaction_data;
			*cmd = BR_TRANSACTION;
			return 0;
		}
		case BR_TRANSACTION:
		case BR_REPLY:
			if ((r = take(c, tr, sizeof(*tr))) < 0)
				return r;
			*cmd = br;
			return 0;
		case BR_TRANSACTION_COMPLETE:
		case BR_ONEWAY_SPAM_SUSPECT:
			*cmd = BR_TRANSACTION_COMPLETE;
			return 0;
		case BR_DEAD_REPLY:
			return bench_fail(-EPIPE, "BR_DEAD_REPLY");
		case BR_FAILED_REPLY:
			return bench_fail(-EIO, "BR_FAILED_REPLY");
		case BR_FROZEN_REPLY:
			return bench_fail(-EAGAIN, "BR_FROZEN_REPLY");
		case BR_ERROR: {
			int32_t e = 0;
			take(c, &e, sizeof(e));
			return bench_fail(-EIO, "BR_ERROR %d", e);
		}
		case BR_DEAD_BINDER:
		case BR_CLEAR_DEATH_NOTIFICATION_DONE: {
			binder_uintptr_t ck;
			if ((r = take(c, &ck, sizeof(ck))) < 0)
				return r;
			continue;
		}
		default:
			return bench_fail(-EPROTO, "unexpected BR 0x%08x", br);
		}
	}
}

int bb_transact(struct bb_conn *c, uint32_t handle, uint32_t code, uint32_t flags, const void *data,
		size_t size, const binder_size_t *offs, size_t noffs, struct binder_transaction_data *reply)
{
	struct binder_transaction_data tr = {
		.target.handle = handle,
		.code = code,
		.flags = flags | TF_ACCEPT_FDS,
		.data_size = size,
		.offsets_size = noffs * sizeof(binder_size_t),
		.data.ptr.buffer = (binder_uintptr_t)data,
		.data.ptr.offsets = (binder_uintptr_t)offs,
	};
	uint32_t cmd;
	int r;

	flush_free(c);
	bb_put_cmd(c, BC_TRANSACTION, &tr, sizeof(tr));
	if ((r = bb_ioctl(c, true)) < 0)
		return r;
	for (;;) {
		struct binder_transaction_data in;
		if ((r = bb_next(c, &cmd, &in)) < 0)
			return r;
		if (cmd == BR_TRANSACTION_COMPLETE) {
			if (flags & TF_ONE_WAY)
				return 0;
			continue;
		}
		if (cmd == BR_REPLY) {
			c->pending_free = in.data.ptr.buffer;
			if (in.flags & TF_STATUS_CODE) {
				int32_t st = 0;
				if (in.data_size >= 4)
					memcpy(&st, (void *)(uintptr_t)in.data.ptr.buffer, 4);
				return bench_fail(-EREMOTEIO, "reply status %d", st);
			}
			if (reply)
				*reply = in;
			return 0;
		}
		return bench_fail(-EPROTO, "unexpected transaction while waiting for a reply");
	}
}

int bb_reply(struct bb_conn *c, const struct binder_transaction_data *in, const void *data, size_t size,
	     const binder_size_t *offs, size_t noffs)
{
	struct binder_transaction_data tr = {
		.data_size = size,
		.offsets_size = noffs * sizeof(binder_size_t),
		.data.ptr.buffer = (binder_uintptr_t)data,
		.data.ptr.offsets = (binder_uintptr_t)offs,
	};
	binder_uintptr_t b = in->data.ptr.buffer;
	uint32_t cmd;
	int r;

	bb_put_cmd(c, BC_FREE_BUFFER, &b, sizeof(b));
	bb_put_cmd(c, BC_REPLY, &tr, sizeof(tr));
	if ((r = bb_ioctl(c, true)) < 0)
		return r;
	for (;;) {
		struct binder_transaction_data x;
		if ((r = bb_next(c, &cmd, &x)) < 0)
			return r;
		if (cmd == BR_TRANSACTION_COMPLETE)
			return 0;
		if (cmd == BR_TRANSACTION && !c->stashed) {
			c->stash = x;
			c->stashed = true;
			continue;
		}
		return bench_fail(-EPROTO, "unexpected BR 0x%x after BC_REPLY", cmd);
	}
}

int bb_wait_txn(struct bb_conn *c, struct binder_transaction_data *tr)
{
	uint32_t cmd;
	int r;

	if (c->stashed) {
		*tr = c->stash;
		c->stashed = false;
		return 0;
	}
	for (;;) {
		if ((r = bb_next(c, &cmd, tr)) < 0)
			return r;
		if (cmd == BR_TRANSACTION)
			return 0;
		if (cmd == BR_TRANSACTION_COMPLETE)
			continue;
		return bench_fail(-EPROTO, "unexpected BR 0x%x while serving", cmd);
	}
}

int bb_enter_looper(struct bb_conn *c)
{
	bb_put_cmd(c, BC_ENTER_LOOPER, NULL, 0);
	return bb_ioctl(c, false);
}

void bb_free_now(struct bb_conn *c, const struct binder_transaction_data *tr)
{
	binder_uintptr_t b = tr->data.ptr.buffer;
	bb_put_cmd(c, BC_FREE_BUFFER, &b, sizeof(b));
}

/* ---- registry ---------------------------------------------------------------- */

#define REG_SLOTS 256

static int registry_serve(struct bb_conn *c)
{
	struct {
		unsigned key;
		uint32_t handle;
		bool used;
	} slot[REG_SLOTS] = { 0 };
	int r;

	for (;;) {
		struct binder_transaction_data tr;
		if ((r = bb_wait_txn(c, &tr)) < 0)
			return r;
		const uint8_t *data = (const void *)(uintptr_t)tr.data.ptr.buffer;
		const binder_size_t *offs = (const void *)(uintptr_t)tr.data.ptr.offsets;
		uint32_t key = 0;
		if (tr.data_size >= 4)
			memcpy(&key, data, 4);
		if (tr.code == BENCH_REG_CODE) {
			struct flat_binder_object fo;
			if (tr.offsets_size < sizeof(binder_size_t) || offs[0] + sizeof(fo) > tr.data_size) {
				bb_reply(c, &tr, NULL, 0, NULL, 0);
				continue;
			}
			memcpy(&fo, data + offs[0], sizeof(fo));
			if (fo.hdr.type == BINDER_TYPE_HANDLE) {
				unsigned s = key % REG_SLOTS;
				bb_put_cmd(c, BC_ACQUIRE, &fo.handle, sizeof(fo.handle));
				if (slot[s].used && slot[s].handle != fo.handle)
					bb_put_cmd(c, BC_RELEASE, &slot[s].handle, sizeof(slot[s].handle));
				slot[s].key = key;
				slot[s].handle = fo.handle;
				slot[s].used = true;
			}
			if ((r = bb_reply(c, &tr, NULL, 0, NULL, 0)) < 0)
				return r;
		} else if (tr.code == BENCH_LOOKUP_CODE) {
			unsigned s = key % REG_SLOTS;
			if (slot[s].used && slot[s].key == key) {
				struct flat_binder_object fo = {
					.hdr.type = BINDER_TYPE_HANDLE,
					.handle = slot[s].handle,
				};
				static const binder_size_t off0[1] = { 0 };
				if ((r = bb_reply(c, &tr, &fo, sizeof(fo), off0, 1)) < 0)
					return r;
			} else {
				uint32_t none = ~0u;
				if ((r = bb_reply(c, &tr, &none, sizeof(none), NULL, 0)) < 0)
					return r;
			}
		} else {
			if ((r = bb_reply(c, &tr, NULL, 0, NULL, 0)) < 0)
				return r;
		}
	}
}

pid_t registry_start(const char *device, int timeout_ms)
{
	int p[2];
	char msg[BENCH_ERRLEN + 1] = { 0 };

	if (pipe2(p, O_CLOEXEC) < 0)
		return bench_fail(-errno, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return bench_fail(-errno, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		struct bb_conn c;
		int r;

		close(p[0]);
		setpgid(0, 0);
		signal(SIGPIPE, SIG_IGN);
		if ((r = bb_open(&c, device, BENCH_MAP_SIZE)) < 0)
			goto fail;
		/* A previous manager's release is deferred in the kernel. */
		uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000u;
		for (;;) {
			int zero = 0;
			if (ioctl(c.fd, BINDER_SET_CONTEXT_MGR, &zero) == 0)
				break;
			if (errno != EBUSY || now_ns() > end) {
				r = bench_fail(-errno, "BINDER_SET_CONTEXT_MGR: %s", strerror(errno));
				goto fail;
			}
			nanosleep(&(struct timespec){ 0, 2000000 }, NULL);
		}
		if ((r = bb_enter_looper(&c)) < 0)
			goto fail;
		write_full(p[1], "", 1);
		close(p[1]);
		r = registry_serve(&c);
		fprintf(stderr, "bench: registry on %s: %s\n", device, bench_err);
		_exit(1);
fail:
		write_full(p[1], bench_err, strlen(bench_err) + 1);
		_exit(1);
	}
	close(p[1]);
	int w = wait_readable(p[0], timeout_ms + 2000);
	ssize_t n = w > 0 ? read(p[0], msg, sizeof(msg) - 1) : -1;
	close(p[0]);
	if (n == 1 && msg[0] == 0)
		return pid;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	if (n > 1)
		return bench_fail(-EIO, "registry: %s", msg);
	return bench_fail(-ETIMEDOUT, "registry on %s did not start", device);
}

/* Register local node @ptr under @key (with the registry on handle 0). */
int bb_register(struct bb_conn *c, unsigned key, binder_uintptr_t ptr, uint32_t extra_flags)
{
	struct {
		uint32_t key, pad;
		struct flat_binder_object fo;
	} req = {
		.key = key,
		.fo = {
			.hdr.type = BINDER_TYPE_BINDER,
			.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | extra_flags,
			.binder = ptr,
			.cookie = 0,
		},
	};
	static const binder_size_t off[1] = { 8 };

	return bb_transact(c, 0, BENCH_REG_CODE, 0, &req, sizeof(req), off, 1, NULL);
}

/* Look @key up; on success *@handle is a handle we hold a strong ref on.
 * Retries while the key is unknown, up to @timeout_ms. */
int bb_lookup(struct bb_conn *c, unsigned key, uint32_t *handle, int timeout_ms)
{
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000u;
	uint32_t k = key;
	int r;

	for (;;) {
		struct binder_transaction_data rep;
		if ((r = bb_transact(c, 0, BENCH_LOOKUP_CODE, 0, &k, sizeof(k), NULL, 0, &rep)) < 0)
			return r;
		if (rep.offsets_size >= sizeof(binder_size_t) && rep.data_size >= sizeof(struct flat_binder_object)) {
			struct flat_binder_object fo;
			const binder_size_t *offs = (const void *)(uintptr_t)rep.data.ptr.offsets;
			memcpy(&fo, (const uint8_t *)(uintptr_t)rep.data.ptr.buffer + offs[0], sizeof(fo));
			if (fo.hdr.type != BINDER_TYPE_HANDLE)
				return bench_fail(-EPROTO, "lookup: object type 0x%x", fo.hdr.type);
			/* Keep the ref past the buffer (freed with the next command). */
			bb_put_cmd(c, BC_ACQUIRE, &fo.handle, sizeof(fo.handle));
			*handle = fo.handle;
			return 0;
		}
		if (now_ns() > end)
			return bench_fail(-ENOENT, "lookup: key %u not registered", key);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

/* ---- the benchmark contender ---------------------------------------------- */

struct bpriv {
	struct bb_conn conn;
	uint32_t handle;
	void *objs;
	binder_size_t *offs;
	size_t objs_size, noffs;
	int devnull;
};

static uint8_t server_node; /* its address is the server's node ptr */
static uint64_t client_nodes[64 * 2];

static int bnd_make(struct chan *c, const struct workload *w, int index)
{
	(void)w;
	c->index = index;
	return 0;
}

static int bnd_serve(struct chan *c, const struct workload *w, int ready_fd, int done_fd)
{
	struct bb_conn *b = malloc(sizeof(*b));
	long oneways = 0;
	int r;

	if (!b)
		return bench_fail(-ENOMEM, "out of memory");
	size_t msz = w->kind == WL_ONEWAY ? BENCH_MAP_SIZE_ONEWAY : BENCH_MAP_SIZE;
	if ((r = bb_open(b, c->device, msz)) < 0)
		return r;
	if ((r = bb_enter_looper(b)) < 0)
		return r;
	if ((r = bb_register(b, w->key + (unsigned)c->index, (binder_uintptr_t)&server_node,
			     w->rt_inherit ? BB_FLAG_INHERIT_RT : 0)) < 0)
		return bench_fail(r, "register: %s", bench_err);
	if ((r = write_full(ready_fd, "r", 1)) < 0)
		return r;
	for (;;) {
		struct binder_transaction_data tr;
		if ((r = bb_wait_txn(b, &tr)) < 0)
			return bench_fail(r, "server: %s", bench_err);
		if (tr.code == BENCH_QUIT_CODE)
			return 0;
		if (tr.code == BENCH_ONEWAY_CODE) {
			bb_free_now(b, &tr);
			if (++oneways == w->iters && done_fd >= 0 && (r = write_full(done_fd, "d", 1)) < 0)
				return r;
			continue;
		}
		if (tr.offsets_size) {
			/* Single fds are the receiver's to close (the kernel
			 * does not close them when the buffer is freed). */
			const uint8_t *data = (const void *)(uintptr_t)tr.data.ptr.buffer;
			const binder_size_t *offs = (const void *)(uintptr_t)tr.data.ptr.offsets;
			for (size_t i = 0; i < tr.offsets_size / sizeof(binder_size_t); i++) {
				struct binder_fd_object fo;
				memcpy(&fo, data + offs[i], sizeof(fo));
				if (fo.hdr.type == BINDER_TYPE_FD)
					close((int)fo.fd);
			}
		}
		if ((r = bb_reply(b, &tr, NULL, 0, NULL, 0)) < 0)
			return bench_fail(r, "server: reply: %s", bench_err);
	}
}

static int bnd_connect(struct chan *c, const struct workload *w)
{
	struct bpriv *p = calloc(1, sizeof(*p));
	int r;

	if (!p)
		return bench_fail(-ENOMEM, "out of memory");
	c->priv = p;
	p->devnull = -1;
	if ((r = bb_open(&p->conn, c->device, BENCH_MAP_SIZE)) < 0)
		return r;
	if ((r = bb_lookup(&p->conn, w->key + (unsigned)c->index, &p->handle, 5000)) < 0)
		return r;
	if (w->kind == WL_OBJECTS) {
		size_t n = w->fd ? 1 : (size_t)w->nobj;
		p->objs_size = n * sizeof(struct flat_binder_object);
		p->noffs = n;
		p->objs = calloc(n, sizeof(struct flat_binder_object));
		p->offs = calloc(n, sizeof(binder_size_t));
		if (!p->objs || !p->offs)
			return bench_fail(-ENOMEM, "out of memory");
		if (w->fd) {
			struct binder_fd_object *fo = p->objs;
			if ((p->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
				return bench_fail(-errno, "open /dev/null: %s", strerror(errno));
			fo->hdr.type = BINDER_TYPE_FD;
			fo->fd = (uint32_t)p->devnull;
			p->offs[0] = 0;
		} else {
			struct flat_binder_object *fo = p->objs;
			for (size_t i = 0; i < n; i++) {
				fo[i].hdr.type = BINDER_TYPE_BINDER;
				fo[i].flags = FLAT_BINDER_FLAG_ACCEPTS_FDS;
				fo[i].binder = (binder_uintptr_t)&client_nodes[2 * i];
				fo[i].cookie = i;
				p->offs[i] = i * sizeof(*fo);
			}
		}
	}
	return 0;
}

static int bnd_call(struct chan *c, const struct workload *w)
{
	struct bpriv *p = c->priv;
	struct binder_transaction_data rep;

	if (w->kind == WL_OBJECTS)
		return bb_transact(&p->conn, p->handle, BENCH_CALL_CODE, 0, p->objs, p->objs_size, p->offs, p->noffs,
				   &rep);
	return bb_transact(&p->conn, p->handle, BENCH_CALL_CODE, 0, bench_payload, w->payload, NULL, 0, &rep);
}

static int bnd_oneway(struct chan *c, const struct workload *w)
{
	struct bpriv *p = c->priv;

	return bb_transact(&p->conn, p->handle, BENCH_ONEWAY_CODE, TF_ONE_WAY, bench_payload, w->payload, NULL, 0,
			   NULL);
}

static void bnd_close(struct chan *c)
{
	struct bpriv *p = c->priv;

	if (!p)
		return;
	if (p->conn.fd > 0) {
		/* Best effort: ask the server to exit (the runner kills it
		 * anyway).  Oneway, so a dead server cannot block us. */
		bb_transact(&p->conn, p->handle, BENCH_QUIT_CODE, TF_ONE_WAY, NULL, 0, NULL, 0, NULL);
		bb_close(&p->conn);
	}
	if (p->devnull >= 0)
		close(p->devnull);
	free(p->objs);
	free(p->offs);
	free(p);
	c->priv = NULL;
}

const struct ipc_ops ipc_binder = {
	.name = "binder",
	.binder = true,
	.can_objects = true,
	.can_fd = true,
	.can_oneway = true,
	.make = bnd_make,
	.serve = bnd_serve,
	.connect = bnd_connect,
	.call = bnd_call,
	.send_oneway = bnd_oneway,
	.close = bnd_close,
};
