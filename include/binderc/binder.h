/* SPDX-License-Identifier: MIT */
/*
 * binderc/binder.h - local objects, proxies, weak references, death
 * recipients, frozen-state watches and incoming transactions.
 *
 * A bc_binder is either a local object (created with bc_binder_new() from a
 * class, served by this process) or a proxy for a handle in another process
 * (read from a parcel or taken with bc_process_get_handle()).  There is one
 * proxy per handle per process.  bc_binder_ref()/bc_binder_unref() count
 * strong references; a proxy's strong and weak counts are mirrored into the
 * kernel with BC_ACQUIRE/BC_RELEASE and BC_INCREFS/BC_DECREFS.  A local
 * object lives while this process or the kernel (on behalf of other
 * processes) holds a strong reference; then the class's on_destroy runs.
 */
#ifndef BINDERC_BINDER_H
#define BINDERC_BINDER_H

#include <binderc/common.h>
#include <binderc/parcel.h>
#include <binderc/slot.h>
#include <binderc/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Handler of incoming transactions.  @in is positioned after the interface
 * token when the class enforces it (BINDERC_CLASS_ENFORCE_INTERFACE), else at 0.
 * Write the reply into @reply and return 0; return a negative errno to send
 * that status instead of the reply (TF_STATUS_CODE; -EBADMSG = unknown
 * transaction), or BINDERC_TXN_DEFERRED after taking a reference on @txn with
 * bc_txn_ref() to reply later with bc_txn_reply().  Ping and interface
 * transactions are answered by the library and never reach the handler.
 */
typedef int (*bc_transact_fn)(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
			      void *userdata);
/** Called once when a local object dies, with its user data. */
typedef void (*bc_destroy_fn)(void *userdata);
/** Death recipient: called on a pool (or polling) thread when the remote
 * process hosting the object dies, with the @userdata of its slot. */
typedef void (*bc_death_fn)(void *userdata);

/** Frozen-state watcher: called on a pool (or polling) thread with whether
 * the process hosting a proxy's object is frozen (BINDER_FREEZE). */
typedef void (*bc_frozen_fn)(bool is_frozen, void *userdata);

/** Return value of a handler that will reply later. */
#define BINDERC_TXN_DEFERRED 1

/** Class flag: check the interface token of user transactions before the
 * handler runs (mismatch: -EPERM is sent back). */
#define BINDERC_CLASS_ENFORCE_INTERFACE 0x1u

/* ---- classes ---------------------------------------------------------- */

/** Create a class for @descriptor (copied) with the given callbacks
 * (@on_destroy may be NULL) and BINDERC_CLASS_* @flags. */
int bc_class_new(const char *descriptor, bc_transact_fn on_transact, bc_destroy_fn on_destroy, unsigned flags,
		 bc_class **ret);
/** Take a reference. */
bc_class *bc_class_ref(bc_class *c);
/** Drop a reference (objects hold their own).  Returns NULL. */
bc_class *bc_class_unref(bc_class *c);
/** The interface descriptor. */
const char *bc_class_get_descriptor(const bc_class *c);

/* ---- binders ---------------------------------------------------------- */

/** Create a local object of class @cls with @userdata; *@ret holds the
 * first strong reference. */
int bc_binder_new(bc_class *cls, void *userdata, bc_binder **ret);
/** Take a strong reference.  Returns @b. */
bc_binder *bc_binder_ref(bc_binder *b);
/** Drop a strong reference.  Returns NULL. */
bc_binder *bc_binder_unref(bc_binder *b);
/** True for a proxy, false for a local object. */
bool bc_binder_is_remote(const bc_binder *b);
/** User data of a local object (NULL for proxies). */
void *bc_binder_get_userdata(const bc_binder *b);
/** Class of a local object (NULL for proxies). */
bc_class *bc_binder_get_class(const bc_binder *b);
/** Handle of a proxy in *@ret (-EINVAL for local objects). */
int bc_binder_get_handle(const bc_binder *b, uint32_t *ret);
/** Process a proxy belongs to (or a local object was sent through), or
 * NULL.  No reference is taken. */
bc_process *bc_binder_get_process(const bc_binder *b);
/**
 * Mark local object @b with stability @level (enum bc_stability), the
 * word written after it in the dialects that have one (Android 11+):
 * BINDERC_STABILITY_VINTF for an object of a @VintfStability interface
 * (what bc-aidl's generated stubs do, and Android's
 * AIBinder_markVintfStability), VENDOR or SYSTEM by hand; 0 selects the
 * level of the partition of each parcel it is written to (SYSTEM, or
 * VENDOR for BINDERC_PARTITION_VENDOR).  Set it before the object is
 * first sent: peers keep the first level they see and refuse another
 * (Android's Stability::setRepr), so once the object went out through a
 * driver a different level is -EBUSY.  -EINVAL for a proxy or a level
 * that is not one of enum bc_stability.
 */
int bc_binder_set_stability(bc_binder *b, int level);
/** Stability level received with a proxy, or set on a local object (0
 * when none was: the partition's level is written then). */
int bc_binder_get_stability(const bc_binder *b);
/**
 * Require stability @level (VENDOR, SYSTEM or VINTF) of proxy @b: from
 * now on its user transactions (codes BINDERC_FIRST_CALL_TRANSACTION to
 * BINDERC_LAST_CALL_TRANSACTION; ping and interface calls are never
 * checked) fail with -EPROTOTYPE, before anything is sent, unless its
 * level includes every bit of @level, as Android's Stability::check
 * decides (VINTF includes SYSTEM and VENDOR; a level that came with no
 * word counts as the partition's own).  This is how a proxy of a
 * @VintfStability interface refuses a binder of system or vendor
 * stability; Android refuses such calls with BAD_TYPE.  Requirements
 * add up; a proxy is shared by everything in the process that holds its
 * handle.  Returns 0, or -EPROTOTYPE at once when @b is already known to
 * fall short (the requirement stays recorded).  A local object is never
 * refused (its calls do not cross a process): 0.  -EINVAL for another
 * @level.
 */
int bc_binder_require_stability(bc_binder *b, int level);
/**
 * Scheduling the driver gives the threads serving local object @b, asked
 * for in the flags of the object when it is first sent (its node is made
 * then; later calls change nothing in the driver).  @policy SCHED_OTHER
 * with @prio a nice value (-20..19), or SCHED_FIFO / SCHED_RR with @prio a
 * real-time priority (1..99): the minimum those threads run at.  With
 * @inherit_rt, a SCHED_FIFO/SCHED_RR caller of a two-way call also lends
 * its own priority for the call.  binderc honours this (and refuses the
 * object, BR_FAILED_REPLY with -EPERM, if the sender has neither
 * CAP_SYS_NICE nor RLIMIT_RTPRIO for a real-time minimum); mainline
 * ignores all but the nice value.  0, or -EINVAL for a proxy, another
 * policy or a priority out of range.
 */
int bc_binder_set_sched(bc_binder *b, int policy, int prio, bool inherit_rt);
/** False once a proxy's process is known to be dead. */
bool bc_binder_is_alive(const bc_binder *b);

/**
 * Create an empty parcel in the wire dialect of @b's process (or the
 * default), ready for a request to @b.
 */
int bc_binder_new_parcel(bc_binder *b, bc_parcel **ret);

/**
 * Send transaction @code with @data (may be NULL: empty) to @b.  For a sync
 * call, *@ret_reply (if not NULL) receives the reply parcel.  @flags may
 * hold BINDERC_FLAG_ONEWAY, in which case there is no reply, and with it
 * BINDERC_FLAG_TELL_FROZEN (BINDERC_QUEUED_FROZEN is then returned for a
 * call queued to a frozen process), and BINDERC_FLAG_CLEAR_BUF (sensitive
 * data: @data and the reply are marked with bc_parcel_mark_sensitive(),
 * the driver clears its buffers).  Calls to a local object run its
 * handler on the calling thread.  Returns 0, a transport error (see
 * binderc/status.h) or the status the handler sent; @ret_error (may be
 * NULL) says which (BINDERC_ERROR_REMOTE: the handler's).
 */
int bc_binder_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags,
		       bc_error *ret_error);
/** Send a ping ('_PNG').  0 when the object answers. */
int bc_binder_ping(bc_binder *b);
/** Ask the object for its interface descriptor ('_NTF'), newly allocated. */
int bc_binder_get_interface(bc_binder *b, char **ret);

/**
 * Register @fn(@userdata) to be called once when the proxy's process dies;
 * *@ret is the registration (binderc/slot.h: drop it to unlink, from the
 * callback too).  The slot keeps the proxy's handle (a weak reference)
 * until it is dropped.  Needs a thread pool or a polling thread to be
 * delivered.  -ENOSYS for local objects, -EPIPE if already known dead.
 */
int bc_binder_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret);

/**
 * Register @fn(is_frozen, @userdata) to hear whether the proxy's process is
 * frozen: the driver sends the current state soon after the first
 * registration on a proxy, then each time the process is frozen or thawed
 * (a freeze or thaw of a frozen or thawed process included); changes that
 * come while a call is still running may be merged into the next one, which
 * then carries the newest state.  Needs a thread pool or a polling thread to
 * be delivered.  A later registration on the same proxy hears from the next
 * change on (bc_binder_get_frozen() has the state until then).  *@ret is the
 * registration (binderc/slot.h), which keeps the proxy's handle until it is
 * dropped.  -ENOSYS for local objects, -EPIPE if the process is known dead,
 * -EOPNOTSUPP if the driver has no frozen-binder notifications (mainline
 * before Linux 6.12).  Watches end, without a call, when the process dies.
 */
int bc_binder_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *userdata, bc_slot **ret);
/** The last frozen state the driver reported for the proxy's process in
 * *@ret; -ENODATA before the first report (or with no watch), -ENOSYS for
 * local objects. */
int bc_binder_get_frozen(const bc_binder *b, bool *ret);

/* ---- weak references -------------------------------------------------- */

/** Create a weak reference to @b. */
int bc_weak_new(bc_binder *b, bc_weak **ret);
/** Take a reference on the weak reference itself. */
bc_weak *bc_weak_ref(bc_weak *w);
/** Drop it.  Returns NULL. */
bc_weak *bc_weak_unref(bc_weak *w);
/** Get a strong reference if the object is still alive (-ESRCH if not). */
int bc_weak_promote(bc_weak *w, bc_binder **ret);

/* ---- incoming transactions -------------------------------------------- */

/** Take a reference on a transaction (needed to keep it past the handler). */
bc_txn *bc_txn_ref(bc_txn *t);
/** Drop a reference.  Returns NULL. */
bc_txn *bc_txn_unref(bc_txn *t);
/** Transaction code. */
uint32_t bc_txn_get_code(const bc_txn *t);
/** Transaction flags (BINDERC_FLAG_ONEWAY). */
uint32_t bc_txn_get_flags(const bc_txn *t);
/** Pid of the caller (0 for one-way calls, as the kernel reports). */
pid_t bc_txn_get_calling_pid(const bc_txn *t);
/** Effective uid of the caller. */
uid_t bc_txn_get_calling_euid(const bc_txn *t);
/** The reply parcel (for a deferred reply). */
bc_parcel *bc_txn_get_reply(const bc_txn *t);
/**
 * Complete a deferred transaction: send the reply parcel (status 0) or
 * @status (negative).  May be called from any thread, once; -EALREADY
 * afterwards.
 */
int bc_txn_reply(bc_txn *t, int status);

#ifdef __cplusplus
}
#endif

#endif
