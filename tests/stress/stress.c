// SPDX-License-Identifier: MIT
/*
 * binderc-stress: the kill storm.  N worker processes (default 32), each
 * with client threads and a looper pool, make sync, nested and oneway calls
 * through each other's nodes while the parent SIGKILLs and restarts random
 * workers, for a fixed time.
 *
 *   binderc-stress [--seed S] [--seconds N] [--procs N] [--clients T]
 *                  [--kill-ms MS] [--hang-ms MS] [--device DEV] [--allow-leak KIND,...]
 *                  [--no-kill] [--freeze-ms MS] [--reports]
 *
 * --freeze-ms: about every MS the parent freezes a random worker
 * (BINDER_FREEZE, as a container manager would) or thaws the frozen one;
 * sync calls to a frozen worker end in BR_FROZEN_REPLY, oneways are queued
 * (BR_TRANSACTION_PENDING_FROZEN) and must arrive after the thaw.
 * --reports: a listener process reads the driver's transaction reports
 * (<binderc/report.h>) during the whole storm; a read error is a violation,
 * and failed calls with no report at all, where a report family exists,
 * are one too.
 *
 * --allow-leak names live-object kinds not to count at the end (a known
 * finding in mainline must not fail every run; see tests/fuzz/README.md).
 *   env: BINDER_DEVICE, BINDERC_STRESS_SECONDS, BINDERC_STRESS_PROCS,
 *        BINDERC_STRESS_SEED, BINDERC_FAULT (set by the fault-injection
 *        harness: worker set-up failures are tolerated, not violations)
 *
 * A registry process (the context manager, never killed) maps worker slots
 * to handles of the current incarnation's node.  Calls:
 *   ECHO     sync; the reply must carry the same nonce
 *   NEST     sync; the callee makes a sync ECHO call to a third worker
 *   CALLBACK sync, carrying the caller's node; the callee calls it back
 *            (the driver must route that to the waiting caller thread)
 *   ONEWAY   numbered per (sender incarnation, thread, target incarnation)
 *
 * Invariants:
 *   - every sync call ends in BR_REPLY, BR_DEAD_REPLY or BR_FAILED_REPLY;
 *     one taking longer than --hang-ms is a hang (kernel stacks printed);
 *   - a node sees each sender thread's oneways in order with no gap; after
 *     the storm (no more kills) every oneway a live sender had completed
 *     to a live target has arrived;
 *   - ECHO replies carry the caller's nonce;
 *   - after every process exited the driver's live-object counters are 0.
 * Exit 0 when all hold, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uapi/binder.h>

#include <binderc/report.h>

#include "../fuzz/fz.h"

#define MAXP        64
#define MAXC        4          /* client threads */
#define MAXL        8          /* loopers */
#define MAP_SIZE    (256 * 1024)
#define SETUP_FAILED 10
#define NREC        (MAXC + MAXL + 1)  /* clients, loopers, main thread */

enum { C_REG = 1, C_LOOKUP, C_ECHO, C_NEST, C_CALLBACK, C_ONEWAY };

struct call_rec {
	_Atomic int64_t start_ms;  /* 0: idle */
	_Atomic uint32_t target, code;
};

struct seq_rec {
	_Atomic uint32_t sender_inc, target_inc, n;
};

struct wslot {
	_Atomic pid_t pid;
	_Atomic uint32_t inc;
	_Atomic int ready;         /* registered, threads running */
	_Atomic int idle;          /* clients stopped (quiesce) */
	struct call_rec call[NREC];
};

struct shared {
	_Atomic int quiesce;
	_Atomic int cm_ready;
	_Atomic uint64_t violations;
	_Atomic uint64_t n_reply, n_dead, n_failed, n_nested, n_callback, n_oneway_sent,
		n_oneway_recv, n_oneway_failed, n_lookup, n_setup_failed, n_br_error, n_frozen,
		n_oneway_queued, n_freezes, n_freeze_busy, n_reports, n_reports_lost;
	_Atomic int reports_joined;	/* 1: listening, -1: no report family */
	_Atomic int reports_stop;
	struct wslot w[MAXP];
	struct seq_rec sent[MAXP][MAXC][MAXP];  /* [sender][thread][target] */
	struct seq_rec recv[MAXP][MAXP][MAXC];  /* [target][sender][thread] */
};

static struct shared *sh;
static uint64_t o_seed;
static unsigned o_procs = 32, o_clients = 2;
static uint64_t o_seconds = 60;
static int64_t o_kill_ms = 400, o_hang_ms = TH_HANG_MS;
static const char *o_dev;
static bool o_kill = true, o_fault, o_reports;
static int64_t o_freeze_ms;

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void violation(const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	atomic_fetch_add(&sh->violations, 1);
	fprintf(stderr, "binderc-stress: VIOLATION seed 0x%" PRIx64 " pid %d: %s\n", o_seed,
		(int)getpid(), msg);
}

/* ---- one thread's connection ------------------------------------------------ */

struct conn {
	int fd;
	uint8_t rbuf[2048];
	size_t rlen, rpos;
	struct call_rec *rec;
	int depth;
};

struct br {
	uint32_t cmd;
	union {
		struct binder_transaction_data tr;
		struct binder_ptr_cookie pc;
		binder_uintptr_t cookie;
		uint8_t raw[80];
	};
};

/*
 * Payload bytes after each BR command word.  BR_ERROR is declared
 * _IOR('r', 0, __s32), but neither driver sends the int: mainline 6.1 queues
 * the error as a BINDER_WORK_RETURN_ERROR work item and binder_thread_read()
 * writes only e->cmd (binderc's driver/read.c does the same), so it is the
 * bare 4-byte word.  Counting 4 more would eat the next command.
 */
static size_t br_size(uint32_t cmd)
{
	switch (cmd) {
	case BR_ERROR: return 0;
	case BR_ACQUIRE_RESULT: return 4;
	case BR_TRANSACTION: case BR_REPLY: return sizeof(struct binder_transaction_data);
	case BR_TRANSACTION_SEC_CTX: return sizeof(struct binder_transaction_data_secctx);
	case BR_INCREFS: case BR_ACQUIRE: case BR_RELEASE: case BR_DECREFS:
		return sizeof(struct binder_ptr_cookie);
	case BR_ATTEMPT_ACQUIRE: return sizeof(struct binder_pri_ptr_cookie);
	case BR_DEAD_BINDER: case BR_CLEAR_DEATH_NOTIFICATION_DONE: return 8;
	default: return 0;
	}
}

/* Read more BRs into c's queue, after the ones not parsed yet. */
static int fill(struct conn *c)
{
	struct binder_write_read bwr = { 0 };

	memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
	c->rlen -= c->rpos;
	c->rpos = 0;
	bwr.read_buffer = (uintptr_t)(c->rbuf + c->rlen);
	bwr.read_size = sizeof(c->rbuf) - c->rlen;
	for (;;) {
		if (ioctl(c->fd, BINDER_WRITE_READ, &bwr) == 0)
			break;
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
	c->rlen += bwr.read_consumed;
	return 0;
}

/*
 * Write commands, all of them.  While a BR_ERROR waits to be read (an
 * allocation failed in the driver, e.g. for a death notification) both
 * drivers stop taking commands: the ioctl succeeds with write_consumed
 * short.  Queue the BRs (the error among them) and send the rest, as
 * libbinder does; taking a short write for a whole one leaves the caller
 * waiting for the answer to a call that was never made.
 */
static int wr(struct conn *c, const void *w, size_t n)
{
	struct binder_write_read bwr = { 0 };

	bwr.write_buffer = (uintptr_t)w;
	bwr.write_size = n;
	for (int tries = 0;; tries++) {
		int rc;

		if (ioctl(c->fd, BINDER_WRITE_READ, &bwr) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (bwr.write_consumed >= n)
			return 0;
		if (tries == 100) {
			violation("write of %zu bytes stuck at %llu", n,
				  (unsigned long long)bwr.write_consumed);
			return -EPROTO;
		}
		rc = fill(c);
		if (rc)
			return rc;
	}
}

static int cmd0(struct conn *c, uint32_t cmd)
{
	return wr(c, &cmd, sizeof(cmd));
}

static int cmd32(struct conn *c, uint32_t cmd, uint32_t arg)
{
	uint32_t w[2] = { cmd, arg };

	return wr(c, w, sizeof(w));
}

static int cmd64(struct conn *c, uint32_t cmd, uint64_t arg)
{
	uint8_t w[12];

	memcpy(w, &cmd, 4);
	memcpy(w + 4, &arg, 8);
	return wr(c, w, sizeof(w));
}

/* Next BR (NOOP skipped), blocking.  0 or -errno. */
static int next_br(struct conn *c, struct br *b)
{
	for (;;) {
		if (c->rpos + 4 <= c->rlen) {
			size_t sz;

			memcpy(&b->cmd, c->rbuf + c->rpos, 4);
			sz = br_size(b->cmd);
			if (c->rpos + 4 + sz > c->rlen) {
				violation("BR %#x truncated in the read buffer", b->cmd);
				c->rlen = c->rpos = 0;
				return -EPROTO;
			}
			memcpy(b->raw, c->rbuf + c->rpos + 4, sz);
			c->rpos += 4 + sz;
			if (b->cmd == BR_NOOP)
				continue;
			return 0;
		}
		{
			int rc = fill(c);

			if (rc)
				return rc;
		}
	}
}

/* ---- worker state -------------------------------------------------------------- */

struct cache_ent {
	uint32_t handle, inc;
	bool have, valid, death;
};

static struct {
	unsigned slot, inc;
	int fd;
	pthread_mutex_t lock;
	struct cache_ent cache[MAXP];
	unsigned loopers, max_loopers;
	struct {
		uint64_t pad;
	} node;
} W;

static void *looper_main(void *arg);
static int handle_tx(struct conn *c, const struct binder_transaction_data *tr);

static void spawn_looper(void)
{
	pthread_attr_t at;
	pthread_t th;
	unsigned idx;

	pthread_mutex_lock(&W.lock);
	if (W.loopers >= W.max_loopers) {
		pthread_mutex_unlock(&W.lock);
		return;
	}
	idx = W.loopers++;
	pthread_mutex_unlock(&W.lock);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&at, 128 * 1024);
	if (pthread_create(&th, &at, looper_main, (void *)(uintptr_t)idx))
		violation("pthread_create failed");
	pthread_attr_destroy(&at);
}

static void on_dead_binder(struct conn *c, binder_uintptr_t cookie)
{
	unsigned j = (unsigned)(cookie >> 32), inc = (unsigned)cookie;

	pthread_mutex_lock(&W.lock);
	if (j < MAXP && W.cache[j].have && W.cache[j].inc == inc)
		W.cache[j].valid = false;
	pthread_mutex_unlock(&W.lock);
	cmd64(c, BC_DEAD_BINDER_DONE, cookie);
}

/* Work that may arrive on any thread; true if b was consumed. */
static bool common_br(struct conn *c, const struct br *b)
{
	switch (b->cmd) {
	case BR_INCREFS:
	case BR_ACQUIRE: {
		uint8_t w[20];
		uint32_t cmd = b->cmd == BR_INCREFS ? BC_INCREFS_DONE : BC_ACQUIRE_DONE;

		memcpy(w, &cmd, 4);
		memcpy(w + 4, &b->pc, sizeof(b->pc));
		wr(c, w, sizeof(w));
		return true;
	}
	case BR_RELEASE: case BR_DECREFS: case BR_CLEAR_DEATH_NOTIFICATION_DONE:
	case BR_TRANSACTION_COMPLETE: case BR_FINISHED: case BR_OK:
		return true;
	case BR_SPAWN_LOOPER:
		spawn_looper();
		return true;
	case BR_DEAD_BINDER:
		on_dead_binder(c, b->cookie);
		return true;
	case BR_ERROR:
		atomic_fetch_add(&sh->n_br_error, 1);
		if (!o_fault)
			violation("BR_ERROR (an allocation failed in the driver)");
		return true;
	case BR_TRANSACTION:
	case BR_TRANSACTION_SEC_CTX:
		handle_tx(c, &b->tr);
		return true;
	default:
		return false;
	}
}

/* Send a transaction and wait for its outcome.  sync: BR_REPLY (reply
 * copied, its buffer to be freed by the caller), BR_DEAD_REPLY or
 * BR_FAILED_REPLY; oneway: BR_TRANSACTION_COMPLETE or an error BR.
 * Incoming transactions meanwhile (callbacks) are served. */
static uint32_t transact(struct conn *c, uint32_t handle, uint32_t code, uint32_t flags,
			 const void *data, size_t size, const binder_size_t *offs, size_t noffs,
			 struct binder_transaction_data *reply)
{
	struct binder_transaction_data tr = { 0 };
	uint8_t w[4 + sizeof(tr)];
	uint32_t cmd = BC_TRANSACTION, final = 0;
	bool sync = !(flags & TF_ONE_WAY);
	struct br b;
	int rc;

	tr.target.handle = handle;
	tr.code = code;
	tr.flags = flags | TF_ACCEPT_FDS;
	tr.data_size = size;
	tr.offsets_size = noffs * sizeof(binder_size_t);
	tr.data.ptr.buffer = (uintptr_t)data;
	tr.data.ptr.offsets = (uintptr_t)offs;
	memcpy(w, &cmd, 4);
	memcpy(w + 4, &tr, sizeof(tr));
	if (c->rec && c->depth == 0) {
		atomic_store(&c->rec->target, handle);
		atomic_store(&c->rec->code, code);
		atomic_store(&c->rec->start_ms, th_now_ms());
	}
	c->depth++;
	rc = wr(c, w, sizeof(w));
	if (rc) {
		final = BR_FAILED_REPLY;
		if (!o_fault)
			violation("BC_TRANSACTION write: %s", strerror(-rc));
		goto out;
	}
	for (int read_errors = 0; !final;) {
		rc = next_br(c, &b);
		/* An injected failure behind a read is transient, and the call
		 * is still in flight: read again rather than desert it. */
		if (rc && o_fault && ++read_errors < 100) {
			usleep(1000);
			continue;
		}
		if (rc) {
			if (!o_fault)
				violation("read while waiting: %s", strerror(-rc));
			final = BR_FAILED_REPLY;
			break;
		}
		switch (b.cmd) {
		case BR_TRANSACTION_COMPLETE:
			if (!sync)
				final = b.cmd;
			break;
		case BR_TRANSACTION_PENDING_FROZEN:
			/* queued to a frozen target: complete, delivered on thaw */
			if (!sync) {
				atomic_fetch_add(&sh->n_oneway_queued, 1);
				final = BR_TRANSACTION_COMPLETE;
			} else {
				violation("BR_TRANSACTION_PENDING_FROZEN for a sync call");
			}
			break;
		case BR_REPLY:
			if (!sync) {
				violation("BR_REPLY for a oneway call");
				break;
			}
			*reply = b.tr;
			final = BR_REPLY;
			break;
		case BR_DEAD_REPLY:
		case BR_FAILED_REPLY:
		case BR_FROZEN_REPLY:
			final = b.cmd;
			break;
		default:
			if (!common_br(c, &b))
				violation("unexpected BR %#x while waiting for a %s call", b.cmd,
					  sync ? "sync" : "oneway");
		}
	}
out:
	c->depth--;
	if (c->rec && c->depth == 0)
		atomic_store(&c->rec->start_ms, 0);
	return final;
}

static void free_buf(struct conn *c, binder_uintptr_t buf)
{
	cmd64(c, BC_FREE_BUFFER, buf);
}

static void reply(struct conn *c, const struct binder_transaction_data *in, const void *data, size_t size)
{
	struct binder_transaction_data tr = { 0 };
	uint8_t w[12 + 4 + sizeof(tr)];
	uint32_t cmd = BC_FREE_BUFFER;

	memcpy(w, &cmd, 4);
	memcpy(w + 4, &in->data.ptr.buffer, 8);
	cmd = BC_REPLY;
	tr.data_size = size;
	tr.data.ptr.buffer = (uintptr_t)data;
	memcpy(w + 12, &cmd, 4);
	memcpy(w + 16, &tr, sizeof(tr));
	wr(c, w, sizeof(w));
}

/* The handle of worker j's current node (looked up in the registry). */
static bool get_handle(struct conn *c, unsigned j, uint32_t *handle, uint32_t *inc)
{
	struct binder_transaction_data rep;
	uint32_t req = j, final;
	bool ok = false;

	pthread_mutex_lock(&W.lock);
	if (W.cache[j].have && W.cache[j].valid) {
		*handle = W.cache[j].handle;
		*inc = W.cache[j].inc;
		pthread_mutex_unlock(&W.lock);
		return true;
	}
	pthread_mutex_unlock(&W.lock);
	atomic_fetch_add(&sh->n_lookup, 1);
	final = transact(c, 0, C_LOOKUP, 0, &req, sizeof(req), NULL, 0, &rep);
	if (final != BR_REPLY)
		return false;
	if (rep.data_size >= 8 + sizeof(struct flat_binder_object) && rep.offsets_size == 8) {
		const uint8_t *d = (const uint8_t *)(uintptr_t)rep.data.ptr.buffer;
		struct flat_binder_object fbo;
		uint32_t rinc;

		memcpy(&rinc, d, 4);
		memcpy(&fbo, d + 8, sizeof(fbo));
		if (fbo.hdr.type == BINDER_TYPE_HANDLE) {
			struct cache_ent *e = &W.cache[j];

			cmd32(c, BC_ACQUIRE, fbo.handle);
			pthread_mutex_lock(&W.lock);
			if (e->have) {
				cmd32(c, BC_RELEASE, e->handle);
				if (e->handle != fbo.handle)
					e->death = false;
			}
			e->have = e->valid = true;
			e->handle = fbo.handle;
			e->inc = rinc;
			if (!e->death) {
				uint8_t w[16];
				uint32_t cmd = BC_REQUEST_DEATH_NOTIFICATION;
				uint64_t cookie = ((uint64_t)j << 32) | rinc;
				struct binder_handle_cookie hc = { fbo.handle, cookie };

				memcpy(w, &cmd, 4);
				memcpy(w + 4, &hc, sizeof(hc));
				wr(c, w, 4 + sizeof(hc));
				e->death = true;
			}
			*handle = fbo.handle;
			*inc = rinc;
			ok = true;
			pthread_mutex_unlock(&W.lock);
		}
	}
	free_buf(c, rep.data.ptr.buffer);
	return ok;
}

static void invalidate(unsigned j, uint32_t handle)
{
	usleep(2000); /* the target is being restarted: give it time */
	pthread_mutex_lock(&W.lock);
	if (W.cache[j].have && W.cache[j].handle == handle)
		W.cache[j].valid = false;
	pthread_mutex_unlock(&W.lock);
}

static void count_final(uint32_t final)
{
	if (final == BR_REPLY)
		atomic_fetch_add(&sh->n_reply, 1);
	else if (final == BR_DEAD_REPLY)
		atomic_fetch_add(&sh->n_dead, 1);
	else if (final == BR_FROZEN_REPLY)
		atomic_fetch_add(&sh->n_frozen, 1);
	else
		atomic_fetch_add(&sh->n_failed, 1);
}

/* An ECHO call to worker j; returns the final BR (0: no handle). */
static uint32_t echo(struct conn *c, unsigned j, uint64_t nonce)
{
	struct binder_transaction_data rep;
	uint32_t h, inc, final;
	uint64_t msg[2] = { nonce, W.slot };

	if (!get_handle(c, j, &h, &inc))
		return 0;
	final = transact(c, h, C_ECHO, 0, msg, sizeof(msg), NULL, 0, &rep);
	count_final(final);
	if (final == BR_REPLY) {
		uint64_t got = 0;

		if (rep.data_size == sizeof(msg))
			memcpy(&got, (void *)(uintptr_t)rep.data.ptr.buffer, 8);
		if (got != nonce)
			violation("ECHO to worker %u: reply carries %#" PRIx64 " (size %llu), not %#" PRIx64,
				  j, got, (unsigned long long)rep.data_size, nonce);
		free_buf(c, rep.data.ptr.buffer);
	} else if (final == BR_DEAD_REPLY) {
		invalidate(j, h);
	}
	return final;
}

/* ---- serving ---------------------------------------------------------------------- */

struct oneway_msg {
	uint32_t sender, sender_inc, thread, target_inc, seq;
};

static void on_oneway(const struct binder_transaction_data *tr)
{
	struct oneway_msg m;
	struct seq_rec *r;

	atomic_fetch_add(&sh->n_oneway_recv, 1);
	if (tr->data_size != sizeof(m)) {
		violation("oneway of %llu bytes", (unsigned long long)tr->data_size);
		return;
	}
	memcpy(&m, (void *)(uintptr_t)tr->data.ptr.buffer, sizeof(m));
	if (m.sender >= o_procs || m.thread >= o_clients) {
		violation("oneway from sender %u thread %u", m.sender, m.thread);
		return;
	}
	if (m.target_inc != W.inc) {
		violation("oneway for incarnation %u reached incarnation %u of worker %u",
			  m.target_inc, W.inc, W.slot);
		return;
	}
	r = &sh->recv[W.slot][m.sender][m.thread];
	/* callers hold W.lock: the node's oneways are checked one at a time */
	if (m.sender_inc == atomic_load(&r->sender_inc) && atomic_load(&r->target_inc) == W.inc) {
		if (m.seq != atomic_load(&r->n) + 1)
			violation("worker %u.%u: oneway from %u.%u thread %u: seq %u after %u (%s)",
				  W.slot, W.inc, m.sender, m.sender_inc, m.thread, m.seq,
				  atomic_load(&r->n), m.seq > atomic_load(&r->n) ? "lost" : "reordered");
	} else if (atomic_load(&r->target_inc) == W.inc && m.sender_inc < atomic_load(&r->sender_inc)) {
		violation("worker %u.%u: oneway from %u.%u thread %u after one from incarnation %u",
			  W.slot, W.inc, m.sender, m.sender_inc, m.thread, atomic_load(&r->sender_inc));
	} else if (m.seq != 1) {
		violation("worker %u.%u: first oneway from %u.%u thread %u has seq %u (lost)",
			  W.slot, W.inc, m.sender, m.sender_inc, m.thread, m.seq);
	}
	atomic_store(&r->target_inc, W.inc);
	atomic_store(&r->sender_inc, m.sender_inc);
	atomic_store(&r->n, m.seq);
}

static int handle_tx(struct conn *c, const struct binder_transaction_data *tr)
{
	const uint8_t *d = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	uint64_t status = 0;

	switch (tr->code) {
	case C_ECHO: {
		uint64_t msg[2] = { 0, 0 };

		if (tr->data_size == sizeof(msg))
			memcpy(msg, d, sizeof(msg));
		reply(c, tr, msg, sizeof(msg));
		return 0;
	}
	case C_NEST: {
		uint32_t k = 0;
		uint64_t nonce = 0;

		if (tr->data_size >= 16) {
			memcpy(&k, d, 4);
			memcpy(&nonce, d + 8, 8);
		}
		if (k < o_procs && k != W.slot && c->depth < 2) {
			status = echo(c, k, nonce);
			atomic_fetch_add(&sh->n_nested, 1);
		}
		reply(c, tr, &status, sizeof(status));
		return 0;
	}
	case C_CALLBACK: {
		struct flat_binder_object fbo;

		if (tr->data_size >= 8 + sizeof(fbo) && tr->offsets_size == 8) {
			struct binder_transaction_data rep;
			uint64_t msg[2];
			uint32_t final;

			memcpy(&fbo, d + 8, sizeof(fbo));
			memcpy(msg, d, 8);
			msg[1] = W.slot;
			if (fbo.hdr.type == BINDER_TYPE_HANDLE && c->depth < 2) {
				final = transact(c, fbo.handle, C_ECHO, 0, msg, sizeof(msg), NULL, 0, &rep);
				count_final(final);
				atomic_fetch_add(&sh->n_callback, 1);
				if (final == BR_REPLY)
					free_buf(c, rep.data.ptr.buffer);
				status = final;
			}
		}
		reply(c, tr, &status, sizeof(status));
		return 0;
	}
	case C_ONEWAY:
		pthread_mutex_lock(&W.lock);
		on_oneway(tr);
		/* freed under the lock: the next oneway of the node waits for it */
		free_buf(c, tr->data.ptr.buffer);
		pthread_mutex_unlock(&W.lock);
		return 0;
	default:
		if (tr->flags & TF_ONE_WAY)
			free_buf(c, tr->data.ptr.buffer);
		else
			reply(c, tr, &status, sizeof(status));
		return 0;
	}
}

static void *looper_main(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	struct conn c = { .fd = W.fd };
	struct br b;

	c.rec = &sh->w[W.slot].call[MAXC + (idx < MAXL ? idx : MAXL - 1)];
	/* Under fault injection a thread's first ioctl can fail (the driver
	 * allocates its thread then): a looper that never entered gets no
	 * process work, and with no other looper every call to us would wait
	 * forever (seen as a HANG on mainline).  Retry. */
	for (int i = 0; cmd0(&c, idx == 0 ? BC_ENTER_LOOPER : BC_REGISTER_LOOPER) == -ENOMEM && i < 1000; i++)
		usleep(1000);
	for (;;) {
		int rc = next_br(&c, &b);

		if (rc) {
			if (!o_fault)
				violation("looper read: %s", strerror(-rc));
			usleep(10000);
			continue;
		}
		if (common_br(&c, &b) || b.cmd == BR_REPLY)
			continue;
		/* A BC_REPLY the driver could not allocate for fails back to
		 * the replier: mainline does so under fault injection. */
		if (o_fault && (b.cmd == BR_FAILED_REPLY || b.cmd == BR_DEAD_REPLY))
			continue;
		violation("looper: unexpected BR %#x", b.cmd);
	}
	return NULL;
}

struct client_arg {
	unsigned idx;
};

static void *client_main(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	struct conn c = { .fd = W.fd };
	struct fz_rng r = { fz_derive(o_seed, W.slot, W.inc, idx, 0x51, 0) };

	c.rec = &sh->w[W.slot].call[idx];
	while (!atomic_load(&sh->quiesce)) {
		unsigned j = fz_below(&r, o_procs), what = fz_below(&r, 100);
		uint64_t nonce = fz_next(&r);
		uint32_t h, inc, final;

		if (j == W.slot || !atomic_load(&sh->w[j].ready)) {
			usleep(2000);
			continue;
		}
		if (what < 40) {
			echo(&c, j, nonce);
		} else if (what < 55) {
			unsigned k = fz_below(&r, o_procs);
			uint64_t msg[2] = { k, nonce };
			struct binder_transaction_data rep;

			if (!get_handle(&c, j, &h, &inc))
				continue;
			final = transact(&c, h, C_NEST, 0, msg, sizeof(msg), NULL, 0, &rep);
			count_final(final);
			if (final == BR_REPLY)
				free_buf(&c, rep.data.ptr.buffer);
			else if (final == BR_DEAD_REPLY)
				invalidate(j, h);
		} else if (what < 65) {
			struct {
				uint64_t nonce;
				struct flat_binder_object fbo;
			} msg = { nonce, { .hdr.type = BINDER_TYPE_BINDER } };
			binder_size_t off = 8;
			struct binder_transaction_data rep;

			msg.fbo.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f;
			msg.fbo.binder = (uintptr_t)&W.node;
			msg.fbo.cookie = (uintptr_t)&W.node + 1;
			if (!get_handle(&c, j, &h, &inc))
				continue;
			final = transact(&c, h, C_CALLBACK, 0, &msg, sizeof(msg), &off, 1, &rep);
			count_final(final);
			if (final == BR_REPLY)
				free_buf(&c, rep.data.ptr.buffer);
			else if (final == BR_DEAD_REPLY)
				invalidate(j, h);
		} else {
			struct seq_rec *s = &sh->sent[W.slot][idx][j];
			struct oneway_msg m;

			if (!get_handle(&c, j, &h, &inc))
				continue;
			if (atomic_load(&s->target_inc) != inc || atomic_load(&s->sender_inc) != W.inc) {
				atomic_store(&s->n, 0);
				atomic_store(&s->sender_inc, W.inc);
				atomic_store(&s->target_inc, inc);
			}
			m = (struct oneway_msg){ W.slot, W.inc, idx, inc, atomic_load(&s->n) + 1 };
			final = transact(&c, h, C_ONEWAY, TF_ONE_WAY, &m, sizeof(m), NULL, 0, NULL);
			if (final == BR_TRANSACTION_COMPLETE) {
				atomic_fetch_add(&s->n, 1);
				atomic_fetch_add(&sh->n_oneway_sent, 1);
			} else {
				atomic_fetch_add(&sh->n_oneway_failed, 1);
				if (final == BR_DEAD_REPLY)
					invalidate(j, h);
			}
		}
	}
	atomic_fetch_add(&sh->w[W.slot].idle, 1);
	return NULL;
}

static void setup_failed(const char *what)
{
	atomic_fetch_add(&sh->n_setup_failed, 1);
	if (!o_fault)
		violation("worker %u.%u: %s: %s", W.slot, W.inc, what, strerror(errno));
	_exit(SETUP_FAILED);
}

static void worker(unsigned slot, unsigned inc)
{
	struct binder_transaction_data rep;
	struct conn c;
	struct {
		uint32_t slot, inc;
		struct flat_binder_object fbo;
	} reg = { slot, inc, { .hdr.type = BINDER_TYPE_BINDER } };
	binder_size_t off = 8;
	uint32_t maxt = MAXL - 1, final;

	W.slot = slot;
	W.inc = inc;
	W.max_loopers = MAXL;
	pthread_mutex_init(&W.lock, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* nobody may send to us before our receive records are fresh */
	for (unsigned s = 0; s < MAXP; s++)
		for (unsigned t = 0; t < MAXC; t++) {
			atomic_store(&sh->recv[slot][s][t].n, 0);
			atomic_store(&sh->recv[slot][s][t].target_inc, 0);
		}
	W.fd = open(o_dev, O_RDWR | O_CLOEXEC);
	if (W.fd < 0)
		setup_failed("open");
	if (mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, W.fd, 0) == MAP_FAILED)
		setup_failed("mmap");
	if (ioctl(W.fd, BINDER_SET_MAX_THREADS, &maxt) < 0)
		setup_failed("BINDER_SET_MAX_THREADS");
	memset(&c, 0, sizeof(c));
	c.fd = W.fd;
	c.rec = &sh->w[slot].call[MAXC + MAXL];
	reg.fbo.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f;
	reg.fbo.binder = (uintptr_t)&W.node;
	reg.fbo.cookie = (uintptr_t)&W.node + 1;
	final = transact(&c, 0, C_REG, 0, &reg, sizeof(reg), &off, 1, &rep);
	if (final != BR_REPLY) {
		errno = EPROTO;
		setup_failed("registering");
	}
	free_buf(&c, rep.data.ptr.buffer);
	spawn_looper();
	for (unsigned i = 0; i < o_clients; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, client_main, (void *)(uintptr_t)i))
			setup_failed("pthread_create");
		pthread_detach(th);
	}
	atomic_store(&sh->w[slot].ready, 1);
	/* the main thread serves too (it is not a looper: it only handles
	 * what lands on its own todo list, like node work for the REG call) */
	for (;;)
		pause();
}

/* ---- the registry (context manager) ------------------------------------------------- */

static void registry(void)
{
	struct {
		uint32_t handle, inc;
		bool have;
	} slot[MAXP] = { 0 };
	struct conn c = { 0 };
	struct br b;

	/* under fault injection, open and mmap may fail: retry */
	for (int i = 0;; i++) {
		c.fd = open(o_dev, O_RDWR | O_CLOEXEC);
		if (c.fd >= 0 && mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, c.fd, 0) != MAP_FAILED)
			break;
		if (c.fd >= 0)
			close(c.fd);
		if (i > 50)
			_exit(SETUP_FAILED);
		usleep(20 * 1000);
	}
	/* a previous manager may still be being released: as long as a slow
	 * guest takes (a hang-catcher), not a count of naps */
	for (int64_t end = th_now_ms() + TH_HANG_MS; ioctl(c.fd, BINDER_SET_CONTEXT_MGR, 0) < 0;) {
		if (th_now_ms() > end) {
			fprintf(stderr, "binderc-stress: cannot become context manager: %s\n", strerror(errno));
			_exit(SETUP_FAILED);
		}
		usleep(50 * 1000);
	}
	cmd0(&c, BC_ENTER_LOOPER);
	atomic_store(&sh->cm_ready, 1);
	for (;;) {
		const uint8_t *d;
		uint32_t j;

		if (next_br(&c, &b)) {
			usleep(10000);
			continue;
		}
		if (b.cmd != BR_TRANSACTION) {
			if (b.cmd == BR_INCREFS || b.cmd == BR_ACQUIRE)
				common_br(&c, &b);
			continue;
		}
		d = (const uint8_t *)(uintptr_t)b.tr.data.ptr.buffer;
		if (b.tr.code == C_REG && b.tr.data_size >= 8 + sizeof(struct flat_binder_object) &&
		    b.tr.offsets_size == 8) {
			struct flat_binder_object fbo;
			uint32_t inc;

			memcpy(&j, d, 4);
			memcpy(&inc, d + 4, 4);
			memcpy(&fbo, d + 8, sizeof(fbo));
			if (j < MAXP && fbo.hdr.type == BINDER_TYPE_HANDLE) {
				cmd32(&c, BC_ACQUIRE, fbo.handle);
				if (slot[j].have)
					cmd32(&c, BC_RELEASE, slot[j].handle);
				slot[j].have = true;
				slot[j].handle = fbo.handle;
				slot[j].inc = inc;
			}
			reply(&c, &b.tr, NULL, 0);
		} else if (b.tr.code == C_LOOKUP && b.tr.data_size >= 4) {
			memcpy(&j, d, 4);
			if (j < MAXP && slot[j].have) {
				struct binder_transaction_data tr = { 0 };
				struct {
					uint32_t inc, pad;
					struct flat_binder_object fbo;
				} msg = { slot[j].inc, 0, { .hdr.type = BINDER_TYPE_HANDLE } };
				binder_size_t off = 8;
				uint8_t w[12 + 4 + sizeof(tr)];
				uint32_t cmd = BC_FREE_BUFFER;

				msg.fbo.handle = slot[j].handle;
				tr.data_size = sizeof(msg);
				tr.offsets_size = 8;
				tr.data.ptr.buffer = (uintptr_t)&msg;
				tr.data.ptr.offsets = (uintptr_t)&off;
				memcpy(w, &cmd, 4);
				memcpy(w + 4, &b.tr.data.ptr.buffer, 8);
				cmd = BC_REPLY;
				memcpy(w + 12, &cmd, 4);
				memcpy(w + 16, &tr, sizeof(tr));
				wr(&c, w, sizeof(w));
			} else {
				uint32_t none = ~0u;

				reply(&c, &b.tr, &none, sizeof(none));
			}
		} else if (b.tr.flags & TF_ONE_WAY) {
			free_buf(&c, b.tr.data.ptr.buffer);
		} else {
			reply(&c, &b.tr, NULL, 0);
		}
	}
}

/* ---- parent ---------------------------------------------------------------------------- */

/*
 * Every child dies with the parent (a crashed parent must not leave workers
 * holding the device), and buffered output is flushed first so that no
 * line is printed twice.
 */
static pid_t fork_child(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("binderc-stress: fork");
		exit(2);
	}
	if (pid == 0)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return pid;
}

static pid_t fork_worker(unsigned slot)
{
	unsigned inc = atomic_load(&sh->w[slot].inc);
	pid_t pid;

	atomic_store(&sh->w[slot].ready, 0);
	atomic_store(&sh->w[slot].idle, 0);
	for (unsigned i = 0; i < NREC; i++)
		atomic_store(&sh->w[slot].call[i].start_ms, 0);
	pid = fork_child();
	if (pid == 0)
		worker(slot, inc);
	atomic_store(&sh->w[slot].pid, pid);
	return pid;
}

/* Who is who, then the driver's view of them all (hang reports). */
static void dump_workers_and_driver(void)
{
	fprintf(stderr, "  worker pids:");
	for (unsigned s = 0; s < o_procs; s++)
		fprintf(stderr, " %u.%u=%d", s, atomic_load(&sh->w[s].inc), (int)atomic_load(&sh->w[s].pid));
	fprintf(stderr, "\n");
	fz_dump_driver_state(o_dev, stderr, 800);
}

static bool check_hangs(int64_t now)
{
	for (unsigned s = 0; s < o_procs; s++) {
		pid_t pid = atomic_load(&sh->w[s].pid);

		for (unsigned i = 0; i < NREC && pid > 0; i++) {
			int64_t st = atomic_load(&sh->w[s].call[i].start_ms);

			if (st && now - st > o_hang_ms) {
				fprintf(stderr, "binderc-stress: HANG seed 0x%" PRIx64 ": worker %u.%u %s %u: call code %u to handle %u unanswered for %" PRId64 " ms\n",
					o_seed, s, atomic_load(&sh->w[s].inc), i < MAXC ? "client" : i < MAXC + MAXL ? "looper" : "main",
					i < MAXC ? i : i - MAXC, atomic_load(&sh->w[s].call[i].code),
					atomic_load(&sh->w[s].call[i].target), now - st);
				fz_dump_stacks(pid, stderr);
				dump_workers_and_driver();
				return true;
			}
		}
	}
	return false;
}

/* Reap what exited; restart workers (kills are expected, set-up failures
 * under fault injection too). */
static void reap(bool restart, uint64_t *restarts, uint64_t *crashes)
{
	pid_t pid;
	int ws;

	while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
		for (unsigned s = 0; s < o_procs; s++) {
			if (atomic_load(&sh->w[s].pid) != pid)
				continue;
			if (WIFSIGNALED(ws) && WTERMSIG(ws) != SIGKILL) {
				fprintf(stderr, "binderc-stress: worker %u.%u died of signal %d\n", s,
					atomic_load(&sh->w[s].inc), WTERMSIG(ws));
				(*crashes)++;
			} else if (WIFEXITED(ws) && WEXITSTATUS(ws) != SETUP_FAILED) {
				fprintf(stderr, "binderc-stress: worker %u.%u exited %d\n", s,
					atomic_load(&sh->w[s].inc), WEXITSTATUS(ws));
				(*crashes)++;
			}
			atomic_fetch_add(&sh->w[s].inc, 1);
			atomic_store(&sh->w[s].pid, 0);
			if (restart) {
				fork_worker(s);
				(*restarts)++;
			}
		}
	}
}

/* After the storm: every oneway a live sender completed to a live target
 * must have arrived.  Returns the number of (sender, thread, target) with
 * missing messages once the wait is over. */
static unsigned lost_oneways(bool report)
{
	unsigned bad = 0;

	for (unsigned s = 0; s < o_procs; s++)
		for (unsigned t = 0; t < o_clients; t++)
			for (unsigned j = 0; j < o_procs; j++) {
				struct seq_rec *se = &sh->sent[s][t][j], *rc = &sh->recv[j][s][t];
				uint32_t n = atomic_load(&se->n);

				if (!n || atomic_load(&se->sender_inc) != atomic_load(&sh->w[s].inc) ||
				    atomic_load(&se->target_inc) != atomic_load(&sh->w[j].inc) ||
				    !atomic_load(&sh->w[s].pid) || !atomic_load(&sh->w[j].pid))
					continue;
				if (atomic_load(&rc->sender_inc) == atomic_load(&se->sender_inc) &&
				    atomic_load(&rc->target_inc) == atomic_load(&se->target_inc) &&
				    atomic_load(&rc->n) == n)
					continue;
				bad++;
				if (report)
					violation("oneways from %u.%u thread %u to %u.%u: %u sent, %u.%u/%u received (lost)",
						  s, atomic_load(&se->sender_inc), t, j,
						  atomic_load(&se->target_inc), n, atomic_load(&rc->target_inc),
						  atomic_load(&rc->sender_inc), atomic_load(&rc->n));
			}
	return bad;
}

/* ---- freezing and reports ------------------------------------------------------ */

static int freeze(int fd, pid_t pid, bool enable)
{
	struct binder_freeze_info info = { .pid = (uint32_t)pid, .enable = enable, .timeout_ms = 100 };

	return ioctl(fd, BINDER_FREEZE, &info) < 0 ? -errno : 0;
}

/* Every ~o_freeze_ms: thaw the frozen worker, or freeze a random one. A
 * worker with calls in progress cannot be frozen (EAGAIN), one that just
 * died or has not opened the device yet is unknown (EINVAL). */
static void freeze_step(int fd, struct fz_rng *pr, pid_t *frozen)
{
	pid_t pid;
	int r;

	if (*frozen) {
		r = freeze(fd, *frozen, false);
		if (r && r != -EINVAL)
			violation("thaw of %d: %s", (int)*frozen, strerror(-r));
		*frozen = 0;
		return;
	}
	pid = atomic_load(&sh->w[fz_below(pr, o_procs)].pid);
	if (pid <= 0)
		return;
	r = freeze(fd, pid, true);
	if (r == 0) {
		*frozen = pid;
		atomic_fetch_add(&sh->n_freezes, 1);
	} else if (r == -EAGAIN) {
		atomic_fetch_add(&sh->n_freeze_busy, 1);
	} else if (r != -EINVAL && !o_fault) {
		violation("freeze of %d: %s", (int)pid, strerror(-r));
	}
}

/* The report listener's process: counts reports until told to stop. */
static void reports_main(void)
{
	bc_report_listener *l = NULL;
	struct bc_report r;
	int rc = bc_report_listener_new(NULL, &l);

	if (rc < 0) {
		if (rc != -ENOENT && !o_fault)
			violation("report listener: %s", strerror(-rc));
		atomic_store(&sh->reports_joined, -1);
		_exit(0);
	}
	atomic_store(&sh->reports_joined, 1);
	while (!atomic_load(&sh->reports_stop)) {
		rc = bc_report_listener_read(l, &r, 100);
		if (rc == 0)
			atomic_fetch_add(&sh->n_reports, 1);
		else if (rc == -ENOBUFS)
			atomic_fetch_add(&sh->n_reports_lost, 1);
		else if (rc != -EAGAIN && rc != -EINTR && !o_fault)
			violation("report listener read: %s", strerror(-rc));
	}
	/* what is still buffered */
	while ((rc = bc_report_listener_read(l, &r, 0)) == 0 || rc == -ENOBUFS)
		atomic_fetch_add(rc ? &sh->n_reports_lost : &sh->n_reports, 1);
	bc_report_listener_unref(l);
	_exit(0);
}

static pid_t start_reports(void)
{
	pid_t pid = fork_child();

	if (pid == 0)
		reports_main();
	/* it must join before the storm, or early failures go unheard */
	for (int64_t end = th_now_ms() + TH_HANG_MS; !atomic_load(&sh->reports_joined) && th_now_ms() < end;)
		usleep(10 * 1000);
	return pid;
}

static void usage(void)
{
	fprintf(stderr, "usage: binderc-stress [--seed S] [--seconds N] [--procs N] [--clients T]\n"
			"                      [--kill-ms MS] [--hang-ms MS] [--device DEV] [--allow-leak KIND,...]\n"
			"                      [--no-kill] [--freeze-ms MS] [--reports]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t restarts = 0, crashes = 0, kills = 0;
	int64_t start, end, next_kill, next_freeze;
	struct fz_rng pr, fr;
	pid_t cm, frozen = 0, reporter = 0;
	int freeze_fd = -1;
	bool hung = false;
	char why[512];
	long live;
	int status = 0;

	o_dev = th_device();
	o_seconds = fz_env_u64("BINDERC_STRESS_SECONDS", 60);
	o_procs = (unsigned)fz_env_u64("BINDERC_STRESS_PROCS", 32);
	o_seed = getenv("BINDERC_STRESS_SEED") ? fz_env_u64("BINDERC_STRESS_SEED", 0) : fz_time_seed();
	o_fault = getenv("BINDERC_FAULT") != NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-kill")) { o_kill = false; continue; }
		if (!strcmp(a, "--reports")) { o_reports = true; continue; }
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seed")) o_seed = fz_u64(v, 0);
		else if (!strcmp(a, "--seconds")) o_seconds = fz_u64(v, 60);
		else if (!strcmp(a, "--procs")) o_procs = (unsigned)fz_u64(v, 32);
		else if (!strcmp(a, "--clients")) o_clients = (unsigned)fz_u64(v, 2);
		else if (!strcmp(a, "--kill-ms")) o_kill_ms = (int64_t)fz_u64(v, 400);
		else if (!strcmp(a, "--hang-ms")) o_hang_ms = (int64_t)fz_u64(v, TH_HANG_MS);
		else if (!strcmp(a, "--device")) o_dev = v;
		else if (!strcmp(a, "--freeze-ms")) o_freeze_ms = (int64_t)fz_u64(v, 0);
		else if (!strcmp(a, "--allow-leak")) fz_leak_allowed = v;
		else usage();
	}
	if (o_procs < 2 || o_procs > MAXP || !o_clients || o_clients > MAXC || o_kill_ms < 1)
		usage();
	printf("binderc-stress: seed 0x%" PRIx64 " device %s procs %u clients %u seconds %" PRIu64
	       " kill every ~%" PRId64 " ms%s%s%s\n", o_seed, o_dev, o_procs, o_clients, o_seconds,
	       o_kill_ms, o_freeze_ms ? ", freeze/thaw" : "", o_reports ? ", report listener" : "",
	       o_fault ? " (fault injection)" : "");
	fflush(stdout);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	memset(sh, 0, sizeof(*sh));
	pr.s = fz_derive(o_seed, 0xcafe, 0, 0, 0, 0);
	fr.s = fz_derive(o_seed, 0xf0e2, 0, 0, 0, 0);
	if (o_freeze_ms) {
		freeze_fd = open(o_dev, O_RDWR | O_CLOEXEC);
		if (freeze_fd < 0) {
			printf("binderc-stress: open %s for freezing: %s: FAIL\n", o_dev, strerror(errno));
			return 1;
		}
	}
	if (o_reports)
		reporter = start_reports();

	cm = fork_child();
	if (cm == 0)
		registry();
	/* longer than the registry's own wait for the manager slot */
	for (int64_t end = th_now_ms() + TH_HANG_MS + 10000; !atomic_load(&sh->cm_ready);) {
		int ws;

		if (waitpid(cm, &ws, WNOHANG) == cm || th_now_ms() > end) {
			printf("binderc-stress: the registry did not start: FAIL\n");
			return 1;
		}
		usleep(10 * 1000);
	}
	start = th_now_ms();
	end = start + (int64_t)o_seconds * 1000;
	next_kill = start + o_kill_ms;
	next_freeze = start + o_freeze_ms;
	for (unsigned s = 0; s < o_procs; s++)
		fork_worker(s);

	while (th_now_ms() < end && !hung) {
		int64_t now;

		usleep(20 * 1000);
		reap(true, &restarts, &crashes);
		now = th_now_ms();
		hung = check_hangs(now);
		if (o_kill && now >= next_kill) {
			unsigned s = fz_below(&pr, o_procs);
			pid_t pid = atomic_load(&sh->w[s].pid);

			if (pid > 0 && !kill(pid, SIGKILL))
				kills++;
			next_kill = now + 1 + fz_below(&pr, (uint32_t)(2 * o_kill_ms));
		}
		if (o_freeze_ms && now >= next_freeze) {
			freeze_step(freeze_fd, &fr, &frozen);
			next_freeze = now + 1 + fz_below(&fr, (uint32_t)(2 * o_freeze_ms));
		}
	}
	/* thawed, the queued oneways go out (and are checked below) */
	if (frozen)
		freeze_step(freeze_fd, &fr, &frozen);

	/* quiesce: no more kills or new calls; every call must still finish */
	atomic_store(&sh->quiesce, 1);
	if (!hung) {
		int64_t deadline = th_now_ms() + o_hang_ms;
		bool all_idle = false;

		while (!all_idle && !hung) {
			usleep(20 * 1000);
			reap(true, &restarts, &crashes);
			hung = check_hangs(th_now_ms());
			all_idle = true;
			for (unsigned s = 0; s < o_procs; s++)
				if (atomic_load(&sh->w[s].idle) < (int)o_clients && atomic_load(&sh->w[s].pid) &&
				    atomic_load(&sh->w[s].ready))
					all_idle = false;
			if (th_now_ms() > deadline && !all_idle) {
				fprintf(stderr, "binderc-stress: HANG seed 0x%" PRIx64 ": clients did not stop\n", o_seed);
				for (unsigned s = 0; s < o_procs; s++)
					if (atomic_load(&sh->w[s].idle) < (int)o_clients)
						fz_dump_stacks(atomic_load(&sh->w[s].pid), stderr);
				dump_workers_and_driver();
				hung = true;
			}
		}
		/* a hang-catcher: every oneway sent must arrive */
		deadline = th_now_ms() + TH_HANG_MS;
		while (!hung && lost_oneways(false) && th_now_ms() < deadline) {
			usleep(50 * 1000);
			reap(false, &restarts, &crashes);
		}
		if (!hung && lost_oneways(true))
			dump_workers_and_driver();
	}

	if (reporter) {
		atomic_store(&sh->reports_stop, 1);
		waitpid(reporter, NULL, 0);
		/* mainline reports from Linux 6.18 on; binderc on every kernel */
		bool reporting = th_device_is_binderc(o_dev) || !th_kernel_before(6, 18);

		if (reporting && atomic_load(&sh->reports_joined) == 1 && !atomic_load(&sh->n_reports) &&
		    atomic_load(&sh->n_dead) + atomic_load(&sh->n_failed) + atomic_load(&sh->n_frozen))
			violation("calls failed, but the listener heard no report");
	}
	if (freeze_fd >= 0)
		close(freeze_fd);
	/* everything down, then the driver must be empty */
	for (unsigned s = 0; s < o_procs; s++) {
		pid_t pid = atomic_load(&sh->w[s].pid);

		if (pid > 0)
			kill(pid, SIGKILL);
	}
	kill(cm, SIGKILL);
	for (int64_t deadline = th_now_ms() + TH_HANG_MS;;) {
		pid_t pid = waitpid(-1, NULL, WNOHANG);

		if (pid < 0 && errno == ECHILD)
			break;
		if (th_now_ms() > deadline) {
			fprintf(stderr, "binderc-stress: HANG: processes survive SIGKILL\n");
			hung = true;
			break;
		}
		if (pid == 0)
			usleep(20 * 1000);
	}
	live = hung ? -2 : fz_wait_zero(o_dev, TH_HANG_MS, why, sizeof(why));
	printf("binderc-stress: seed 0x%" PRIx64 ": %" PRId64 " s, %" PRIu64 " kills, %" PRIu64
	       " restarts; sync: %" PRIu64 " replies, %" PRIu64 " dead, %" PRIu64 " failed; %" PRIu64
	       " nested, %" PRIu64 " callbacks; oneway: %" PRIu64 " sent, %" PRIu64 " received, %"
	       PRIu64 " refused; %" PRIu64 " lookups, %" PRIu64 " set-up failures, %" PRIu64
	       " BR_ERROR; %" PRIu64 " frozen replies, %" PRIu64 " oneways queued frozen, %" PRIu64
	       " freezes (%" PRIu64 " refused busy); %" PRIu64 " reports (%" PRIu64 " overflows%s); %"
	       PRIu64 " violations, %" PRIu64 " crashes\n",
	       o_seed, (th_now_ms() - start) / 1000, kills, restarts, atomic_load(&sh->n_reply),
	       atomic_load(&sh->n_dead), atomic_load(&sh->n_failed), atomic_load(&sh->n_nested),
	       atomic_load(&sh->n_callback), atomic_load(&sh->n_oneway_sent),
	       atomic_load(&sh->n_oneway_recv), atomic_load(&sh->n_oneway_failed),
	       atomic_load(&sh->n_lookup), atomic_load(&sh->n_setup_failed),
	       atomic_load(&sh->n_br_error), atomic_load(&sh->n_frozen), atomic_load(&sh->n_oneway_queued),
	       atomic_load(&sh->n_freezes), atomic_load(&sh->n_freeze_busy), atomic_load(&sh->n_reports),
	       atomic_load(&sh->n_reports_lost),
	       atomic_load(&sh->reports_joined) < 0 ? ", no report family" : "",
	       atomic_load(&sh->violations), crashes);
	if (live >= 0 && why[0])
		printf("binderc-stress: live objects at the end: %s\n", why);
	if (live == -1) {
		printf("binderc-stress: live-object counters unreadable (debugfs?): not checked\n");
	} else if (live > 0) {
		printf("binderc-stress: LEAK seed 0x%" PRIx64 ": live objects after every process exited: %s\n",
		       o_seed, why);
		status = 1;
	}
	/* A storm in which no call got through tested nothing; under fault
	 * injection that can be bad luck (the registry's or every worker's
	 * set-up failing for the whole run), and what is checked there is
	 * that nothing crashes, hangs or leaks. */
	if (!atomic_load(&sh->n_reply) && o_fault)
		printf("binderc-stress: no call got through under fault injection\n");
	if (hung || crashes || atomic_load(&sh->violations) || (!atomic_load(&sh->n_reply) && !o_fault))
		status = 1;
	printf("binderc-stress: %s\n", status ? "FAIL" : "ok");
	return status;
}
