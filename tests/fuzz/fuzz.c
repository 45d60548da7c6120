// SPDX-License-Identifier: MIT
/*
 * binderc-fuzz: a seeded multi-process, multi-threaded fuzzer for a binder
 * driver (mainline /dev/binder or binderc's /dev/binderc).
 *
 *   binderc-fuzz [--seed S] [--ops N] [--seconds S] [--procs P] [--threads T]
 *                [--device DEV] [--hang-ms MS] [--min-read N] [--skip OP,...]
 *                [--allow-leak KIND,...] [--no-kill] [--no-binder-fds] [--trace]
 *   env: BINDER_DEVICE, BINDERC_FUZZ_OPS, BINDERC_FUZZ_SECONDS, BINDERC_FUZZ_SEED
 *
 * --ops 0 means no operation budget (--seconds then bounds the run).
 * --min-read N raises every non-zero read size below N to N: it keeps a
 * known bug's trigger (see test_fuzz.c) out of a run that looks for others.
 * --no-binder-fds sends a pipe wherever a binder file (the worker's own, or
 * one it received) would go in an FD object or fd array: a binder file
 * queued to its own proc, or in a cycle of procs, pins those procs forever
 * on mainline (tests/driver differences.h, files_in_flight), which a long
 * run then reports as a leak.
 *
 * The parent forks P worker processes (restarting them when they exit or
 * are killed) and watches them; each worker runs T threads on one open of
 * the device.  Every operation of thread (proc slot p, incarnation i, thread
 * slot t, thread generation g) number k draws its choices from its own
 * stream, seeded by fz_derive(seed, p, i, t, g, k): the same seed gives every
 * thread the same sequence of operations.  What the driver answers (and so
 * the state the operations act on) depends on timing across processes.
 *
 * Operations: random BC streams (every BC command, unknown ones, truncated
 * payloads), transactions and replies with random object arrays (binders,
 * handles, weak ones, fds, fd arrays and PTR chains with parents, mostly
 * well formed, sometimes malformed), frees (valid, double, random),
 * refcount and death commands, every ioctl with good and bad arguments,
 * epoll and poll, BINDER_THREAD_EXIT, thread exit, munmap, close/reopen,
 * fork with the fd inherited, and process exit; the parent SIGKILLs
 * workers at random points.  Handles spread through the context manager,
 * which worker 0 tries to become.
 *
 * Addresses passed to the driver lie inside the worker's own mappings,
 * except deliberately invalid ones (NULL, kernel and non-canonical
 * addresses, a PROT_NONE reservation, spans running into a guard page, the
 * read-only binder mapping as a read buffer).
 *
 * Failures (exit 1): a worker that hangs in the kernel (an operation taking
 * longer than --hang-ms; the threads' kernel stacks are printed), a BR
 * stream that breaks the protocol (unknown command, sizes beyond the
 * buffer, a buffer outside the mapping), a worker crash, or live driver
 * objects left after every worker exited.
 */
#include <errno.h>
#include <execinfo.h>
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
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <uapi/binder.h>

#include "fz.h"

#define MAX_PROCS   16
#define MAX_THREADS 8
#define MAP_SIZE    (128 * 1024)
#define ARENA_SIZE  (64 * PAGE)
#define PAGE        4096
#define NNODES      8
#define NHANDLES    48
#define NBUFS       48
#define NFDS        32
#define NACKS       32

/* ---- shared with the parent ------------------------------------------------ */

struct thr_slot {
	_Atomic int64_t op_start_ms;  /* 0: not inside an operation */
	_Atomic uint32_t op;          /* operation kind */
	_Atomic uint64_t opidx;       /* operation number in this thread */
	_Atomic uint32_t gen;
};

struct proc_slot {
	_Atomic pid_t pid;
	_Atomic uint32_t inc;
	struct thr_slot thr[MAX_THREADS];
};

struct shared {
	_Atomic uint64_t ops;         /* operations done, all workers */
	_Atomic int stop;
	_Atomic uint64_t violations;
	_Atomic uint64_t results[8];  /* ok, einval, efault, other errors ... */
	_Atomic uint64_t br_seen[32];
	_Atomic uint64_t write_overrun; /* write_consumed > write_size */
	_Atomic uint64_t unchecked;   /* buffers a racing free may have reused */
	struct proc_slot proc[MAX_PROCS];
};

static struct shared *sh;

/* ---- options ---------------------------------------------------------------- */

static uint64_t o_seed;
static uint64_t o_ops;
static uint64_t o_seconds;
static unsigned o_procs = 4, o_threads = 3;
static const char *o_dev;
static int64_t o_hang_ms = TH_HANG_MS;
static bool o_kill = true, o_trace, o_no_binder_fds;
static dev_t o_dev_rdev;             /* the device's, for --no-binder-fds */
static size_t o_min_read;            /* --min-read: avoid a known bug's trigger */
static unsigned o_skip;              /* --skip: operation kinds left out (bit mask) */

/* ---- worker state ------------------------------------------------------------ */

enum op_kind {
	OP_STREAM, OP_TXN, OP_REPLY, OP_READ, OP_FREE, OP_REFS, OP_DEATH, OP_IOCTL,
	OP_POLL, OP_THREAD_EXIT, OP_PTHREAD_EXIT, OP_MMAP, OP_MUNMAP, OP_REOPEN,
	OP_FORK, OP_EXIT, OP_CTXMGR, OP_COUNT
};
static const char *const op_name[OP_COUNT] = {
	"stream", "txn", "reply", "read", "free", "refs", "death", "ioctl", "poll",
	"thread_exit", "pthread_exit", "mmap", "munmap", "reopen", "fork", "exit",
	"ctxmgr",
};
/* per mille */
static const unsigned op_weight[OP_COUNT] = {
	[OP_STREAM] = 230, [OP_TXN] = 230, [OP_REPLY] = 110, [OP_READ] = 170,
	[OP_FREE] = 60, [OP_REFS] = 40, [OP_DEATH] = 40, [OP_IOCTL] = 60,
	[OP_POLL] = 15, [OP_THREAD_EXIT] = 12, [OP_PTHREAD_EXIT] = 5, [OP_MMAP] = 4,
	[OP_MUNMAP] = 2, [OP_REOPEN] = 3, [OP_FORK] = 3, [OP_EXIT] = 1, [OP_CTXMGR] = 15,
};

struct node {
	uint64_t pad[2];
};

struct incoming {
	binder_uintptr_t buffer;
	uint32_t code;
};

struct thr;

struct proc {
	unsigned slot, inc;
	pthread_rwlock_t maplock;     /* write: the mapping changes */
	/* Any BC_FREE_BUFFER may hit a buffer another thread has just been
	 * handed and not yet parsed (addresses are guessed or reused), and
	 * the driver may then give that memory to the next transaction.
	 * That is legal, so a buffer is only checked if no free of this
	 * process overlapped its thread's ioctl and parse. */
	_Atomic unsigned frees_started, frees_finished;
	pthread_mutex_t lock;         /* everything below */
	int fd;
	uint8_t *map;                 /* NULL: not mapped (or holed) */
	_Atomic unsigned map_gen;     /* bumped whenever map changes */
	size_t map_size;
	int epfd;
	uint8_t *inval;               /* PROT_NONE reservation */
	struct node nodes[NNODES];
	uint32_t handles[NHANDLES];
	unsigned nhandles;
	binder_uintptr_t bufs[NBUFS];
	unsigned nbufs;
	binder_uintptr_t freed[8];
	unsigned nfreed;
	int fds[NFDS];                /* received fds, ours to close */
	unsigned nfds;
	uint8_t acks[NACKS * 20];     /* BC_*_DONE commands to send */
	size_t acklen;
	int pipefd[2];
	unsigned nthreads_alive;
	struct thr *thr[MAX_THREADS];
};

struct thr {
	struct proc *p;
	unsigned slot, gen;
	uint64_t opidx;
	uint8_t *arena;               /* ARENA_SIZE, then a PROT_NONE guard page */
	struct incoming in[8];
	unsigned nin;
	bool frees;                   /* the next write carries a BC_FREE_BUFFER */
	bool freed_own;               /* the last one did */
	unsigned seen_started, seen_finished; /* frees_* before the last ioctl */
	struct fz_rng r;              /* the current operation's stream */
};

static struct proc P;
static __thread struct thr *cur_thr;  /* for the crash report */

static void trace(struct thr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void trace(struct thr *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (!o_trace)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "[%u.%u t%u.%u #%" PRIu64 "] %s\n", P.slot, P.inc, t->slot, t->gen,
		t->opidx, msg);
}

static void violation(struct thr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(struct thr *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	atomic_fetch_add(&sh->violations, 1);
	fprintf(stderr, "binderc-fuzz: VIOLATION seed 0x%" PRIx64 " proc %u inc %u thread %u gen %u op %" PRIu64 ": %s\n",
		o_seed, P.slot, P.inc, t ? t->slot : 0, t ? t->gen : 0, t ? t->opidx : 0, msg);
}

static inline uint32_t R(struct thr *t, uint32_t n) { return fz_below(&t->r, n); }
static inline bool PCT(struct thr *t, unsigned pct) { return fz_pct(&t->r, pct); }
static inline uint64_t R64(struct thr *t) { return fz_next(&t->r); }

/* ---- addresses ------------------------------------------------------------- */

/* A deliberately invalid user address, or a span that runs into a guard. */
static uint64_t bad_ptr(struct thr *t, size_t span)
{
	switch (R(t, 8)) {
	case 0: return 0;
	case 1: return 1 + R(t, PAGE - 1);
	case 2: return (uintptr_t)P.inval + R(t, 16 * PAGE);
	case 3: /* the last bytes of the arena: the span reaches the guard page */
		return (uintptr_t)t->arena + ARENA_SIZE - 1 - R(t, span ? (uint32_t)span : 1);
	case 4: return 0xffff888000000000ULL + (uint64_t)R(t, 1u << 20) * 8;
	case 5: return ~0ULL - R(t, 64);
	case 6: return 0x0000800000000000ULL + R(t, PAGE);
	default: return P.map ? (uintptr_t)P.map + R(t, (uint32_t)P.map_size) : 0;
	}
}

/* ---- state helpers (P.lock held) ------------------------------------------- */

static void add_handle(uint32_t h)
{
	for (unsigned i = 0; i < P.nhandles; i++)
		if (P.handles[i] == h)
			return;
	if (P.nhandles < NHANDLES)
		P.handles[P.nhandles++] = h;
	else
		P.handles[h % NHANDLES] = h;
}

static uint32_t pick_handle(struct thr *t)
{
	uint32_t h;

	pthread_mutex_lock(&P.lock);
	if (P.nhandles && PCT(t, 75))
		h = P.handles[R(t, P.nhandles)];
	else if (PCT(t, 70))
		h = 0;
	else
		h = PCT(t, 80) ? R(t, 64) : (uint32_t)R64(t);
	pthread_mutex_unlock(&P.lock);
	return h;
}

static void add_buf(binder_uintptr_t b)
{
	if (P.nbufs == NBUFS) {
		/* keep the list bounded: the oldest goes back at once */
		struct binder_write_read bwr = { 0 };
		uint8_t cmd[12];
		uint32_t c = BC_FREE_BUFFER;

		memcpy(cmd, &c, 4);
		memcpy(cmd + 4, &P.bufs[0], 8);
		bwr.write_buffer = (uintptr_t)cmd;
		bwr.write_size = sizeof(cmd);
		atomic_fetch_add(&P.frees_started, 1);
		ioctl(P.fd, BINDER_WRITE_READ, &bwr);
		atomic_fetch_add(&P.frees_finished, 1);
		memmove(P.bufs, P.bufs + 1, sizeof(P.bufs[0]) * (NBUFS - 1));
		P.nbufs--;
	}
	P.bufs[P.nbufs++] = b;
}

static void add_fd(int fd)
{
	if (P.nfds == NFDS) {
		close(P.fds[0]);
		memmove(P.fds, P.fds + 1, sizeof(P.fds[0]) * (NFDS - 1));
		P.nfds--;
	}
	P.fds[P.nfds++] = fd;
}

static void add_ack(uint32_t cmd, const void *payload, size_t n)
{
	if (P.acklen + 4 + n > sizeof(P.acks))
		return; /* dropped: the driver must cope with never-acked work */
	memcpy(P.acks + P.acklen, &cmd, 4);
	memcpy(P.acks + P.acklen + 4, payload, n);
	P.acklen += 4 + n;
}

/* ---- BR parsing -------------------------------------------------------------- */

/*
 * Payload bytes after each BR command word ((size_t)-1: unknown).
 * BR_ERROR is declared _IOR('r', 0, __s32), but no driver sends the int:
 * mainline 6.1 queues the error as a BINDER_WORK_RETURN_ERROR work item and
 * binder_thread_read() writes only e->cmd (binderc's driver/read.c does
 * the same), so BR_ERROR is the bare 4-byte word.  Taking its _IOC_SIZE
 * reported a truncated BR_ERROR at the end of a read and, mid-buffer, ate
 * the next command.
 */
static size_t br_size(uint32_t cmd)
{
	switch (cmd) {
	case BR_ERROR:
	case BR_OK: case BR_DEAD_REPLY: case BR_TRANSACTION_COMPLETE: case BR_NOOP:
	case BR_SPAWN_LOOPER: case BR_FINISHED: case BR_FAILED_REPLY:
	case BR_FROZEN_REPLY: case BR_ONEWAY_SPAM_SUSPECT:
	case BR_TRANSACTION_PENDING_FROZEN: /* 6.2 */
		return 0;
	case BR_TRANSACTION: case BR_REPLY: return sizeof(struct binder_transaction_data);
	case BR_TRANSACTION_SEC_CTX: return sizeof(struct binder_transaction_data_secctx);
	case BR_ACQUIRE_RESULT: return 4;
	case BR_INCREFS: case BR_ACQUIRE: case BR_RELEASE: case BR_DECREFS:
		return sizeof(struct binder_ptr_cookie);
	case BR_ATTEMPT_ACQUIRE: return sizeof(struct binder_pri_ptr_cookie);
	case BR_DEAD_BINDER: case BR_CLEAR_DEATH_NOTIFICATION_DONE:
	case BR_CLEAR_FREEZE_NOTIFICATION_DONE: /* 6.12 */
		return sizeof(binder_uintptr_t);
	case BR_FROZEN_BINDER:
		return 16;
	}
	return (size_t)-1;
}

static bool in_map(uint64_t a, uint64_t n)
{
	uint64_t base = (uintptr_t)P.map;

	return P.map && a >= base && n <= P.map_size && a - base <= P.map_size - n;
}

/* Did a free of this process overlap the last ioctl of t, or the time since? */
static bool free_raced(const struct thr *t)
{
	unsigned started = atomic_load(&P.frees_started) - t->freed_own;

	return started != t->seen_started || t->seen_finished != t->seen_started;
}

/* Record the objects of a received buffer: handles to use, fds to close. */
static void take_objects(struct thr *t, const struct binder_transaction_data *tr)
{
	const uint8_t *data = (const uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	const uint8_t *offs = (const uint8_t *)(uintptr_t)tr->data.ptr.offsets;
	size_t n = tr->offsets_size / 8;

	if (!P.map || (tr->data_size == 0 && tr->offsets_size == 0))
		return; /* unmapped (munmap op): nothing to look at */
	if (!in_map(tr->data.ptr.buffer, tr->data_size) ||
	    (tr->offsets_size && !in_map(tr->data.ptr.offsets, tr->offsets_size))) {
		violation(t, "buffer %#llx size %llu offsets %#llx size %llu outside the mapping %p+%zu",
			  (unsigned long long)tr->data.ptr.buffer, (unsigned long long)tr->data_size,
			  (unsigned long long)tr->data.ptr.offsets,
			  (unsigned long long)tr->offsets_size, (void *)P.map, P.map_size);
		return;
	}
	if (free_raced(t)) {
		atomic_fetch_add(&sh->unchecked, 1);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		binder_size_t off;
		struct binder_object_header hdr;

		memcpy(&off, offs + 8 * i, 8);
		if (off + sizeof(hdr) > tr->data_size) {
			violation(t, "object offset %llu beyond data size %llu",
				  (unsigned long long)off, (unsigned long long)tr->data_size);
			return;
		}
		memcpy(&hdr, data + off, sizeof(hdr));
		switch (hdr.type) {
		case BINDER_TYPE_HANDLE:
		case BINDER_TYPE_WEAK_HANDLE: {
			struct flat_binder_object fbo;

			if (off + sizeof(fbo) > tr->data_size)
				break;
			memcpy(&fbo, data + off, sizeof(fbo));
			add_handle(fbo.handle);
			break;
		}
		case BINDER_TYPE_FD: {
			struct binder_fd_object fo;

			if (off + sizeof(fo) > tr->data_size)
				break;
			memcpy(&fo, data + off, sizeof(fo));
			if ((int32_t)fo.fd >= 0)
				add_fd((int)fo.fd);
			break;
		}
		case BINDER_TYPE_BINDER: case BINDER_TYPE_WEAK_BINDER:
		case BINDER_TYPE_FDA: case BINDER_TYPE_PTR:
			break; /* FDA fds are closed by the driver on free */
		default:
			violation(t, "object of unknown type %#x at %llu", hdr.type,
				  (unsigned long long)off);
			return;
		}
	}
}

/* Parse a BR stream; maplock held for reading. */
static void parse(struct thr *t, const uint8_t *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		uint32_t cmd;
		size_t sz;

		if (len - pos < 4) {
			violation(t, "BR stream: %zu stray bytes at the end", len - pos);
			return;
		}
		memcpy(&cmd, buf + pos, 4);
		pos += 4;
		sz = br_size(cmd);
		if (sz == (size_t)-1) {
			violation(t, "BR stream: unknown command %#x at %zu", cmd, pos - 4);
			return;
		}
		if (len - pos < sz) {
			violation(t, "BR stream: %#x truncated (%zu of %zu bytes)", cmd, len - pos, sz);
			return;
		}
		atomic_fetch_add(&sh->br_seen[_IOC_NR(cmd) & 31], 1);
		pthread_mutex_lock(&P.lock);
		switch (cmd) {
		case BR_TRANSACTION_SEC_CTX:
		case BR_TRANSACTION:
		case BR_REPLY: {
			struct binder_transaction_data tr;

			memcpy(&tr, buf + pos, sizeof(tr));
			take_objects(t, &tr);
			if (P.map)
				add_buf(tr.data.ptr.buffer);
			if (cmd != BR_REPLY && !(tr.flags & TF_ONE_WAY) && t->nin < 8)
				t->in[t->nin++] = (struct incoming){ tr.data.ptr.buffer, tr.code };
			break;
		}
		case BR_INCREFS:
		case BR_ACQUIRE: {
			struct binder_ptr_cookie pc;

			memcpy(&pc, buf + pos, sizeof(pc));
			if (PCT(t, 95)) {
				if (PCT(t, 3))
					pc.cookie ^= 1;
				add_ack(cmd == BR_INCREFS ? BC_INCREFS_DONE : BC_ACQUIRE_DONE, &pc, sizeof(pc));
			}
			break;
		}
		case BR_DEAD_BINDER:
		case BR_FROZEN_BINDER: {
			binder_uintptr_t cookie;

			memcpy(&cookie, buf + pos, 8);
			if (PCT(t, 90))
				add_ack(cmd == BR_DEAD_BINDER ? BC_DEAD_BINDER_DONE
							      : BC_FREEZE_NOTIFICATION_DONE,
					&cookie, 8);
			break;
		}
		default:
			break;
		}
		pthread_mutex_unlock(&P.lock);
		pos += sz;
	}
}

/* ---- ioctls ------------------------------------------------------------------ */

static void count_result(int rc)
{
	unsigned k = rc >= 0 ? 0 : errno == EINVAL ? 1 : errno == EFAULT ? 2 :
		     errno == EAGAIN ? 3 : errno == EBUSY ? 4 : errno == EPERM ? 5 :
		     errno == EBADF ? 6 : 7;

	atomic_fetch_add(&sh->results[k], 1);
}

/* WRITE_READ with a write buffer and an optional read into the arena; the
 * BRs read are parsed.  rsize == 0: write only. */
static int write_read(struct thr *t, const void *w, size_t wsize, size_t rsize, bool bad_rbuf)
{
	struct binder_write_read bwr = { 0 };
	uint8_t *rbuf = t->arena + PAGE;
	unsigned gen;
	int rc, fd;

	bwr.write_buffer = (uintptr_t)w;
	bwr.write_size = wsize;
	if (rsize) {
		bwr.read_buffer = bad_rbuf ? bad_ptr(t, rsize) : (uintptr_t)rbuf;
		bwr.read_size = rsize;
	}
	fd = P.fd;
	gen = atomic_load(&P.map_gen);
	t->seen_started = atomic_load(&P.frees_started);
	t->seen_finished = atomic_load(&P.frees_finished);
	t->freed_own = t->frees;
	t->frees = false;
	if (t->freed_own)
		atomic_fetch_add(&P.frees_started, 1);
	rc = ioctl(fd, BINDER_WRITE_READ, &bwr);
	if (t->freed_own)
		atomic_fetch_add(&P.frees_finished, 1);
	count_result(rc);
	/* Mainline reads a truncated last command's payload past write_size
	 * (binder_thread_write checks only that the command word starts
	 * before the end), so write_consumed may exceed write_size by less
	 * than one payload; more than that, or any read overrun, is a bug. */
	if (bwr.write_consumed > bwr.write_size)
		atomic_fetch_add(&sh->write_overrun, 1);
	if (bwr.write_consumed > bwr.write_size + sizeof(struct binder_transaction_data_sg) ||
	    bwr.read_consumed > bwr.read_size)
		violation(t, "write_read: consumed %llu/%llu of %llu/%llu",
			  (unsigned long long)bwr.write_consumed,
			  (unsigned long long)bwr.read_consumed,
			  (unsigned long long)bwr.write_size,
			  (unsigned long long)bwr.read_size);
	else if (rsize && !bad_rbuf && bwr.read_consumed) {
		pthread_rwlock_rdlock(&P.maplock);
		/* BRs read before a munmap/reopen name the old mapping */
		if (gen == atomic_load(&P.map_gen))
			parse(t, rbuf, bwr.read_consumed);
		pthread_rwlock_unlock(&P.maplock);
	}
	return rc;
}

/* Send the queued acks (BC_*_DONE, BC_DEAD_BINDER_DONE) most of the time. */
static void flush_acks(struct thr *t)
{
	uint8_t w[sizeof(P.acks)];
	size_t n;

	pthread_mutex_lock(&P.lock);
	n = P.acklen;
	memcpy(w, P.acks, n);
	P.acklen = 0;
	pthread_mutex_unlock(&P.lock);
	if (n && PCT(t, 97))
		write_read(t, w, n, 0, false);
}

static size_t read_size(struct thr *t)
{
	static const size_t sizes[] = { 0, 4, 7, 8, 12, 24, 44, 80, 128, 256, 512, 2048 };

	size_t n = PCT(t, 80) ? 256 + R(t, 1800) : sizes[R(t, 12)];

	return n && n < o_min_read ? o_min_read : n;
}

/* ---- transactions ------------------------------------------------------------- */

struct objbuild {
	uint8_t *data;
	binder_size_t *offs;
	size_t size, noffs;
	size_t sg_used;                 /* bytes of PTR payload (8-aligned) */
	int nptr;                       /* index of PTRs for parents */
	unsigned ptr_idx[8];
	size_t ptr_len[8];
	uint8_t *ptr_buf[8];
	size_t ptr_next_fix[8];         /* next fixup offset allowed in each PTR */
};

/* An open file of a binder device (ours or one received)?  --no-binder-fds */
static bool is_binder_file(int fd)
{
	struct stat st;

	return fd >= 0 && !fstat(fd, &st) && S_ISCHR(st.st_mode) && st.st_rdev == o_dev_rdev;
}

static int pick_fd(struct thr *t)
{
	int fd;

	switch (R(t, 6)) {
	case 0: fd = P.fd; break;
	case 1: case 2: return P.pipefd[R(t, 2)];
	case 3: pthread_mutex_lock(&P.lock); fd = P.nfds ? P.fds[R(t, P.nfds)] : 0;
		pthread_mutex_unlock(&P.lock); break;
	case 4: return -1 - (int)R(t, 3);
	default: return 900 + (int)R(t, 100);
	}
	return o_no_binder_fds && is_binder_file(fd) ? P.pipefd[0] : fd;
}

static void put_obj(struct objbuild *b, const void *obj, size_t n)
{
	memcpy(b->data + b->size, obj, n);
	b->offs[b->noffs++] = b->size;
	b->size += n;
}

/* Append one random object; mostly well typed. */
static void add_object(struct thr *t, struct objbuild *b, bool malformed)
{
	unsigned kind = R(t, 10);
	unsigned idx = (unsigned)b->noffs;

	if (PCT(t, 20)) { /* raw bytes between objects */
		size_t n = 8 * (1 + R(t, 3));

		for (size_t i = 0; i < n; i++)
			b->data[b->size + i] = (uint8_t)R(t, 256);
		b->size += n;
	}
	if (kind <= 2) {
		struct flat_binder_object o = { 0 };
		struct node *nd = &P.nodes[R(t, NNODES)];

		o.hdr.type = PCT(t, 75) ? BINDER_TYPE_BINDER : BINDER_TYPE_WEAK_BINDER;
		o.flags = PCT(t, 60) ? FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x7f : (uint32_t)R(t, 0x2000);
		o.binder = (uintptr_t)nd;
		o.cookie = (uintptr_t)nd ^ 0x5a5aULL;
		if (malformed && PCT(t, 30))
			o.cookie ^= 8;
		if (malformed && PCT(t, 10))
			o.binder = R64(t);
		put_obj(b, &o, sizeof(o));
	} else if (kind <= 4) {
		struct flat_binder_object o = { 0 };

		o.hdr.type = PCT(t, 75) ? BINDER_TYPE_HANDLE : BINDER_TYPE_WEAK_HANDLE;
		o.flags = PCT(t, 50) ? 0 : (uint32_t)R(t, 0x2000);
		o.handle = pick_handle(t);
		if (malformed && PCT(t, 20))
			o.cookie = R64(t);
		put_obj(b, &o, sizeof(o));
	} else if (kind == 5) {
		struct binder_fd_object o = { 0 };

		o.hdr.type = BINDER_TYPE_FD;
		o.fd = (uint32_t)pick_fd(t);
		o.cookie = PCT(t, 90) ? 0 : R64(t);
		put_obj(b, &o, sizeof(o));
	} else if (kind <= 8) {
		struct binder_buffer_object o = { 0 };
		size_t len = PCT(t, 20) ? 0 : 8 * (1 + R(t, 24));
		uint8_t *src = t->arena + 16 * PAGE + b->sg_used;

		if (b->sg_used + len > 24 * PAGE)
			len = 0;
		for (size_t i = 0; i < len; i++)
			src[i] = (uint8_t)R(t, 256);
		o.hdr.type = BINDER_TYPE_PTR;
		o.buffer = malformed && PCT(t, 15) ? bad_ptr(t, len) : (uintptr_t)src;
		o.length = malformed && PCT(t, 10) ? R64(t) >> R(t, 64) : len;
		if (b->nptr && PCT(t, 60)) {
			/* a child: its address is patched into a parent */
			int p = (int)R(t, (uint32_t)b->nptr);

			o.flags = BINDER_BUFFER_FLAG_HAS_PARENT;
			o.parent = b->ptr_idx[p];
			o.parent_offset = b->ptr_next_fix[p];
			if (malformed && PCT(t, 30)) {
				switch (R(t, 4)) {
				case 0: o.parent = idx + R(t, 3); break;
				case 1: o.parent_offset = b->ptr_len[p] - R(t, 8); break;
				case 2: o.parent_offset = R(t, 64); break;
				default: o.parent = R(t, 8); break;
				}
			}
			if (b->ptr_next_fix[p] + 8 <= b->ptr_len[p])
				b->ptr_next_fix[p] += 8;
		} else if (malformed && PCT(t, 10)) {
			o.flags = (uint32_t)R(t, 4);
			o.parent = R(t, 8);
		}
		b->sg_used += (len + 7) & ~(size_t)7;
		if (b->nptr < 8 && len) {
			b->ptr_idx[b->nptr] = idx;
			b->ptr_len[b->nptr] = len;
			b->ptr_buf[b->nptr] = src;
			b->ptr_next_fix[b->nptr] = 0;
			b->nptr++;
		}
		put_obj(b, &o, sizeof(o));
	} else {
		struct binder_fd_array_object o = { 0 };
		uint32_t nfd = PCT(t, 15) ? 0 : 1 + R(t, 4);

		o.hdr.type = BINDER_TYPE_FDA;
		o.num_fds = nfd;
		if (b->nptr) {
			int p = (int)R(t, (uint32_t)b->nptr);
			size_t at = b->ptr_next_fix[p];

			o.parent = b->ptr_idx[p];
			o.parent_offset = at;
			if (at + 4 * (size_t)nfd <= b->ptr_len[p]) {
				for (uint32_t i = 0; i < nfd; i++) {
					int fd = pick_fd(t);

					memcpy(b->ptr_buf[p] + at + 4 * i, &fd, 4);
				}
				b->ptr_next_fix[p] = (at + 4 * nfd + 7) & ~(size_t)7;
			}
		} else {
			o.parent = R(t, 4);
			o.parent_offset = 8 * R(t, 4);
		}
		if (malformed && PCT(t, 30)) {
			switch (R(t, 3)) {
			case 0: o.num_fds = (binder_size_t)R64(t) >> R(t, 64); break;
			case 1: o.parent_offset += 1 + R(t, 3); break;
			default: o.parent = idx + R(t, 3); break;
			}
		}
		put_obj(b, &o, sizeof(o));
	}
}

/* Build a random transaction (or reply) in the arena; returns the extra
 * buffers size for the _SG commands. */
static binder_size_t build_txn(struct thr *t, struct binder_transaction_data *tr, bool reply)
{
	struct objbuild b = { 0 };
	bool malformed = PCT(t, 15);
	unsigned nobj = PCT(t, 25) ? 0 : 1 + R(t, 5);
	binder_size_t sg;

	b.data = t->arena + 8 * PAGE;
	b.offs = (binder_size_t *)(t->arena + 12 * PAGE);
	if (PCT(t, 30)) {
		b.size = 4 * R(t, 16);
		for (size_t i = 0; i < b.size; i++)
			b.data[i] = (uint8_t)R(t, 256);
	}
	for (unsigned i = 0; i < nobj; i++)
		add_object(t, &b, malformed);
	memset(tr, 0, sizeof(*tr));
	tr->target.handle = reply ? 0 : pick_handle(t);
	tr->cookie = PCT(t, 95) ? 0 : R64(t);
	tr->code = PCT(t, 80) ? R(t, 16) : (uint32_t)R64(t);
	if (reply)
		tr->flags = PCT(t, 80) ? 0 : (uint32_t)R(t, 0x80);
	else
		tr->flags = (PCT(t, 40) ? TF_ONE_WAY : 0) | (PCT(t, 60) ? TF_ACCEPT_FDS : 0) |
			    (PCT(t, 10) ? TF_CLEAR_BUF : 0) | (PCT(t, 5) ? (uint32_t)R(t, 0x100) : 0);
	tr->data_size = b.size;
	tr->offsets_size = 8 * b.noffs;
	tr->data.ptr.buffer = (uintptr_t)b.data;
	tr->data.ptr.offsets = (uintptr_t)b.offs;
	sg = b.sg_used;
	if (PCT(t, 5)) { /* a big payload: async space, page allocation */
		tr->data_size = 8 * PAGE + R(t, 40 * PAGE);
		tr->data.ptr.buffer = (uintptr_t)(t->arena + 8 * PAGE);
		tr->offsets_size = 0;
	}
	if (malformed) {
		switch (R(t, 10)) {
		case 0: tr->offsets_size = 8 * b.noffs + 1 + R(t, 7); break;
		case 1: if (b.noffs) b.offs[R(t, (uint32_t)b.noffs)] = R(t, (uint32_t)b.size + 64); break;
		case 2: if (b.noffs > 1) { binder_size_t x = b.offs[0]; b.offs[0] = b.offs[1]; b.offs[1] = x; } break;
		case 3: if (b.noffs) b.offs[R(t, (uint32_t)b.noffs)] += 1 + R(t, 4); break;
		case 4: tr->data.ptr.buffer = bad_ptr(t, b.size); break;
		case 5: tr->data.ptr.offsets = bad_ptr(t, 8 * b.noffs); break;
		case 6: tr->data_size = R64(t) >> R(t, 64); break;
		case 7: tr->offsets_size = R64(t) >> R(t, 64); break;
		case 8: sg = R64(t) >> R(t, 64); break;
		default: sg = sg ? sg - 8 * (1 + R(t, 2)) : 1 + R(t, 7); break;
		}
	}
	return sg;
}

static size_t put_txn(struct thr *t, uint8_t *w, uint32_t base_cmd)
{
	struct binder_transaction_data_sg trs;
	bool sg = PCT(t, 50);
	uint32_t cmd = base_cmd == BC_TRANSACTION ? (sg ? BC_TRANSACTION_SG : BC_TRANSACTION)
						 : (sg ? BC_REPLY_SG : BC_REPLY);

	trs.buffers_size = build_txn(t, &trs.transaction_data, base_cmd == BC_REPLY);
	memcpy(w, &cmd, 4);
	if (sg) {
		memcpy(w + 4, &trs, sizeof(trs));
		return 4 + sizeof(trs);
	}
	memcpy(w + 4, &trs.transaction_data, sizeof(trs.transaction_data));
	return 4 + sizeof(trs.transaction_data);
}

/* ---- operations ------------------------------------------------------------------ */

static binder_uintptr_t pick_buffer(struct thr *t, bool take)
{
	binder_uintptr_t b = 0;

	pthread_mutex_lock(&P.lock);
	if (P.nbufs && PCT(t, 85)) {
		unsigned i = R(t, P.nbufs);

		b = P.bufs[i];
		if (take) {
			P.bufs[i] = P.bufs[--P.nbufs];
			P.freed[P.nfreed++ % 8] = b;
		}
	} else if (P.nfreed && PCT(t, 50)) {
		b = P.freed[R(t, P.nfreed < 8 ? P.nfreed : 8)];
	} else if (P.map && PCT(t, 70)) {
		b = (uintptr_t)P.map + 8 * R(t, (uint32_t)(P.map_size / 8));
	} else {
		b = bad_ptr(t, 8);
	}
	pthread_mutex_unlock(&P.lock);
	return b;
}

static size_t put_bc(struct thr *t, uint8_t *w)
{
	static const uint32_t cmds[] = {
		BC_TRANSACTION, BC_REPLY, BC_ACQUIRE_RESULT, BC_FREE_BUFFER, BC_INCREFS,
		BC_ACQUIRE, BC_RELEASE, BC_DECREFS, BC_INCREFS_DONE, BC_ACQUIRE_DONE,
		BC_ATTEMPT_ACQUIRE, BC_REGISTER_LOOPER, BC_ENTER_LOOPER, BC_EXIT_LOOPER,
		BC_REQUEST_DEATH_NOTIFICATION, BC_CLEAR_DEATH_NOTIFICATION, BC_DEAD_BINDER_DONE,
		BC_REQUEST_FREEZE_NOTIFICATION, BC_CLEAR_FREEZE_NOTIFICATION,
		BC_FREEZE_NOTIFICATION_DONE,
	};
	uint32_t cmd = PCT(t, 4) ? (PCT(t, 50) ? (uint32_t)R64(t) : _IOC(R(t, 4), 'c', R(t, 32), R(t, 80)))
				 : cmds[R(t, sizeof(cmds) / sizeof(cmds[0]))];
	size_t n = 4;

	switch (cmd) {
	case BC_TRANSACTION:
	case BC_REPLY:
		return put_txn(t, w, cmd);
	case BC_FREE_BUFFER:
	case BC_DEAD_BINDER_DONE:
	case BC_FREEZE_NOTIFICATION_DONE: {
		binder_uintptr_t b = cmd == BC_FREE_BUFFER ? pick_buffer(t, true) : R(t, 8);

		if (cmd == BC_FREE_BUFFER)
			t->frees = true;

		memcpy(w + 4, &b, 8);
		n += 8;
		break;
	}
	case BC_INCREFS: case BC_ACQUIRE: case BC_RELEASE: case BC_DECREFS:
	case BC_ACQUIRE_RESULT: {
		uint32_t h = pick_handle(t);

		memcpy(w + 4, &h, 4);
		n += 4;
		break;
	}
	case BC_INCREFS_DONE:
	case BC_ACQUIRE_DONE: {
		struct binder_ptr_cookie pc;
		struct node *nd = &P.nodes[R(t, NNODES)];

		pc.ptr = (uintptr_t)nd;
		pc.cookie = PCT(t, 80) ? ((uintptr_t)nd ^ 0x5a5aULL) : R64(t);
		memcpy(w + 4, &pc, sizeof(pc));
		n += sizeof(pc);
		break;
	}
	case BC_REQUEST_DEATH_NOTIFICATION:
	case BC_CLEAR_DEATH_NOTIFICATION:
	case BC_REQUEST_FREEZE_NOTIFICATION:
	case BC_CLEAR_FREEZE_NOTIFICATION: {
		struct binder_handle_cookie hc;

		hc.handle = pick_handle(t);
		hc.cookie = R(t, 8);
		memcpy(w + 4, &hc, sizeof(hc));
		n += sizeof(hc);
		break;
	}
	case BC_ATTEMPT_ACQUIRE:
		memset(w + 4, 0, 8);
		n += 8;
		break;
	case BC_REGISTER_LOOPER: case BC_ENTER_LOOPER: case BC_EXIT_LOOPER:
		break;
	default: { /* unknown: random payload of its encoded size */
		size_t sz = _IOC_SIZE(cmd) > 80 ? 80 : _IOC_SIZE(cmd);

		for (size_t i = 0; i < sz; i++)
			w[4 + i] = (uint8_t)R(t, 256);
		n += sz;
		break;
	}
	}
	memcpy(w, &cmd, 4);
	return n;
}

static void op_stream(struct thr *t)
{
	uint8_t *w = t->arena;
	size_t len = 0;
	unsigned n = 1 + R(t, 8);

	flush_acks(t);
	for (unsigned i = 0; i < n && len < PAGE - 200; i++)
		len += put_bc(t, w + len);
	if (PCT(t, 5) && len > 1)
		len -= 1 + R(t, 3);           /* truncated last command */
	if (PCT(t, 3))
		write_read(t, (void *)(uintptr_t)bad_ptr(t, len), len, read_size(t), false);
	else
		write_read(t, w, len, PCT(t, 70) ? read_size(t) : 0, PCT(t, 3));
}

static void op_txn(struct thr *t)
{
	uint8_t *w = t->arena;
	size_t len;

	flush_acks(t);
	len = put_txn(t, w, BC_TRANSACTION);
	write_read(t, w, len, PCT(t, 80) ? read_size(t) : 0, false);
}

static void op_reply(struct thr *t)
{
	uint8_t *w = t->arena;
	size_t len = 0;

	if (t->nin && PCT(t, 95)) {
		struct incoming in = t->in[--t->nin];
		uint32_t c = BC_FREE_BUFFER;

		if (PCT(t, 80)) {
			memcpy(w, &c, 4);
			memcpy(w + 4, &in.buffer, 8);
			len = 12;
			t->frees = true;
			pthread_mutex_lock(&P.lock);
			for (unsigned i = 0; i < P.nbufs; i++)
				if (P.bufs[i] == in.buffer) {
					P.bufs[i] = P.bufs[--P.nbufs];
					break;
				}
			pthread_mutex_unlock(&P.lock);
		}
	}
	len += put_txn(t, w + len, BC_REPLY);
	write_read(t, w, len, PCT(t, 70) ? read_size(t) : 0, false);
}

static void op_read(struct thr *t)
{
	write_read(t, NULL, 0, read_size(t), PCT(t, 3));
	flush_acks(t);
}

static void op_free(struct thr *t)
{
	uint8_t w[24];
	uint32_t c = BC_FREE_BUFFER;
	binder_uintptr_t b = pick_buffer(t, true);

	memcpy(w, &c, 4);
	memcpy(w + 4, &b, 8);
	t->frees = true;
	write_read(t, w, 12, 0, false);
}

static void op_refs(struct thr *t)
{
	static const uint32_t cmds[] = { BC_INCREFS, BC_ACQUIRE, BC_RELEASE, BC_DECREFS };
	uint8_t w[128];
	size_t len = 0;
	unsigned n = 1 + R(t, 6);
	uint32_t h = pick_handle(t);

	for (unsigned i = 0; i < n; i++) {
		uint32_t c = cmds[R(t, 4)];

		if (PCT(t, 30))
			h = pick_handle(t);
		memcpy(w + len, &c, 4);
		memcpy(w + len + 4, &h, 4);
		len += 8;
	}
	write_read(t, w, len, PCT(t, 50) ? read_size(t) : 0, false);
}

/* Death and (half the time) frozen-binder notifications, which share a
 * layout: request and clear (handle, cookie), then the cookie's ack. */
static void op_death(struct thr *t)
{
	uint8_t w[128];
	size_t len = 0;
	unsigned n = 1 + R(t, 4);
	bool freeze = PCT(t, 50);

	for (unsigned i = 0; i < n; i++) {
		uint32_t c = PCT(t, 60) ? BC_REQUEST_DEATH_NOTIFICATION :
			     PCT(t, 75) ? BC_CLEAR_DEATH_NOTIFICATION : BC_DEAD_BINDER_DONE;
		struct binder_handle_cookie hc = { pick_handle(t), R(t, 8) };

		if (freeze)
			c = c == BC_REQUEST_DEATH_NOTIFICATION ? BC_REQUEST_FREEZE_NOTIFICATION :
			    c == BC_CLEAR_DEATH_NOTIFICATION ? BC_CLEAR_FREEZE_NOTIFICATION :
							       BC_FREEZE_NOTIFICATION_DONE;
		memcpy(w + len, &c, 4);
		if (c == BC_DEAD_BINDER_DONE || c == BC_FREEZE_NOTIFICATION_DONE) {
			memcpy(w + len + 4, &hc.cookie, 8);
			len += 12;
		} else {
			memcpy(w + len + 4, &hc, sizeof(hc));
			len += 4 + sizeof(hc);
		}
	}
	write_read(t, w, len, PCT(t, 60) ? read_size(t) : 0, false);
}

static void op_ioctl(struct thr *t)
{
	uint8_t *a = t->arena + 2 * PAGE;
	bool bad = PCT(t, 10);
	unsigned long cmd;
	int rc;

	memset(a, 0, 64);
	switch (R(t, 14)) {
	case 0: cmd = BINDER_VERSION; break;
	case 1: cmd = BINDER_SET_MAX_THREADS;
		*(uint32_t *)a = PCT(t, 80) ? R(t, 16) : (uint32_t)R64(t); break;
	case 2: cmd = BINDER_SET_IDLE_TIMEOUT; *(int64_t *)a = (int64_t)R64(t); break;
	case 3: cmd = BINDER_SET_IDLE_PRIORITY; *(int32_t *)a = (int32_t)R(t, 40) - 20; break;
	case 4: cmd = BINDER_THREAD_EXIT; t->nin = 0; break;
	case 5: {
		struct binder_node_debug_info *ni = (void *)a;

		cmd = BINDER_GET_NODE_DEBUG_INFO;
		ni->ptr = PCT(t, 50) ? 0 : (uintptr_t)&P.nodes[R(t, NNODES)];
		if (PCT(t, 10))
			ni->cookie = 1;
		break;
	}
	case 6: {
		struct binder_node_info_for_ref *ir = (void *)a;

		cmd = BINDER_GET_NODE_INFO_FOR_REF;
		ir->handle = pick_handle(t);
		if (PCT(t, 10))
			ir->strong_count = 1;
		break;
	}
	case 7: {
		struct binder_freeze_info *fi = (void *)a;
		unsigned s = R(t, o_procs);

		cmd = BINDER_FREEZE;
		fi->pid = PCT(t, 80) ? (uint32_t)atomic_load(&sh->proc[s].pid) : (uint32_t)R64(t);
		fi->enable = PCT(t, 25);
		fi->timeout_ms = R(t, 3);
		break;
	}
	case 8: {
		struct binder_frozen_status_info *fs = (void *)a;

		cmd = BINDER_GET_FROZEN_INFO;
		fs->pid = (uint32_t)atomic_load(&sh->proc[R(t, o_procs)].pid);
		break;
	}
	case 9: cmd = BINDER_ENABLE_ONEWAY_SPAM_DETECTION; *(uint32_t *)a = R(t, 2); break;
	case 10: cmd = BINDER_GET_EXTENDED_ERROR; break;
	case 11: { /* BINDER_WRITE_READ with a random header */
		struct binder_write_read *bwr = (void *)a;

		cmd = BINDER_WRITE_READ;
		bwr->write_size = R(t, 64);
		bwr->write_buffer = (uintptr_t)(t->arena + 3 * PAGE);
		bwr->write_consumed = PCT(t, 70) ? 0 : R(t, 80);
		bwr->read_size = R(t, 64);
		bwr->read_buffer = bad_ptr(t, bwr->read_size);
		bwr->read_consumed = PCT(t, 70) ? 0 : R(t, 80);
		for (unsigned i = 0; i < 64; i++)
			t->arena[3 * PAGE + i] = (uint8_t)R(t, 256);
		break;
	}
	case 12: /* unknown binder ioctls, arguments in our arena */
		cmd = _IOC(R(t, 4), 'b', R(t, 32), R(t, 256));
		for (unsigned i = 0; i < 64; i++)
			a[i] = (uint8_t)R(t, 256);
		break;
	default:
		cmd = PCT(t, 50) ? BINDER_SET_CONTEXT_MGR : BINDER_SET_CONTEXT_MGR_EXT;
		if (cmd == BINDER_SET_CONTEXT_MGR_EXT) {
			struct flat_binder_object *o = (void *)a;

			o->hdr.type = PCT(t, 90) ? BINDER_TYPE_BINDER : (uint32_t)R64(t);
			o->flags = PCT(t, 50) ? FLAT_BINDER_FLAG_TXN_SECURITY_CTX : (uint32_t)R(t, 0x2000);
			o->binder = (uintptr_t)&P.nodes[R(t, NNODES)];
			o->cookie = o->binder ^ 0x5a5aULL;
		}
		break;
	}
	rc = ioctl(P.fd, cmd, bad ? (void *)(uintptr_t)bad_ptr(t, 64) : (void *)a);
	count_result(rc);
	trace(t, "ioctl %#lx -> %d", cmd, rc < 0 ? -errno : rc);
}

static void op_poll(struct thr *t)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct pollfd pfd = { .fd = P.fd, .events = POLLIN };

	switch (R(t, 4)) {
	case 0:
		poll(&pfd, 1, 0);
		break;
	case 1: { /* the Bad Binder pattern: epoll, thread exit, close epoll */
		int ep = epoll_create1(EPOLL_CLOEXEC);

		if (ep < 0)
			break;
		epoll_ctl(ep, EPOLL_CTL_ADD, P.fd, &ev);
		epoll_wait(ep, &ev, 1, 0);
		if (PCT(t, 60)) {
			ioctl(P.fd, BINDER_THREAD_EXIT, 0);
			t->nin = 0;
		}
		close(ep);
		break;
	}
	default:
		pthread_mutex_lock(&P.lock);
		if (P.epfd < 0)
			P.epfd = epoll_create1(EPOLL_CLOEXEC);
		pthread_mutex_unlock(&P.lock);
		epoll_ctl(P.epfd, PCT(t, 70) ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, P.fd, &ev);
		epoll_wait(P.epfd, &ev, 1, 0);
		break;
	}
}

static int map_device(void)
{
	void *m = mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, P.fd, 0);

	if (m == MAP_FAILED)
		return -errno;
	P.map = m;
	P.map_size = MAP_SIZE;
	return 0;
}

static void op_mmap(struct thr *t)
{
	int prot = PCT(t, 20) ? PROT_READ | PROT_WRITE : PROT_READ;
	size_t size = PCT(t, 70) ? MAP_SIZE : PAGE * (1 + R(t, 1100));
	void *m;

	pthread_rwlock_wrlock(&P.maplock);
	m = mmap(NULL, size, prot, PCT(t, 80) ? MAP_PRIVATE : MAP_SHARED, P.fd, 0);
	if (m != MAP_FAILED) {
		if (!P.map) {
			P.map = m;
			P.map_size = size < 4u << 20 ? size : 4u << 20;
			atomic_fetch_add(&P.map_gen, 1);
		} else {
			munmap(m, size);
		}
	}
	pthread_rwlock_unlock(&P.maplock);
	trace(t, "mmap %zu prot %d -> %s", size, prot, m == MAP_FAILED ? strerror(errno) : "ok");
}

static void op_munmap(struct thr *t)
{
	pthread_rwlock_wrlock(&P.maplock);
	if (P.map) {
		if (PCT(t, 70)) {
			munmap(P.map, P.map_size);
			P.map = NULL;
		} else { /* a hole; the rest stays mapped but is no longer looked at */
			size_t at = PAGE * R(t, (uint32_t)(P.map_size / PAGE));

			munmap(P.map + at, PAGE);
			P.map = NULL;
		}
		atomic_fetch_add(&P.map_gen, 1);
	}
	pthread_rwlock_unlock(&P.maplock);
	pthread_mutex_lock(&P.lock);
	P.nbufs = 0;
	pthread_mutex_unlock(&P.lock);
}

/* Replace the open with a fresh one under the same fd number; ioctls in
 * flight on the old file finish on it. */
static void op_reopen(struct thr *t)
{
	int nfd = open(o_dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (nfd < 0)
		return;
	pthread_rwlock_wrlock(&P.maplock);
	dup3(nfd, P.fd, O_CLOEXEC);
	close(nfd);
	if (P.map)
		munmap(P.map, P.map_size);
	P.map = NULL;
	atomic_fetch_add(&P.map_gen, 1);
	if (PCT(t, 90))
		map_device();
	pthread_mutex_lock(&P.lock);
	P.nhandles = P.nbufs = P.nfreed = 0;
	P.acklen = 0;
	/* under P.lock: a thread leaving (OP_PTHREAD_EXIT) frees its struct */
	for (unsigned i = 0; i < MAX_THREADS; i++)
		if (P.thr[i])
			P.thr[i]->nin = 0; /* racy but only a hint for replies */
	pthread_mutex_unlock(&P.lock);
	pthread_rwlock_unlock(&P.maplock);
}

/* A child sharing the open: a few raw commands, then exit.  No locks in
 * the child (other threads may have held them at fork). */
static void op_fork(struct thr *t)
{
	uint64_t seed = R64(t);
	pid_t pid = fork();

	if (pid == 0) {
		struct fz_rng r = { seed };
		uint8_t w[64];
		uint8_t rb[256];

		for (int i = 0; i < 8; i++) {
			struct binder_write_read bwr = { 0 };
			uint32_t c = (uint32_t[]){ BC_ENTER_LOOPER, BC_INCREFS, BC_ACQUIRE,
						   BC_RELEASE, BC_DECREFS, BC_EXIT_LOOPER }[fz_below(&r, 6)];
			uint32_t h = fz_below(&r, 4);

			memcpy(w, &c, 4);
			memcpy(w + 4, &h, 4);
			bwr.write_buffer = (uintptr_t)w;
			bwr.write_size = c == BC_ENTER_LOOPER || c == BC_EXIT_LOOPER ? 4 : 8;
			bwr.read_buffer = (uintptr_t)rb;
			bwr.read_size = fz_pct(&r, 50) ? sizeof(rb) : 0;
			ioctl(P.fd, BINDER_WRITE_READ, &bwr);
			if (fz_pct(&r, 20))
				ioctl(P.fd, BINDER_THREAD_EXIT, 0);
		}
		if (fz_pct(&r, 30))
			mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE, P.fd, 0);
		_exit(0);
	}
}

static void op_ctxmgr(struct thr *t)
{
	if (PCT(t, 50)) {
		ioctl(P.fd, BINDER_SET_CONTEXT_MGR, 0);
	} else {
		struct flat_binder_object o = { 0 };

		o.hdr.type = BINDER_TYPE_BINDER;
		o.flags = PCT(t, 30) ? FLAT_BINDER_FLAG_TXN_SECURITY_CTX : FLAT_BINDER_FLAG_ACCEPTS_FDS;
		o.binder = (uintptr_t)&P.nodes[0];
		o.cookie = o.binder ^ 0x5a5aULL;
		ioctl(P.fd, BINDER_SET_CONTEXT_MGR_EXT, &o);
	}
}

/* ---- threads ---------------------------------------------------------------------- */

static void *thread_main(void *arg);

static void start_thread(unsigned slot, unsigned gen)
{
	struct thr *t = calloc(1, sizeof(*t));
	pthread_attr_t at;
	pthread_t th;

	if (!t)
		_exit(3);
	t->p = &P;
	t->slot = slot;
	t->gen = gen;
	t->arena = mmap(NULL, ARENA_SIZE + PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->arena == MAP_FAILED)
		_exit(3);
	mprotect(t->arena + ARENA_SIZE, PAGE, PROT_NONE);
	P.thr[slot] = t;
	atomic_store(&sh->proc[P.slot].thr[slot].gen, gen);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&at, 256 * 1024);
	if (pthread_create(&th, &at, thread_main, t))
		_exit(3);
	pthread_attr_destroy(&at);
}

static enum op_kind pick_op(struct thr *t)
{
	uint32_t x = R(t, 1000), acc = 0;

	for (int k = 0; k < OP_COUNT; k++) {
		acc += op_weight[k];
		if (x < acc)
			return o_skip & (1u << k) ? OP_READ : (enum op_kind)k;
	}
	return OP_READ;
}

/* --skip a,b,c: the named operations become reads (for bisecting a
 * finding down to the operations that cause it) */
static void parse_skip(const char *list)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *n = strtok_r(buf, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		int k;

		for (k = 0; k < OP_COUNT && strcmp(n, op_name[k]); k++)
			;
		if (k == OP_COUNT) {
			fprintf(stderr, "binderc-fuzz: unknown operation '%s'\n", n);
			exit(2);
		}
		o_skip |= 1u << k;
	}
}

static bool budget_left(void)
{
	return !atomic_load(&sh->stop) && (!o_ops || atomic_load(&sh->ops) < o_ops);
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;
	struct thr_slot *ts = &sh->proc[P.slot].thr[t->slot];

	cur_thr = t;

	while (budget_left()) {
		enum op_kind k;

		t->r.s = fz_derive(o_seed, P.slot, P.inc, t->slot, t->gen, t->opidx);
		k = pick_op(t);
		atomic_store(&ts->op, (uint32_t)k);
		atomic_store(&ts->opidx, t->opidx);
		atomic_store(&ts->op_start_ms, th_now_ms());
		trace(t, "%s", op_name[k]);
		switch (k) {
		case OP_STREAM: op_stream(t); break;
		case OP_TXN: op_txn(t); break;
		case OP_REPLY: op_reply(t); break;
		case OP_READ: op_read(t); break;
		case OP_FREE: op_free(t); break;
		case OP_REFS: op_refs(t); break;
		case OP_DEATH: op_death(t); break;
		case OP_IOCTL: op_ioctl(t); break;
		case OP_POLL: op_poll(t); break;
		case OP_THREAD_EXIT:
			ioctl(P.fd, BINDER_THREAD_EXIT, 0);
			t->nin = 0;
			break;
		case OP_PTHREAD_EXIT:
			if (PCT(t, 50))
				ioctl(P.fd, BINDER_THREAD_EXIT, 0);
			atomic_store(&ts->op_start_ms, 0);
			atomic_fetch_add(&sh->ops, 1);
			munmap(t->arena, ARENA_SIZE + PAGE);
			cur_thr = NULL;
			pthread_mutex_lock(&P.lock);
			P.thr[t->slot] = NULL;
			start_thread(t->slot, t->gen + 1);
			pthread_mutex_unlock(&P.lock);
			free(t);
			return NULL;
		case OP_MMAP: op_mmap(t); break;
		case OP_MUNMAP: op_munmap(t); break;
		case OP_REOPEN: op_reopen(t); break;
		case OP_FORK: op_fork(t); break;
		case OP_EXIT:
			atomic_fetch_add(&sh->ops, 1);
			if (PCT(t, 50))
				_exit(0);
			raise(SIGKILL);
			break;
		case OP_CTXMGR: op_ctxmgr(t); break;
		default: break;
		}
		atomic_store(&ts->op_start_ms, 0);
		atomic_fetch_add(&sh->ops, 1);
		t->opidx++;
	}
	atomic_store(&ts->op_start_ms, 0);
	pthread_mutex_lock(&P.lock);
	if (--P.nthreads_alive == 0)
		_exit(0);
	pthread_mutex_unlock(&P.lock);
	return NULL;
}

/* A worker's SIGSEGV / SIGBUS: say where (address, operation, mapping,
 * return addresses for addr2line), then die of the signal as before. */
static void crash_report(int sig, siginfo_t *si, void *uc)
{
	struct thr *t = cur_thr;
	void *frames[24];
	char msg[320];
	int n;

	(void)uc;
	n = snprintf(msg, sizeof(msg),
		     "binderc-fuzz: CRASH seed 0x%" PRIx64 " proc %u inc %u thread %u gen %u op %" PRIu64
		     " (%s): signal %d code %d addr %p; map %p+%zu arena %p\n",
		     o_seed, P.slot, P.inc, t ? t->slot : 0, t ? t->gen : 0, t ? t->opidx : 0,
		     t ? op_name[atomic_load(&sh->proc[P.slot].thr[t->slot].op) % OP_COUNT] : "-", sig,
		     si->si_code, si->si_addr, (void *)P.map, P.map_size, t ? (void *)t->arena : NULL);
	if (n > 0 && write(2, msg, (size_t)n < sizeof(msg) ? (size_t)n : sizeof(msg) - 1) < 0) {
		/* nothing to do */
	}
	n = backtrace(frames, 24);
	backtrace_symbols_fd(frames, n, 2);
	/* SA_RESETHAND: returning re-runs the access, which kills us */
}

static void worker(unsigned slot, unsigned inc)
{
	struct sigaction sa = { .sa_sigaction = crash_report, .sa_flags = SA_SIGINFO | SA_RESETHAND };

	struct rlimit rl = { 96, 96 };
	pthread_rwlockattr_t ra;

	P.slot = slot;
	P.inc = inc;
	signal(SIGCHLD, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	setrlimit(RLIMIT_NOFILE, &rl);  /* fd installs reach EMFILE now and then */
	pthread_rwlockattr_init(&ra);
	/* munmap/reopen must not starve behind the readers */
	pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&P.maplock, &ra);
	pthread_mutex_init(&P.lock, NULL);
	P.epfd = -1;
	if (pipe2(P.pipefd, O_CLOEXEC))
		_exit(3);
	P.inval = mmap(NULL, 16 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	P.fd = open(o_dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (P.fd < 0) {
		fprintf(stderr, "binderc-fuzz: open %s: %s\n", o_dev, strerror(errno));
		/* under fault injection (BINDERC_FAULT) open may fail: fine */
		_exit(getenv("BINDERC_FAULT") ? 0 : 3);
	}
	map_device();
	/* worker 0 wants to be the context manager: handles spread through
	 * it.  Its previous incarnation may still be being released. */
	for (int i = 0; slot == 0 && i < 20 && ioctl(P.fd, BINDER_SET_CONTEXT_MGR, 0) < 0 &&
	     errno == EBUSY; i++)
		usleep(10 * 1000);
	P.nthreads_alive = o_threads;
	pthread_mutex_lock(&P.lock);
	for (unsigned i = 0; i < o_threads; i++)
		start_thread(i, 0);
	pthread_mutex_unlock(&P.lock);
	for (;;)
		pause();
}

/* ---- parent ------------------------------------------------------------------------- */

static pid_t spawn(unsigned slot)
{
	unsigned inc = atomic_load(&sh->proc[slot].inc);
	pid_t pid;

	for (unsigned i = 0; i < MAX_THREADS; i++)
		atomic_store(&sh->proc[slot].thr[i].op_start_ms, 0);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("binderc-fuzz: fork");
		exit(2);
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		worker(slot, inc);
	}
	atomic_store(&sh->proc[slot].pid, pid);
	return pid;
}

static void usage(void)
{
	fprintf(stderr, "usage: binderc-fuzz [--seed S] [--ops N] [--seconds S] [--procs P] [--threads T]\n"
			"                    [--device DEV] [--hang-ms MS] [--min-read N] [--skip OP,OP...]\n"
			"                    [--allow-leak KIND,...] [--no-kill] [--no-binder-fds] [--trace]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct fz_rng pr;
	int64_t start, end = 0, last_report;
	uint64_t restarts = 0, kills = 0, crashes = 0;
	bool hung = false;
	char why[512];
	long live;
	int status = 0;

	o_dev = th_device();
	o_ops = fz_env_u64("BINDERC_FUZZ_OPS", 100000);
	o_seconds = fz_env_u64("BINDERC_FUZZ_SECONDS", 0);
	o_seed = getenv("BINDERC_FUZZ_SEED") ? fz_env_u64("BINDERC_FUZZ_SEED", 0) : fz_time_seed();
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-kill")) { o_kill = false; continue; }
		if (!strcmp(a, "--trace")) { o_trace = true; continue; }
		if (!strcmp(a, "--no-binder-fds")) { o_no_binder_fds = true; continue; }
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seed")) o_seed = fz_u64(v, 0);
		else if (!strcmp(a, "--ops")) o_ops = fz_u64(v, 0);
		else if (!strcmp(a, "--seconds")) o_seconds = fz_u64(v, 0);
		else if (!strcmp(a, "--procs")) o_procs = (unsigned)fz_u64(v, 4);
		else if (!strcmp(a, "--threads")) o_threads = (unsigned)fz_u64(v, 3);
		else if (!strcmp(a, "--device")) o_dev = v;
		else if (!strcmp(a, "--hang-ms")) o_hang_ms = (int64_t)fz_u64(v, TH_HANG_MS);
		else if (!strcmp(a, "--min-read")) o_min_read = (size_t)fz_u64(v, 0);
		else if (!strcmp(a, "--skip")) parse_skip(v);
		else if (!strcmp(a, "--allow-leak")) fz_leak_allowed = v;
		else usage();
	}
	if (!o_procs || o_procs > MAX_PROCS || !o_threads || o_threads > MAX_THREADS)
		usage();
	if (o_no_binder_fds) {
		struct stat st;

		if (stat(o_dev, &st)) {
			fprintf(stderr, "binderc-fuzz: %s: %s\n", o_dev, strerror(errno));
			return 2;
		}
		o_dev_rdev = st.st_rdev;
	}
	printf("binderc-fuzz: seed 0x%" PRIx64 " device %s procs %u threads %u ops %" PRIu64
	       " seconds %" PRIu64 "%s\n", o_seed, o_dev, o_procs, o_threads, o_ops, o_seconds,
	       o_no_binder_fds ? " (no binder fds in FD objects)" : "");
	fflush(stdout);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	memset(sh, 0, sizeof(*sh));
	/* grandchildren (fork operations) are reparented to us and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	pr.s = fz_derive(o_seed, 0xfeed, 0, 0, 0, 0);
	start = last_report = th_now_ms();
	if (o_seconds)
		end = start + (int64_t)o_seconds * 1000;
	for (unsigned s = 0; s < o_procs; s++)
		spawn(s);

	while (!atomic_load(&sh->stop)) {
		int64_t now;
		pid_t pid;
		int ws;

		usleep(50 * 1000);
		now = th_now_ms();
		while ((pid = waitpid(-1, &ws, WNOHANG)) > 0) {
			for (unsigned s = 0; s < o_procs; s++) {
				if (atomic_load(&sh->proc[s].pid) != pid)
					continue;
				if (WIFSIGNALED(ws) && WTERMSIG(ws) != SIGKILL) {
					fprintf(stderr, "binderc-fuzz: worker %u inc %u died of signal %d\n",
						s, atomic_load(&sh->proc[s].inc), WTERMSIG(ws));
					crashes++;
				} else if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0) {
					fprintf(stderr, "binderc-fuzz: worker %u inc %u exited %d\n",
						s, atomic_load(&sh->proc[s].inc), WEXITSTATUS(ws));
					crashes++;
				}
				atomic_fetch_add(&sh->proc[s].inc, 1);
				if (budget_left()) {
					spawn(s);
					restarts++;
				} else {
					atomic_store(&sh->proc[s].pid, 0);
				}
			}
		}
		/* hang watch: any operation taking too long is stuck in the kernel */
		for (unsigned s = 0; s < o_procs && !hung; s++) {
			pid_t wp = atomic_load(&sh->proc[s].pid);

			for (unsigned th = 0; th < o_threads && wp; th++) {
				int64_t st = atomic_load(&sh->proc[s].thr[th].op_start_ms);

				if (st && now - st > o_hang_ms) {
					unsigned op = atomic_load(&sh->proc[s].thr[th].op);

					fprintf(stderr, "binderc-fuzz: HANG seed 0x%" PRIx64 ": proc %u inc %u thread %u gen %u op %" PRIu64 " (%s) running for %" PRId64 " ms\n",
						o_seed, s, atomic_load(&sh->proc[s].inc), th,
						atomic_load(&sh->proc[s].thr[th].gen),
						atomic_load(&sh->proc[s].thr[th].opidx),
						op < OP_COUNT ? op_name[op] : "?", now - st);
					for (unsigned q = 0; q < o_procs; q++)
						if (atomic_load(&sh->proc[q].pid))
							fz_dump_stacks(atomic_load(&sh->proc[q].pid), stderr);
					hung = true;
					break;
				}
			}
		}
		if (hung || (!budget_left()) || (end && now > end))
			atomic_store(&sh->stop, 1);
		if (o_kill && fz_below(&pr, 1000) < 15) {
			unsigned s = fz_below(&pr, o_procs);
			pid_t wp = atomic_load(&sh->proc[s].pid);

			if (wp > 0 && !kill(wp, SIGKILL))
				kills++;
		}
		if (now - last_report > 30000) {
			last_report = now;
			printf("binderc-fuzz: %" PRIu64 " ops, %" PRIu64 " restarts, %" PRIu64 " s\n",
			       atomic_load(&sh->ops), restarts, (uint64_t)((now - start) / 1000));
			fflush(stdout);
		}
	}

	/* wind down: workers see the stop flag; stragglers are killed */
	{
		int64_t deadline = th_now_ms() + (hung ? 0 : 20000);
		bool killed_all = false;
		pid_t pid;
		int ws;

		for (;;) {
			bool left = false;

			while ((pid = waitpid(-1, &ws, WNOHANG)) > 0)
				for (unsigned s = 0; s < o_procs; s++)
					if (atomic_load(&sh->proc[s].pid) == pid) {
						if (WIFSIGNALED(ws) && WTERMSIG(ws) != SIGKILL)
							crashes++;
						atomic_store(&sh->proc[s].pid, 0);
					}
			for (unsigned s = 0; s < o_procs; s++)
				left |= atomic_load(&sh->proc[s].pid) != 0;
			if (!left && pid < 0 && errno == ECHILD)
				break;
			if (th_now_ms() > deadline) {
				if (killed_all) {
					fprintf(stderr, "binderc-fuzz: HANG seed 0x%" PRIx64 ": workers survive SIGKILL\n", o_seed);
					for (unsigned s = 0; s < o_procs; s++)
						if (atomic_load(&sh->proc[s].pid) > 0)
							fz_dump_stacks(atomic_load(&sh->proc[s].pid), stderr);
					hung = true;
					break;
				}
				for (unsigned s = 0; s < o_procs; s++)
					if (atomic_load(&sh->proc[s].pid) > 0)
						kill(atomic_load(&sh->proc[s].pid), SIGKILL);
				killed_all = true;
				/* a hang-catcher: SIGKILLed workers must go */
				deadline = th_now_ms() + TH_HANG_MS;
			}
			usleep(20 * 1000);
		}
	}

	live = fz_wait_zero(o_dev, TH_HANG_MS, why, sizeof(why));
	printf("binderc-fuzz: seed 0x%" PRIx64 ": %" PRIu64 " ops in %" PRId64 " s, %" PRIu64
	       " restarts, %" PRIu64 " kills, %" PRIu64 " violations, %" PRIu64 " crashes\n",
	       o_seed, atomic_load(&sh->ops), (th_now_ms() - start) / 1000, restarts, kills,
	       atomic_load(&sh->violations), crashes);
	printf("binderc-fuzz: ioctl results: ok %" PRIu64 " EINVAL %" PRIu64 " EFAULT %" PRIu64
	       " EAGAIN %" PRIu64 " EBUSY %" PRIu64 " EPERM %" PRIu64 " EBADF %" PRIu64 " other %" PRIu64 "\n",
	       atomic_load(&sh->results[0]), atomic_load(&sh->results[1]), atomic_load(&sh->results[2]),
	       atomic_load(&sh->results[3]), atomic_load(&sh->results[4]), atomic_load(&sh->results[5]),
	       atomic_load(&sh->results[6]), atomic_load(&sh->results[7]));
	printf("binderc-fuzz: BRs seen:");
	for (int i = 0; i < 23; i++)
		printf(" %d:%" PRIu64, i, atomic_load(&sh->br_seen[i]));
	printf("\nbinderc-fuzz: write_consumed beyond write_size (truncated commands): %" PRIu64 "\n",
	       atomic_load(&sh->write_overrun));
	printf("binderc-fuzz: received buffers left unchecked (a free raced): %" PRIu64 "\n",
	       atomic_load(&sh->unchecked));
	if (why[0])
		printf("binderc-fuzz: live objects at the end: %s\n", why);
	if (live < 0) {
		printf("binderc-fuzz: live-object counters unreadable (debugfs?): not checked\n");
	} else if (live > 0) {
		printf("binderc-fuzz: LEAK seed 0x%" PRIx64 ": live objects after every process exited: %s\n",
		       o_seed, why);
		status = 1;
	}
	if (hung || crashes || atomic_load(&sh->violations))
		status = 1;
	printf("binderc-fuzz: %s\n", status ? "FAIL" : "ok");
	return status;
}
