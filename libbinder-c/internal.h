/* SPDX-License-Identifier: MIT */
/*
 * libbinder-c internal declarations shared between the library's files.
 *
 * LOCKING
 *
 * There is no process-global lock.  What is shared is protected so:
 *
 *  - Reference counts of every object are C11 atomics.  A bc_binder's
 *    strong and weak counts change without a lock; a thread that needs to
 *    revive a count it does not hold (a lookup in the handle table, a
 *    weak reference promoted to a local object) increments only from
 *    non-zero (compare-exchange), so an object whose last reference is
 *    being dropped is never brought back.
 *  - bc_process.obj_mu (one per opened device) protects that process's
 *    handle -> proxy table (proxies, bc_proxy.in_table, .mem), its list of
 *    bound local objects (locals, bc_local.bound/k_weak/k_strong...),
 *    every proxy's death and frozen-state registrations and flags, and
 *    the process's ordered command queue (oq_*).  bc_process.mu protects
 *    the thread list and the pool, as before; the two are never nested.
 *  - bc_txn.mu protects a deferred reply's completion.
 *
 * No system call (ioctl, write, close) is made while any of these mutexes
 * is held, and no allocation either.  Commands that result from changes
 * made under obj_mu are recorded there and sent after unlocking:
 *
 *  - Increments of the kernel's counts (BC_INCREFS, BC_ACQUIRE) are
 *    written by the thread whose count went from zero, before the API
 *    call that made it returns, so the matching decrement, which needs
 *    every holder of the count to drop it first, always comes after.
 *  - Decrements and acknowledgements (BC_RELEASE, BC_DECREFS,
 *    BC_INCREFS_DONE, BC_ACQUIRE_DONE, BC_FREEZE_NOTIFICATION_DONE) are
 *    queued into the calling thread's pending write when it is inside the
 *    command loop (they go with its next BINDER_WRITE_READ, the reply or
 *    the next read, as libbinder's IPCThreadState does) and written at
 *    once otherwise.  Delaying a decrement is always safe.
 *  - Death and frozen-state (un)registrations, whose order matters across
 *    threads (a clear must not overtake its request), are appended to the
 *    process's ordered queue under obj_mu, in the order of the state
 *    changes, and written by one thread at a time without the lock (see
 *    orderq.c).
 *
 * A call on a proxy the caller holds takes no lock and allocates nothing:
 * bc_binder_transact() -> bc__transact() touch only the calling thread's
 * state, and the served side's target lookup is an atomic increment.
 */
#ifndef BINDERC_INTERNAL_H
#define BINDERC_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <uapi/binder.h>

#include <binderc/binderc.h>

#include "refcount.h"

#define BINDERC_OBJ_SIZE sizeof(struct flat_binder_object)

/* ---- utf.c ------------------------------------------------------------ */
/* Convert UTF-8 to UTF-16; @out may be NULL to count.  Returns units or
 * -EILSEQ. */
ssize_t bc__utf8_to_utf16(const char *s, size_t len, uint16_t *out);
/* Convert UTF-16 to UTF-8; @out may be NULL to count.  Returns bytes or
 * -EILSEQ. */
ssize_t bc__utf16_to_utf8(const uint16_t *s, size_t len, char *out);

/* ---- parcel*.c -------------------------------------------------------- */
#define BINDERC_PARCEL_READONLY 0x1u
#define BINDERC_PARCEL_KERNEL 0x2u /* received from the driver: owns fds, free buffer */
#define BINDERC_PARCEL_REPLY 0x4u  /* a kernel parcel from BR_REPLY */
#define BINDERC_PARCEL_SENSITIVE 0x8u /* bc_parcel_mark_sensitive(): zero the data when freed */

/* Zero @n bytes at @p in a way the compiler may not drop as a dead store. */
void bc__wipe(void *p, size_t n);

/* What differs between wire dialects (parcel_internal.h, table in parcel.c). */
struct bc_wire_proto;
/* The description of dialect @wire (enum bc_wire); NULL if there is none. */
const struct bc_wire_proto *bc__wire_proto(int wire);

struct bc_parcel {
	atomic_int refs;
	unsigned flags;
	const struct bc_wire_proto *proto; /* chosen by bc_parcel_set_wire() */
	int partition;
	uint8_t *data;
	size_t size, cap, pos;
	uint64_t *offs;
	size_t n_offs, cap_offs;
	bc_binder **binders; /* strong references held by a written parcel */
	size_t n_binders, cap_binders;
	int *fds; /* fds to close when freed */
	size_t n_fds, cap_fds;
	bc_process *proc; /* kernel parcels: owner (referenced) */
	/* RPC parcels: the session their binders are addressed in
	 * (referenced; rpc_parcel.c), NULL for kernel ones */
	struct bc_rpc_session *rpc;
	uint32_t *rpc_offs; /* RPC parcels: where each of @binders was written */
	struct bc_rpc_fds *rpc_fds; /* RPC parcels: their fds (rpc_internal.h) */
	/* an RPC reply: our objects its call carried, their nodes pinned
	 * until it is freed (rpc_nodes.c), each referenced */
	struct bc_binder **rpc_pins;
	size_t n_rpc_pins;
	uintptr_t kbuf;	  /* kernel parcels: buffer for BC_FREE_BUFFER */
};

/* Wrap a buffer received from the driver (takes a process reference). */
int bc__parcel_from_kernel(bc_process *proc, const struct binder_transaction_data *tr, bc_parcel **ret);
struct bc_thread;
/* Drop a reference; if it was the last one of a kernel parcel, queue its
 * BC_FREE_BUFFER on @t (sent with @t's next write) instead of sending it. */
void bc__parcel_unref_queued(bc_parcel *p, struct bc_thread *t);
/* Empty a written parcel that nobody else holds, for reuse (its buffers are
 * kept).  false, and nothing changed, if it is shared or not plain. */
bool bc__parcel_recycle(bc_parcel *p);

/* ---- rpc_parcel.c: what parcels of an RPC session do differently ---- */
/* Binders in an RPC parcel are written as session addresses, not kernel
 * objects (Parcel::flattenBinder's RPC form). */
int bc__rpc_parcel_write_binder(bc_parcel *p, bc_binder *b, bool weak);
int bc__rpc_parcel_read_binder(bc_parcel *p, bc_binder **ret);
/* Fds: int32 2 and an index into the fds that travel with the message. */
int bc__rpc_parcel_write_fd(bc_parcel *p, int fd, bool take_ownership);
int bc__rpc_parcel_read_fd(bc_parcel *p, int *ret);
/* A freed parcel drops its session. */
void bc__rpc_parcel_release(bc_parcel *p);

/* ---- local objects, proxies (binder_internal.h) ------------------- */
#include "slot_internal.h"
#include "binder_internal.h"

/* ---- txn.c ------------------------------------------------------------ */
struct bc_txn {
	atomic_int refs;
	bc_process *proc; /* NULL for in-process calls */
	uint32_t code, flags;
	pid_t pid;
	uid_t euid;
	bc_parcel *reply;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool deferred, completed;
	int status;
};
/* A new transaction (with an empty reply); takes *@spare when there is one. */
int bc__txn_new(bc_process *proc, uint32_t code, uint32_t flags, pid_t pid, uid_t euid, bc_txn **spare,
		bc_txn **ret);
/* Drop the handler's transaction; kept in *@spare (if empty) when nobody
 * else holds it or its reply. */
void bc__txn_done(bc_txn *t, bc_txn **spare);
/* Wait until a deferred transaction is completed; returns its status. */
int bc__txn_wait(bc_txn *t);

/* ---- process.c / ipc.c ------------------------------------------------ */
struct bc_thread {
	bc_process *proc;
	struct bc_thread *next;
	bool is_pool;
	size_t in_len, in_pos;
	size_t out_len;
	bc_txn *spare; /* a finished incoming transaction, for reuse */
	unsigned loop_depth; /* nested run()s: a write is sure to come */
	uint8_t in[256];
	/* Commands for this thread's next BINDER_WRITE_READ (BC_FREE_BUFFER of
	 * a handled transaction, then the reply or call).  Empty whenever the
	 * thread is outside the library's command loop. */
	uint8_t out[256];
};

struct bc_process {
	atomic_int refs;
	int fd;
	void *map;
	size_t map_size;
	char *device;
	int wire, partition;
	uint32_t max_threads;
	pthread_mutex_t mu; /* threads, pool */
	pthread_cond_t cv;
	pthread_key_t key;
	struct bc_thread *threads;
	bool pool_started;
	atomic_bool stopping;
	bool destroy_pending;
	struct bc_pool_thread *pool; /* every pool thread not yet joined */
	size_t n_pool;
	unsigned pool_running; /* reserved by bc__spawn, not yet ended */
	unsigned pool_creating; /* between reservation and pthread_create's return */
	bc_binder *ctx_obj;
	/* Objects (see LOCKING above). */
	pthread_mutex_t obj_mu;
	pthread_cond_t obj_cv;	  /* the ordered queue was written */
	struct bc_proxy *proxies; /* handle table (and proxies waiting for a clear) */
	struct bc_local *locals;  /* local objects the kernel holds */
	/* The ordered command queue (orderq.c): commands appended, and the
	 * number of them appended and written so far. */
	uint8_t *oq, *oq_spare;
	size_t oq_len;
	uint64_t oq_seq, oq_done;
	bool oq_flushing;
	/* One small object-less reply buffer whose BC_FREE_BUFFER goes with
	 * the next BINDER_WRITE_READ of any thread (0: none). */
	atomic_uintptr_t deferred_free;
};

/* Write BC commands (no read).  0 or -errno. */
int bc__write(bc_process *proc, const void *buf, size_t len);
/* Write one command with payload. */
int bc__cmd(bc_process *proc, uint32_t cmd, const void *payload, size_t len);
/* A reference-count command: an increment (!@may_defer) is written now;
 * otherwise it goes with the calling thread's next BINDER_WRITE_READ when
 * that thread is in @proc's command loop, else now.  Never under a lock. */
void bc__ref_cmd(bc_process *proc, uint32_t cmd, const void *payload, size_t len, bool may_defer);

/* ---- orderq.c --------------------------------------------------------- */
/* Bytes of the ordered queue (what one flush writes at most). */
#define BINDERC_OQ_SIZE 2048
/* Largest command with payload the queue takes. */
#define BINDERC_OQ_CMD_MAX (4 + sizeof(struct binder_handle_cookie))
int bc__oq_init(bc_process *proc);
void bc__oq_fini(bc_process *proc);
/* Under obj_mu, before any change whose commands are to be appended:
 * make room for @n commands (may wait, with obj_mu released, for a
 * flush: re-check the state after). */
void bc__oq_reserve_locked(bc_process *proc, unsigned n);
/* Under obj_mu, after bc__oq_reserve_locked(): append one command;
 * returns its number in the queue. */
uint64_t bc__oq_append_locked(bc_process *proc, uint32_t cmd, const void *payload, size_t len);
/* Without obj_mu: write what is queued unless another thread is writing
 * it, and (@wait_for > 0) wait until command @wait_for was written. */
void bc__oq_flush(bc_process *proc, uint64_t wait_for);
/* Free a kernel buffer: BC_FREE_BUFFER now, or (@may_defer) with the
 * process's next write. */
void bc__free_buffer(bc_process *proc, uintptr_t buf, bool may_defer);
/* Queue BC_FREE_BUFFER on @t's pending write. */
void bc__thread_queue_free(struct bc_thread *t, uintptr_t buf);
/* Per-thread state for @proc (created on first use). */
struct bc_thread *bc__thread(bc_process *proc);
/* Send a transaction to @handle and wait for the reply or completion;
 * on an error, *@ret_origin is set unless it is BINDERC_ERROR_LOCAL. */
int bc__transact(bc_process *proc, uint32_t handle, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		 uint32_t flags, int *ret_origin);
/* Serve on the calling thread until the process stops. */
void bc__looper(bc_process *proc, bool registered);
/* Spawn a pool thread (BR_SPAWN_LOOPER or pool start). */
int bc__spawn(bc_process *proc, bool registered);
void bc__process_destroy(bc_process *proc);

void bc__log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
