/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: internal definitions shared by the driver's files.
 *
 * The protocol is the one of <uapi/linux/android/binder.h> (version 8) with
 * the behaviour of the Linux 6.1 driver; every object here is owned by one
 * binderc_proc (one per open file) unless said otherwise.
 *
 * scripts/check-style holds the driver to the rules written down here:
 * each declaration below sits under the comment naming the file that
 * defines it, every lock is in the lock order, and every function with a
 * lock suffix asserts that lock (besides checkpatch and kernel-doc).
 */
#ifndef BINDERC_H
#define BINDERC_H

#include <linux/atomic.h>
#include <linux/cdev.h>
#include <linux/cred.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include "binder_uapi.h"
#include "compat.h"

/*
 * LOCK ORDER (the one place it is written down; outermost first)
 *
 *   1. binderc_devices_lock   mutex: the devices= list, init/exit only
 *   2. binderc_procs_lock     mutex: list of all procs (open, release,
 *                             debugfs); never on the transaction path
 *   3. context->mgr_set_lock  mutex: serializes BINDER_SET_CONTEXT_MGR*
 *   4. alloc->mutex           mutex: one proc's buffer allocator; taken
 *                             with no spinlock held and never held while
 *                             user memory is copied
 *   5. context->mgr_lock      spinlock: the context manager node pointer,
 *                             held only to pin that node
 *   6. proc->outer_lock       spinlock: the proc's refs (both rb-trees,
 *                             ref counts, ref->death, ref->freeze)
 *   7. node->lock             spinlock: node counts, node->refs, node->proc
 *   8. proc->inner_lock       spinlock: every todo list (proc, thread,
 *                             node->async_todo, delivered_death,
 *                             delivered_freeze), the freeze watches'
 *                             state, the threads/nodes trees,
 *                             waiting_threads, transaction stacks, tmp
 *                             refs, node ack state
 *   9. t->lock                spinlock: t->from, t->to_proc, t->to_thread
 *  10. binderc_dead_nodes_lock spinlock: the list of nodes whose proc died
 *
 * binderfs (binderfs.c) adds one lock of its own, apart from the list:
 *
 *   binderc_fs_lock          mutex: every binderfs mount's device count
 *                            and max=; innermost of all mutexes (inode
 *                            eviction takes it under the VFS's s_umount
 *                            and directory locks), nothing is taken under
 *                            it, and no binderc lock is held around it
 *
 * and nests one VFS lock under binderc_procs_lock: the inode lock of a
 * mount's binder_logs/proc directory, while a proc's file is created
 * there (as debugfs_create_file() does for /sys/kernel/debug/binderc).
 *
 * Real-time priority inheritance (rtprio.c) adds one lock per thread,
 * apart from the list as well:
 *
 *   thread->sched_lock       mutex: the thread's raise state (struct
 *                            binderc_thread); taken with no binderc lock
 *                            held, and none is taken under it: only the
 *                            scheduler's own (sched_setattr_nocheck(),
 *                            the cpuset lock on newer kernels)
 *
 * Wakeups (binderc_wake_thread_ilocked()) are made under 8: they take the
 * scheduler's locks of the woken task (wake_up_process()) and the lock of
 * a polled thread's wait queue, innermost, with nothing taken under them.
 *
 * Transaction reports (report.c) are sent with no binderc lock held: the
 * netlink layer's own locks are never nested with these, either way.
 *
 * The mm's mmap_lock is outside all of them: vma close (munmap, exit)
 * runs binderc_proc_close_receive() under it, which takes 4 and 6-10, and
 * the fault handler takes 4 under it (or under the vma's own lock); no
 * user memory is touched with 4 held.
 *
 * The shrinker (alloc.c) adds one global lock, apart from the list:
 *
 *   binderc_shrink_lock      spinlock: the list of mapped receive areas
 *                            (alloc->shrink_entry); taken with no binderc
 *                            lock held (mmap adds an area after dropping
 *                            4, release removes it before taking 4).  The
 *                            scan runs under it and only trylocks what is
 *                            outside it, in this order: mmap_read_trylock()
 *                            of the proc's mm, then mutex_trylock() of 4;
 *                            it drops the spinlock before freeing pages
 *                            (mmap_lock and 4 held)
 *
 * A lock of one proc may be nested inside a lock of another proc only if it
 * is on a strictly higher level here (e.g. outer_lock(A) -> node->lock ->
 * inner_lock(B) is fine, inner_lock(A) -> inner_lock(B) never happens).
 * No user copies and no sleeping allocation under any spinlock: allocate
 * first, then lock and insert (dropping the lock to allocate if needed).
 *
 * A function whose name ends in one of these suffixes is called with the
 * lock held (it never takes or drops it unless its comment says so), and
 * checks that with lockdep_assert_held():
 *
 *   _locked    alloc->mutex of the allocator it is given
 *   _olocked   proc->outer_lock of the proc the refs belong to
 *   _nlocked   node->lock of the node concerned
 *   _ilocked   proc->inner_lock of the proc owning the lists or threads
 *              concerned; for a node's tmp_refs, binderc_dead_nodes_lock
 *              once the owner died
 *   _nilocked  node->lock and, while the node has an owner, that owner's
 *              inner_lock (binderc_node_inner_lock())
 *   _flocked   binderc_fs_lock (binderfs.c only)
 */

/* Work items queued on todo lists; the type says what contains them. */
enum binderc_work_type {
	BINDERC_WORK_TRANSACTION = 1,
	BINDERC_WORK_TRANSACTION_COMPLETE,
	BINDERC_WORK_TRANSACTION_ONEWAY_SPAM_SUSPECT,
	BINDERC_WORK_TRANSACTION_PENDING_FROZEN,
	BINDERC_WORK_RETURN_ERROR,
	BINDERC_WORK_NODE,
	BINDERC_WORK_DEAD_BINDER,
	BINDERC_WORK_DEAD_BINDER_AND_CLEAR,
	BINDERC_WORK_CLEAR_DEATH_NOTIFICATION,
	BINDERC_WORK_FROZEN_BINDER,
	BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION,
};

struct binderc_work {
	struct list_head entry;
	enum binderc_work_type type;
};

/* A BR_* error waiting in a thread's todo (cmd BR_OK = not queued). */
struct binderc_error {
	struct binderc_work work;
	u32 cmd;
};

/* Live-object counters, exported through debugfs "counters". */
enum binderc_counter {
	BINDERC_CNT_PROC,
	BINDERC_CNT_THREAD,
	BINDERC_CNT_NODE,
	BINDERC_CNT_REF,
	BINDERC_CNT_DEATH,
	BINDERC_CNT_BUFFER,
	BINDERC_CNT_TRANSACTION,
	BINDERC_CNT_TRANSACTION_COMPLETE,
	BINDERC_CNT_FD_FIXUP,
	BINDERC_CNT_FREEZE,
	BINDERC_CNT_COUNT,
};

#define BINDERC_BC_COUNT (_IOC_NR(BC_FREEZE_NOTIFICATION_DONE) + 1)
#define BINDERC_BR_COUNT (_IOC_NR(BR_CLEAR_FREEZE_NOTIFICATION_DONE) + 1)

struct binderc_stats {
	atomic_t bc[BINDERC_BC_COUNT];
	atomic_t br[BINDERC_BR_COUNT];
};

/*
 * Per device: the handle-0 owner and its remembered euid.  @ref counts the
 * device's own reference and one per proc of the device; when it drops to
 * 0, @release frees the device (binderfs).  A devices= device never gets
 * there: its own reference is never put, and chardev.c frees it at unload,
 * after every proc is gone.
 */
struct binderc_context {
	struct mutex mgr_set_lock;
	spinlock_t mgr_lock;
	struct binderc_node *mgr_node;
	kuid_t mgr_uid;			/* INVALID_UID until first set */
	const char *name;
	char log_name[32];		/* @name as the transaction log keeps it */
	refcount_t ref;
	void (*release)(struct binderc_context *ctx);
};

/* Longest device name, as binderfs allows. */
#define BINDERC_NAME_MAX 255

/* One character device of devices=: its own binder context. */
struct binderc_device {
	struct list_head entry;		/* binderc_devices_lock */
	struct cdev cdev;
	struct device dev;		/* its release frees this struct */
	struct binderc_context context;
	char name[];			/* the node's name under /dev */
};

/* A thread's scheduling class as rtprio.c saves and restores it. */
struct binderc_sched {
	int policy;
	int rt_prio;
	bool reset_on_fork;
};

/**
 * struct binderc_node - a binder object owned by a proc (the target of handles)
 * @debug_id:		immutable after creation
 * @lock:		protects @refs, the refs' ->death, and with the
 *			owner's inner_lock the counts (see _nilocked)
 * @work:		BINDERC_WORK_NODE, the refcount news for the owner;
 *			on a todo list under the owner's inner_lock
 * @rb_node:		in the owner's proc->nodes while it lives; owner's
 *			inner_lock
 * @dead_node:		in binderc_dead_nodes once the owner died;
 *			binderc_dead_nodes_lock
 * @proc:		the owner, NULL once it died; written under @lock and
 *			the owner's inner_lock, so stable under either
 * @refs:		every binderc_ref on this node (their node_entry);
 *			@lock
 * @internal_strong_refs: strong refs held by refs of other procs; @lock and
 *			the owner's inner_lock while it has one (_nilocked)
 * @local_weak_refs:	weak refs the kernel holds (transactions in flight,
 *			acks owed); as @internal_strong_refs
 * @local_strong_refs:	strong refs the kernel holds; as @internal_strong_refs
 * @tmp_refs:		short-lived kernel pins of the pointer; the owner's
 *			inner_lock while it lives, binderc_dead_nodes_lock after
 * @ptr:		userspace's object address; immutable after creation
 * @cookie:		userspace's cookie; immutable after creation
 * @has_strong_ref:	userspace was told BR_ACQUIRE; owner's inner_lock
 * @pending_strong_ref:	its BC_ACQUIRE_DONE is owed; owner's inner_lock
 * @has_weak_ref:	userspace was told BR_INCREFS; owner's inner_lock
 * @pending_weak_ref:	its BC_INCREFS_DONE is owed; owner's inner_lock
 * @has_async_transaction: a oneway call to it is being handled; @lock.
 *			A bool of its own, not a bit beside the four above:
 *			those are written under the inner_lock alone, and a
 *			read-modify-write of a shared byte under @lock alone
 *			would race with them
 * @accept_fds:		immutable after creation
 * @txn_security_ctx:	immutable after creation
 * @min_priority:	immutable after creation
 * @min_rt_policy:	SCHED_FIFO, SCHED_RR or 0 (none); with
 *			@min_rt_prio the floor its serving thread is raised
 *			to (rtprio.c); immutable after creation
 * @min_rt_prio:	immutable after creation
 * @inherit_rt:		FLAT_BINDER_FLAG_INHERIT_RT: sync callers' real-time
 *			priority is lent; immutable after creation
 * @async_todo:		oneway calls waiting behind the one being handled;
 *			owner's inner_lock
 */
struct binderc_node {
	int debug_id;
	spinlock_t lock;
	struct binderc_work work;
	union {
		struct rb_node rb_node;
		struct hlist_node dead_node;
	};
	struct binderc_proc *proc;
	struct hlist_head refs;
	int internal_strong_refs;
	int local_weak_refs;
	int local_strong_refs;
	int tmp_refs;
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
	u8 has_strong_ref:1;
	u8 pending_strong_ref:1;
	u8 has_weak_ref:1;
	u8 pending_weak_ref:1;
	u8 accept_fds:1;
	u8 txn_security_ctx:1;
	bool has_async_transaction;
	int min_priority;
	u8 min_rt_policy;
	u8 min_rt_prio;
	bool inherit_rt;
	struct list_head async_todo;
};

/**
 * struct binderc_ref_death - a death notification asked for on a ref (death.c)
 * @work:		BINDERC_WORK_DEAD_BINDER, DEAD_BINDER_AND_CLEAR or
 *			CLEAR_DEATH_NOTIFICATION; on a todo list of the
 *			holder (its proc's or one of its threads') or on its
 *			delivered_death, under the holder's inner_lock
 * @cookie:		userspace's cookie; immutable after creation
 */
struct binderc_ref_death {
	struct binderc_work work;
	binder_uintptr_t cookie;
};

/**
 * struct binderc_ref_freeze - a frozen-state watch on a ref (freeze_notify.c)
 * @work:		BINDERC_WORK_FROZEN_BINDER, or CLEAR_FREEZE_NOTIFICATION
 *			once cleared; on the holder's todo or delivered_freeze
 *			under the holder's inner_lock
 * @cookie:		userspace's cookie; immutable after creation
 * @is_frozen:		the state the next (or last) notice carries; holder's
 *			inner_lock
 * @sent:		delivered, BC_FREEZE_NOTIFICATION_DONE not yet seen;
 *			holder's inner_lock
 * @resend:		something changed since it was sent: queue it again
 *			on the ack; holder's inner_lock
 * @delivery:		which delivery this is (proc->freeze_deliveries when
 *			it was written out); holder's inner_lock
 */
struct binderc_ref_freeze {
	struct binderc_work work;
	binder_uintptr_t cookie;
	bool is_frozen;
	bool sent;
	bool resend;
	u64 delivery;
};

struct binderc_ref_data {
	int debug_id;
	u32 desc;
	int strong;
	int weak;
};

/**
 * struct binderc_ref - a handle in one proc to a node (usually of another proc)
 * @data:		debug_id immutable after creation; desc chosen under
 *			the holder's outer_lock when linked, then immutable;
 *			strong and weak under the holder's outer_lock
 * @rb_node_desc:	in proc->refs_by_desc; the holder's outer_lock
 * @rb_node_node:	in proc->refs_by_node; the holder's outer_lock
 * @node_entry:		in node->refs; node->lock
 * @proc:		the holder; immutable after creation
 * @node:		immutable while linked; cleared under the holder's
 *			outer_lock on unlink unless binderc_free_ref() must
 *			free the node
 * @death:		the death notification asked for, or NULL; written
 *			under the holder's outer_lock and node->lock, read
 *			under either
 * @freeze:		the frozen-state watch asked for, or NULL; as @death
 */
struct binderc_ref {
	struct binderc_ref_data data;
	struct rb_node rb_node_desc;
	struct rb_node rb_node_node;
	struct hlist_node node_entry;
	struct binderc_proc *proc;
	struct binderc_node *node;
	struct binderc_ref_death *death;
	struct binderc_ref_freeze *freeze;
};

/**
 * struct binderc_buffer - one allocation in a proc's receive mapping
 * @entry:		in alloc->buffers, every buffer by address;
 *			alloc->mutex
 * @rb_node:		in alloc->allocated (by address) or, if free,
 *			alloc->free_buffers (by size, address); alloc->mutex
 * @free:		alloc->mutex
 * @clear_on_free:	TF_CLEAR_BUF; set by the sender before the call is
 *			queued, read and cleared under alloc->mutex when the
 *			buffer is freed
 * @allow_user_free:	BC_FREE_BUFFER may free it; set by the receiving
 *			thread once the call is delivered, tested and cleared
 *			under alloc->mutex (binderc_alloc_prepare_to_free())
 * @async_transaction:	a oneway call's, counted in free_async_space; set
 *			under alloc->mutex at allocation, then immutable
 * @oneway_spam_suspect: as @async_transaction
 * @debug_id:		the transaction's; set by the sender before the call
 *			is queued, then immutable
 * @transaction:	the call it carries, NULL once that is gone; set by
 *			the sender before the call is queued, cleared under
 *			the receiver's inner_lock, or by the one thread that
 *			took the call off every list
 * @target_node:	set by the sender before the call is queued, then
 *			immutable until freed (cleared under alloc->mutex)
 * @data_size:		set under alloc->mutex at allocation, then immutable
 * @offsets_size:	as @data_size
 * @extra_buffers_size:	as @data_size
 * @user_data:		the address in the receiver; alloc->mutex, and fixed
 *			while the buffer is allocated
 * @pid:		the sender's tgid; as @data_size
 *
 * The bit fields share one word: by the rules above, no two of them are
 * ever written at the same time.
 */
struct binderc_buffer {
	struct list_head entry;
	struct rb_node rb_node;
	unsigned int free:1;
	unsigned int clear_on_free:1;
	unsigned int allow_user_free:1;
	unsigned int async_transaction:1;
	unsigned int oneway_spam_suspect:1;
	int debug_id;
	struct binderc_transaction *transaction;
	struct binderc_node *target_node;
	size_t data_size;
	size_t offsets_size;
	size_t extra_buffers_size;
	unsigned long user_data;
	int pid;
};

/**
 * struct binderc_alloc - the receive area of one proc (alloc.c)
 * @mutex:		protects the rest unless said otherwise; level 4 of
 *			the lock order
 * @buffer:		the user address of the read-only mapping the kernel
 *			fills; set once at mmap under @mutex, then immutable
 * @buffer_size:	0 until mmap; as @buffer
 * @free_async_space:	room left for oneway buffers; @mutex
 * @mapped:		the vma still exists; @mutex
 * @oneway_spam_detected: flagged once until space recovers; @mutex
 * @pages:		one per page of the area, filled on demand: the array
 *			is set at mmap, its pages come and go under @mutex;
 *			copies into and out of a buffer their caller owns
 *			read them without it (see alloc.c)
 * @present:		bitmap, one bit per page: @pages has it; @mutex
 * @unused:		bitmap: the page is present and no allocated buffer
 *			covers it, so the shrinker may free it; @mutex
 * @mm:			the mapping's, grabbed at mmap; immutable until the
 *			proc's release
 * @pages_held:		pages allocated; @mutex
 * @pages_lru:		of those, unused (mainline's "lru"); @mutex, and
 *			read without it for the shrinker's count
 * @shrink_entry:	on the shrinker's list of mapped areas from mmap to
 *			release; binderc_shrink_lock
 * @spare:		a buffer struct kept from the last merge for the next
 *			split, or NULL; exchanged atomically, without @mutex
 * @buffers:		every buffer, by address; @mutex
 * @allocated:		allocated buffers, by address; @mutex
 * @free_buffers:	free buffers, by size, address; @mutex
 * @pid:		the proc's pid, naming it in lock events; immutable
 *			after creation
 */
struct binderc_alloc {
	struct mutex mutex;
	unsigned long buffer;
	size_t buffer_size;
	size_t free_async_space;
	bool mapped;
	bool oneway_spam_detected;
	struct page **pages;
	unsigned long *present;
	unsigned long *unused;
	struct mm_struct *mm;
	size_t pages_held;
	size_t pages_lru;
	struct list_head shrink_entry;
	struct binderc_buffer *spare;
	struct list_head buffers;
	struct rb_root allocated;
	struct rb_root free_buffers;
	int pid;
};

struct binderc_txn_fd_fixup {
	struct list_head entry;
	struct file *file;
	size_t offset;			/* where the fd number goes */
	int target_fd;
};

/**
 * struct binderc_transaction - one call or reply on its way
 * @debug_id:		immutable after creation
 * @work:		BINDERC_WORK_TRANSACTION on a todo list (the
 *			receiver's, or node->async_todo); the receiver's
 *			inner_lock
 * @from:		the sending thread of a sync call, NULL once it is
 *			gone or answered; written under @lock, or cleared
 *			under the sender's inner_lock when popped off its
 *			stack
 * @from_pid:		immutable after creation
 * @from_tid:		immutable after creation
 * @from_parent:	next on the sender's stack; set under the sender's
 *			inner_lock before the call is queued, then immutable
 * @to_proc:		the receiver, NULL once it is gone; @lock
 * @to_thread:		the receiving thread; @lock, except that the thread
 *			taking a sync call sets it under its own inner_lock
 * @to_parent:		next on the receiver's stack; the receiver's
 *			inner_lock
 * @need_reply:		immutable once the call is queued
 * @buffer:		in the receiver's area, NULL once freed; the
 *			receiver's inner_lock
 * @code:		immutable after creation
 * @flags:		immutable after creation
 * @priority:		the sender's nice value; immutable after creation
 * @saved_priority:	the receiving thread's own nice value; only that
 *			thread
 * @rt_policy:		the sync caller's SCHED_FIFO/RR when the node inherits
 *			it, else 0; immutable after creation
 * @rt_prio:		its real-time priority; immutable after creation
 * @sched_saved:	the receiving thread was raised for this call and
 *			@saved_sched holds what to go back to; only that thread
 * @saved_sched:	see @sched_saved
 * @sender_euid:	immutable after creation
 * @security_ctx:	set while the call is built, then immutable
 * @fd_fixups:		fds to install on delivery; no lock: built by the
 *			sender before queueing, then used by the one thread
 *			that delivers or frees the transaction
 * @lock:		protects @from, @to_proc and @to_thread
 */
struct binderc_transaction {
	int debug_id;
	struct binderc_work work;
	struct binderc_thread *from;
	int from_pid;
	int from_tid;
	struct binderc_transaction *from_parent;
	struct binderc_proc *to_proc;
	struct binderc_thread *to_thread;
	struct binderc_transaction *to_parent;
	unsigned int need_reply:1;
	struct binderc_buffer *buffer;
	unsigned int code;
	unsigned int flags;
	long priority;
	long saved_priority;
	u8 rt_policy;
	u8 rt_prio;
	bool sched_saved;
	struct binderc_sched saved_sched;
	kuid_t sender_euid;
	binder_uintptr_t security_ctx;
	struct list_head fd_fixups;
	spinlock_t lock;
};

enum {
	BINDERC_LOOPER_REGISTERED = 0x01,
	BINDERC_LOOPER_ENTERED = 0x02,
	BINDERC_LOOPER_EXITED = 0x04,
	BINDERC_LOOPER_INVALID = 0x08,
	BINDERC_LOOPER_WAITING = 0x10,
	BINDERC_LOOPER_POLL = 0x20,
};

/**
 * struct binderc_thread - one userspace thread using a proc
 * @proc:		immutable after creation
 * @rb_node:		in proc->threads; proc->inner_lock
 * @waiting_thread_node: in proc->waiting_threads while blocked in read;
 *			proc->inner_lock
 * @pid:		immutable after creation
 * @looper:		BINDERC_LOOPER_* bits; written only by the thread
 *			itself, read by others under proc->inner_lock
 * @looper_need_return:	return to userspace before waiting; set under
 *			proc->inner_lock by binderc_proc_flush(), set and
 *			cleared by the thread itself without it
 * @transaction_stack:	the calls this thread sends or handles, innermost
 *			first; proc->inner_lock
 * @todo:		work for this thread only; proc->inner_lock
 * @process_todo:	@todo holds work that is a reason to return (not only
 *			deferred work); proc->inner_lock
 * @return_error:	a BR_* error for this thread's own command; only the
 *			thread itself (the work entry: proc->inner_lock)
 * @reply_error:	BR_DEAD_REPLY or BR_FAILED_REPLY for a call it waits
 *			on; proc->inner_lock, and the thread resets cmd
 *			once it has read it
 * @ee:			BINDER_GET_EXTENDED_ERROR's answer; proc->inner_lock
 * @wait:		(e)poll's wait queue (its own lock); a blocked read
 *			sleeps on @asleep instead
 * @asleep:		blocked in a read, to be woken by
 *			binderc_wake_thread_ilocked(); proc->inner_lock
 * @tmp_ref:		atomic; the thread is freed when it reaches 0 after
 *			@is_dead, decided under proc->inner_lock
 * @is_dead:		proc->inner_lock
 * @task:		the thread's task (a reference); immutable
 * @sched_lock:		protects the rest
 * @sched_task:		@task (another reference) while binderc has raised
 *			its scheduling class, else NULL
 * @base_sched:		what it ran at before the first raise
 * @sched_gen:		bumped whenever the thread goes back down: a caller
 *			that woke it boosts it only if it has not since
 * @boosted:		raised by the caller that woke it, for the call it
 *			takes next, which then owns @boost_saved
 * @boost_saved:	what it ran at before that boost
 * @idle_pending:	it replied to its last call and goes back to
 *			@base_sched once it waits for work again (or leaves
 *			the ioctl without reading)
 * @spare_tcomplete:	a TRANSACTION_COMPLETE item this thread read, kept
 *			for its next transaction, or NULL; touched only by
 *			the thread's own task (the one that sends and reads
 *			its completes), freed with the thread
 * @spare_txn:		a transaction struct this thread freed (the reply it
 *			read, the call it answered), kept for its next send,
 *			or NULL; as @spare_tcomplete
 */
struct binderc_thread {
	struct binderc_proc *proc;
	struct rb_node rb_node;
	struct list_head waiting_thread_node;
	int pid;
	int looper;
	bool looper_need_return;
	struct binderc_transaction *transaction_stack;
	struct list_head todo;
	bool process_todo;
	struct binderc_error return_error;
	struct binderc_error reply_error;
	struct binder_extended_error ee;
	wait_queue_head_t wait;
	bool asleep;
	atomic_t tmp_ref;
	bool is_dead;
	struct task_struct *task;
	struct mutex sched_lock;
	struct task_struct *sched_task;
	struct binderc_sched base_sched;
	unsigned int sched_gen;
	bool boosted;
	struct binderc_sched boost_saved;
	bool idle_pending;
	struct binderc_work *spare_tcomplete;
	struct binderc_transaction *spare_txn;
};

/*
 * Whether threads keep their spares (above).  A kept object's reuse hides
 * a use after free from KASAN, so kernels with it free every one.
 */
#define BINDERC_KEEP_SPARES (!IS_ENABLED(CONFIG_KASAN))

/**
 * struct binderc_proc - the state of one open file of a binderc device
 * @proc_entry:		in binderc_procs; binderc_procs_lock
 * @threads:		binderc_thread by pid; @inner_lock
 * @nodes:		binderc_node by ptr; @inner_lock
 * @refs_by_desc:	binderc_ref by handle; @outer_lock
 * @refs_by_node:	binderc_ref by node; @outer_lock
 * @waiting_threads:	threads blocked in read for proc work; @inner_lock
 * @pid:		the opener's tgid; immutable after creation
 * @debug_id:		immutable after creation
 * @tsk:		the opener's group leader; immutable after creation
 * @cred:		the opener's credentials; set by open, then immutable
 * @todo:		work any thread may take; @inner_lock
 * @delivered_death:	BR_DEAD_BINDER read but not yet acked; @inner_lock
 * @delivered_freeze:	BR_FROZEN_BINDER read but not yet acked, oldest
 *			first; @inner_lock
 * @freeze_deliveries:	BR_FROZEN_BINDER notices written out so far (names
 *			each delivery, see freeze_notify.c); @inner_lock
 * @max_threads:	BINDER_SET_MAX_THREADS; @inner_lock
 * @requested_threads:	BR_SPAWN_LOOPER sent, not yet registered;
 *			@inner_lock
 * @requested_threads_started: loopers registered on request; @inner_lock
 * @tmp_ref:		pins by other procs and dying threads; @inner_lock
 * @is_dead:		release() has begun; @inner_lock
 * @receive_closed:	the receive mapping is gone; @inner_lock
 * @default_priority:	the opener's nice value; immutable after creation
 * @outstanding_txns:	transactions queued to or handled by this proc;
 *			@inner_lock (read without it by BINDER_FREEZE's wait)
 * @oneway_spam_detection_enabled: @inner_lock
 * @is_frozen:		@inner_lock
 * @sync_recv:		a sync call was refused while frozen; @inner_lock
 * @async_recv:		a oneway call arrived while frozen; @inner_lock
 * @freeze_wait:	woken when @outstanding_txns reaches 0 while frozen;
 *			its own lock
 * @debugfs_entry:	set by open, removed by release; no other user
 * @binderfs_entry:	binder_logs/proc/PID in the binderfs mount of the
 *			device (stats=global); set by open under
 *			binderc_procs_lock, removed by release
 * @alloc:		the receive area; its own mutex (struct binderc_alloc)
 * @context:		the device's context; immutable after creation
 * @inner_lock:		see the lock order (level 8)
 * @outer_lock:		see the lock order (level 6)
 * @stats:		atomic counters
 */
struct binderc_proc {
	struct list_head proc_entry;
	struct rb_root threads;
	struct rb_root nodes;
	struct rb_root refs_by_desc;
	struct rb_root refs_by_node;
	struct list_head waiting_threads;
	int pid;
	int debug_id;
	struct task_struct *tsk;
	const struct cred *cred;
	struct list_head todo;
	struct list_head delivered_death;
	struct list_head delivered_freeze;
	u64 freeze_deliveries;
	u32 max_threads;
	int requested_threads;
	int requested_threads_started;
	int tmp_ref;
	bool is_dead;
	bool receive_closed;
	long default_priority;
	int outstanding_txns;
	bool oneway_spam_detection_enabled;
	bool is_frozen;
	bool sync_recv;
	bool async_recv;
	wait_queue_head_t freeze_wait;
	struct dentry *debugfs_entry;
	struct dentry *binderfs_entry;
	struct binderc_alloc alloc;
	struct binderc_context *context;
	spinlock_t inner_lock;
	spinlock_t outer_lock;
	struct binderc_stats stats;
};

/* What a _nilocked function asserts: see the lock order above. */
static inline void binderc_assert_nilocked(struct binderc_node *node)
{
	lockdep_assert_held(&node->lock);
	if (node->proc)
		lockdep_assert_held(&node->proc->inner_lock);
}

/* device.c */
extern atomic_t binderc_last_id;
extern struct mutex binderc_procs_lock;
extern struct list_head binderc_procs;
extern atomic_t binderc_counters[BINDERC_CNT_COUNT];
extern struct binderc_stats binderc_global_stats;

static inline int binderc_new_debug_id(void)
{
	return atomic_inc_return(&binderc_last_id);
}

static inline void binderc_count_inc(enum binderc_counter c)
{
	atomic_inc(&binderc_counters[c]);
}

static inline void binderc_count_dec(enum binderc_counter c)
{
	atomic_dec(&binderc_counters[c]);
}

extern const struct file_operations binderc_fops;

/* binderc_stat_bc() and binderc_stat_br(): stats.h */
/* Is @vma the receive mapping of @alloc's proc? (for alloc.c) */
bool binderc_vma_is_alloc(struct vm_area_struct *vma,
			  struct binderc_alloc *alloc);

/* chardev.c */
int binderc_chardev_init(const char *names);
void binderc_chardev_exit(void);
struct binderc_device *binderc_device_from_inode(struct inode *inode);

/* chardev.c, for binderfs: the shared major and its minors */
int binderc_minor_alloc(bool use_reserve);
void binderc_minor_free(int minor);
dev_t binderc_devt(int minor);

/* binderfs.c */
int binderc_binderfs_init(void);
void binderc_binderfs_exit(void);
struct binderc_context *binderc_binderfs_context(struct inode *inode);
void binderc_binderfs_add_proc(struct binderc_proc *proc, struct inode *inode);
void binderc_binderfs_remove_proc(struct binderc_proc *proc);

/* context.c */
void binderc_context_init(struct binderc_context *ctx, const char *name);
void binderc_context_get(struct binderc_context *ctx);
void binderc_context_put(struct binderc_context *ctx);
struct binderc_node *binderc_get_mgr_node(struct binderc_context *ctx);
int binderc_set_context_mgr(struct binderc_proc *proc,
			    struct flat_binder_object *fbo);
void binderc_drop_context_mgr(struct binderc_proc *proc);

/* process.c */
struct binderc_proc *binderc_proc_create(struct binderc_context *context);
void binderc_proc_release(struct binderc_proc *proc);
void binderc_proc_flush(struct binderc_proc *proc);
void binderc_proc_close_receive(struct binderc_proc *proc);
void binderc_proc_dec_tmpref(struct binderc_proc *proc);
void binderc_release_work(struct binderc_proc *proc, struct list_head *list);

/* thread.c */
struct binderc_thread *binderc_get_thread(struct binderc_proc *proc);
int binderc_thread_release(struct binderc_proc *proc,
			   struct binderc_thread *thread);
void binderc_thread_dec_tmpref(struct binderc_thread *thread);
bool binderc_available_for_proc_work_ilocked(struct binderc_thread *thread);
void binderc_enqueue_work_ilocked(struct binderc_proc *proc,
				  struct binderc_work *work,
				  struct list_head *target);
void binderc_enqueue_thread_work_ilocked(struct binderc_thread *thread,
					 struct binderc_work *work);
void binderc_enqueue_deferred_thread_work_ilocked(struct binderc_thread *t,
						  struct binderc_work *work);
void binderc_enqueue_thread_work(struct binderc_thread *thread,
				 struct binderc_work *work);
void binderc_dequeue_work_ilocked(struct binderc_proc *proc,
				  struct binderc_work *work);
void binderc_dequeue_work(struct binderc_proc *proc,
			  struct binderc_work *work);
struct binderc_work *
binderc_dequeue_work_head_ilocked(struct binderc_proc *proc,
				  struct list_head *l);
struct binderc_thread *binderc_select_thread_ilocked(struct binderc_proc *p);
void binderc_wake_thread_ilocked(struct binderc_thread *thread, bool sync);
void binderc_wakeup_thread_ilocked(struct binderc_proc *proc,
				   struct binderc_thread *thread, bool sync);
void binderc_wakeup_proc_ilocked(struct binderc_proc *proc);
void binderc_set_extended_error(struct binder_extended_error *ee, u32 id,
				u32 command, s32 param);
void binderc_set_nice(long nice);

/* rtprio.c */
int binderc_node_sched_check(u32 flags);
void binderc_node_sched_init(struct binderc_node *node, u32 flags);
void binderc_txn_sched_record(struct binderc_transaction *t,
			      struct binderc_node *node);
void binderc_sched_raise(struct binderc_thread *thread,
			 struct binderc_transaction *t,
			 struct binderc_node *node);
void binderc_sched_restore_txn(struct binderc_thread *thread,
			       struct binderc_transaction *t);
void binderc_sched_restore_base(struct binderc_thread *thread);
bool binderc_sched_want(struct binderc_transaction *t,
			struct binderc_node *node, struct binderc_sched *want);
void binderc_sched_boost(struct binderc_thread *thread, unsigned int gen,
			 const struct binderc_sched *want, bool idle);
void binderc_sched_reply_done(struct binderc_thread *thread,
			      const struct binderc_sched *saved);
void binderc_sched_settle(struct binderc_thread *thread);
bool binderc_sched_raised(struct binderc_thread *thread);

/*
 * Whether @t to @node may be owed a real-time class: a cheap test before
 * binderc_sched_want(), which says which (and may still say none).
 */
static inline bool binderc_sched_maybe_owed(struct binderc_transaction *t,
					    struct binderc_node *node)
{
	return (t->rt_policy && !(t->flags & TF_ONE_WAY)) ||
	       node->min_rt_policy;
}

/* write.c */
int binderc_thread_write(struct binderc_proc *proc,
			 struct binderc_thread *thread,
			 binder_uintptr_t ubuf, size_t size,
			 binder_size_t *consumed);

/* read.c */
int binderc_thread_read(struct binderc_proc *proc,
			struct binderc_thread *thread,
			binder_uintptr_t ubuf, size_t size,
			binder_size_t *consumed, bool non_block);
bool binderc_has_work(struct binderc_thread *thread, bool do_proc_work);

/* node.c */
struct binderc_node *binderc_get_node(struct binderc_proc *proc,
				      binder_uintptr_t ptr);
struct binderc_node *binderc_new_node(struct binderc_proc *proc,
				      struct flat_binder_object *fp);
int binderc_inc_node_nilocked(struct binderc_node *node, int strong,
			      int internal, struct list_head *target_list);
bool binderc_dec_node_nilocked(struct binderc_node *node, int strong,
			       int internal);
int binderc_inc_node(struct binderc_node *node, int strong, int internal,
		     struct list_head *target_list);
void binderc_dec_node(struct binderc_node *node, int strong, int internal);
void binderc_inc_node_tmpref_ilocked(struct binderc_node *node);
void binderc_inc_node_tmpref(struct binderc_node *node);
void binderc_put_node(struct binderc_node *node);
void binderc_free_node(struct binderc_node *node);
void binderc_node_inner_lock(struct binderc_node *node);
void binderc_node_inner_unlock(struct binderc_node *node);
int binderc_node_release(struct binderc_node *node, int refs);
int binderc_handle_node_done(struct binderc_proc *proc, u32 cmd,
			     binder_uintptr_t node_ptr,
			     binder_uintptr_t cookie);
int binderc_node_work_to_user(struct binderc_proc *proc,
			      struct binderc_node *node,
			      void __user **ptrp);
extern spinlock_t binderc_dead_nodes_lock;
extern struct hlist_head binderc_dead_nodes;

/* ref.c */
struct binderc_ref *binderc_get_ref_olocked(struct binderc_proc *proc,
					    u32 desc, bool need_strong_ref);
struct binderc_node *binderc_get_node_from_ref(struct binderc_proc *proc,
					       u32 desc, bool need_strong_ref,
					       struct binderc_ref_data *rdata);
int binderc_update_ref_for_handle(struct binderc_proc *proc, u32 desc,
				  bool increment, bool strong,
				  struct binderc_ref_data *rdata);
int binderc_inc_ref_for_node(struct binderc_proc *proc,
			     struct binderc_node *node, bool strong,
			     struct list_head *target_list,
			     struct binderc_ref_data *rdata);
void binderc_cleanup_ref_olocked(struct binderc_ref *ref);
void binderc_free_ref(struct binderc_ref *ref);
int binderc_handle_refcount_cmd(struct binderc_proc *proc, u32 cmd,
				u32 target);

/* death.c */
int binderc_request_death(struct binderc_proc *proc,
			  struct binderc_thread *thread, u32 cmd,
			  u32 target, binder_uintptr_t cookie);
void binderc_dead_binder_done(struct binderc_proc *proc,
			      struct binderc_thread *thread,
			      binder_uintptr_t cookie);

/* freeze_notify.c */
int binderc_request_freeze_notification(struct binderc_proc *proc, u32 target,
					binder_uintptr_t cookie);
int binderc_clear_freeze_notification(struct binderc_proc *proc, u32 target,
				      binder_uintptr_t cookie);
int binderc_freeze_notification_done(struct binderc_proc *proc,
				     binder_uintptr_t cookie);
void binderc_notify_frozen_state(struct binderc_proc *proc, bool is_frozen);
int binderc_freeze_work_to_user(struct binderc_proc *proc,
				struct binderc_work *w, void __user **ptrp);

/* transaction.c */
void binderc_transaction(struct binderc_proc *proc,
			 struct binderc_thread *thread,
			 struct binder_transaction_data *tr, int reply,
			 binder_size_t extra_buffers_size);
void binderc_free_transaction(struct binderc_transaction *t);
void binderc_free_transaction_keep(struct binderc_transaction *t,
				   struct binderc_thread *self);
void binderc_send_failed_reply(struct binderc_transaction *t, u32 error);
void binderc_cleanup_transaction(struct binderc_transaction *t, u32 error);
void binderc_free_buf(struct binderc_proc *proc,
		      struct binderc_thread *thread,
		      struct binderc_buffer *buffer, bool is_failure);

/* objects.c: the state of one transaction being built */
struct binderc_txn_build {
	struct binderc_proc *proc;		/* sender */
	struct binderc_thread *thread;
	struct binder_transaction_data *tr;
	struct binderc_transaction *t;
	struct binderc_transaction *in_reply_to;
	struct binderc_proc *target_proc;
	size_t extra_buffers_size;	/* SG area, secctx included */
	size_t secctx_size;		/* 8-aligned, at the end of the SG area */
	size_t failed_at;		/* objects before it were translated */
	struct binderc_thread *target_thread;
	struct binderc_node *target_node;
	u32 return_error;		/* BR_* for the sender, 0 = none */
	s32 return_error_param;		/* -errno for the extended error */
	int debug_id;			/* of this transaction */
	bool sched_restore;		/* a reply: put the thread back to */
	struct binderc_sched saved_sched; /* this once it is sent (rtprio.c) */
};

int binderc_translate_buffer(struct binderc_txn_build *b);
void binderc_transaction_buffer_release(struct binderc_proc *proc,
					struct binderc_thread *thread,
					struct binderc_buffer *buffer,
					size_t off_end_offset,
					bool is_failure);
void binderc_release_entire_buffer(struct binderc_proc *proc,
				   struct binderc_thread *thread,
				   struct binderc_buffer *buffer,
				   bool is_failure);

/* report.c: transaction reports over generic netlink */
struct binderc_report {
	u32 error;		/* BR_* code the sender got */
	const char *context;	/* the device's context name */
	int from_pid;
	int from_tid;
	int to_pid;		/* 0: target not known, left out */
	int to_tid;		/* 0: no target thread, left out */
	bool is_reply;
	u32 flags;
	u32 code;
	u32 data_size;
};

int binderc_report_init(void);
void binderc_report_exit(void);
/* Process context, no lock held (it allocates with GFP_KERNEL). */
void binderc_report_send(const struct binderc_report *r);

/* fds.c */
int binderc_apply_fd_fixups(struct binderc_proc *proc,
			    struct binderc_transaction *t);
void binderc_free_txn_fixups(struct binderc_transaction *t);
void binderc_close_fd(u32 fd);

/* alloc.c */
int binderc_alloc_shrinker_init(void);
void binderc_alloc_shrinker_exit(void);
void binderc_alloc_page_stats(long *held, long *lru, long *reclaimed);
void binderc_alloc_init(struct binderc_alloc *alloc, int pid);
int binderc_alloc_mmap(struct binderc_alloc *alloc,
		       struct vm_area_struct *vma);
void binderc_alloc_vma_close(struct binderc_alloc *alloc);
vm_fault_t binderc_alloc_fault(struct binderc_alloc *alloc,
			       struct vm_fault *vmf);
void binderc_alloc_release(struct binderc_alloc *alloc);
struct binderc_buffer *binderc_alloc_new_buf(struct binderc_alloc *alloc,
					     size_t data_size,
					     size_t offsets_size,
					     size_t extra_buffers_size,
					     bool is_async, int pid);
void binderc_alloc_free_buf(struct binderc_alloc *alloc,
			    struct binderc_buffer *buffer);
struct binderc_buffer *
binderc_alloc_prepare_to_free(struct binderc_alloc *alloc,
			      unsigned long user_ptr);
unsigned long binderc_alloc_copy_user_to_buffer(struct binderc_alloc *alloc,
						struct binderc_buffer *buffer,
						size_t offset,
						const void __user *from,
						size_t bytes);
int binderc_alloc_copy_to_buffer(struct binderc_alloc *alloc,
				 struct binderc_buffer *buffer, size_t offset,
				 const void *src, size_t bytes);
int binderc_alloc_copy_from_buffer(struct binderc_alloc *alloc, void *dest,
				   struct binderc_buffer *buffer,
				   size_t offset, size_t bytes);

/* freeze.c */
long binderc_ioctl_freeze(struct binderc_proc *caller, void __user *ubuf);
long binderc_ioctl_get_frozen_info(struct binderc_proc *caller,
				   void __user *ubuf);
struct binderc_transaction *
binderc_find_outdated_txn_ilocked(struct binderc_proc *proc,
				  struct binderc_transaction *t,
				  struct list_head *target_list);

/* debugfs.c */
void binderc_debugfs_init(void);
void binderc_debugfs_exit(void);
void binderc_debugfs_add_proc(struct binderc_proc *proc);
void binderc_debugfs_remove_proc(struct binderc_proc *proc);

struct binderc_log_entry {
	int debug_id;
	int debug_id_done;
	int call_type;
	int from_proc;
	int from_thread;
	int target_handle;
	int to_proc;
	int to_thread;
	int to_node;
	int data_size;
	int offsets_size;
	int return_error_line;
	u32 return_error;
	s32 return_error_param;
	char context_name[sizeof_field(struct binderc_context, log_name)];
};

/* The files of debugfs and of binder_logs/, in one table (NULL-ended). */
struct binderc_log_file {
	const char *name;
	const struct file_operations *fops;
};

extern const struct binderc_log_file binderc_log_files[];
extern const struct file_operations *const binderc_proc_log_fops;

struct binderc_log_entry *binderc_log_add(bool failed);
void binderc_log_copy_failed(struct binderc_log_entry *e);
const char *binderc_bc_name(u32 cmd);
const char *binderc_br_name(u32 cmd);

/* The lock helpers need the structs above. */
#include "lock.h"

#endif /* BINDERC_H */
