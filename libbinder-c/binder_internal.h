/* SPDX-License-Identifier: MIT */
/*
 * The binder object model, inside the library: one base (the public
 * bc_binder) and its kinds, each a struct that embeds the base and a
 * const table of operations (as libwayland's wl_proxy and wl_resource
 * embed a wl_object).  Code outside a kind's own file goes through the
 * table and never asks which kind an object is, so that another kind (a
 * proxy whose calls go over a socket rather than the kernel) plugs in
 * without touching the callers.  Included by internal.h.
 *
 *   binder.c  the base: counts, the public calls every kind answers
 *   local.c   objects served here (struct bc_local)
 *   proxy.c   handles of the kernel driver (struct bc_proxy)
 *   death.c   death notifications of kernel proxies
 *   frozen.c  frozen-state notifications of kernel proxies
 *   weak.c    weak references
 *   stability.c  stability levels and the check of required ones
 *   class.c   classes of local objects
 */
#ifndef BINDERC_BINDER_INTERNAL_H
#define BINDERC_BINDER_INTERNAL_H

/*
 * What a kind of binder does.  The count hooks run when a count leaves or
 * reaches zero (NULL: nothing to do); weak_last must free the object or
 * hand it to whoever frees it.  The notification entries are NULL for a
 * kind that has none (the public call then says -ENOSYS).
 */
struct bc_binder_ops {
	void (*weak_first)(bc_binder *b);
	void (*strong_first)(bc_binder *b);
	void (*strong_last)(bc_binder *b);
	void (*weak_last)(bc_binder *b);
	/* A strong count for a holder of a weak one, or of a kernel cookie;
	 * false if the object may not be revived. */
	bool (*revive)(bc_binder *b);
	bool (*is_alive)(const bc_binder *b);
	/* bc_binder_transact() after its arguments were checked; on an
	 * error, *@ret_origin is set unless it is BINDERC_ERROR_LOCAL. */
	int (*transact)(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags,
			int *ret_origin);
	/* The kernel's object for @b (0), or -EXDEV for a kind the kernel
	 * cannot carry. */
	int (*flatten)(bc_binder *b, bool weak, struct flat_binder_object *obj);
	/* @b is about to go out through @proc's driver: 0, or -EXDEV. */
	int (*bind)(bc_binder *b, bc_process *proc);
	/* The stability word to write when none was set. */
	int (*default_stability)(const bc_binder *b, int partition);
	/* A stability level came with @b in a received parcel. */
	void (*received_stability)(bc_binder *b, int level);
	/* Make @p, new and empty, a parcel for calls to @b (NULL: the
	 * default dialect); for an RPC proxy, one of its session. */
	void (*prepare_parcel)(bc_binder *b, bc_parcel *p);
	/* The public calls, their arguments checked. */
	int (*link_to_death)(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret);
	int (*watch_frozen)(bc_binder *b, bc_frozen_fn fn, void *userdata, bc_slot **ret);
	int (*get_frozen)(const bc_binder *b, bool *ret);
};

/* The public bc_binder.  Kernel cookies are the base's address. */
struct bc_binder {
	const struct bc_binder_ops *ops;
	/* A strong count above zero holds one weak count. */
	atomic_uint strong;
	atomic_uint weak;
	int stability;
	/* levels bc_binder_require_stability() asked of a proxy (stability.c) */
	atomic_int required;
	/* a proxy's (fixed), or the one a local object was first sent
	 * through (set once, by compare-exchange) */
	_Atomic(bc_process *) proc;
};

struct bc_local {
	struct bc_binder base;
	bc_class *cls;
	void *userdata;
	/* flat_binder_object flags: bc_binder_set_sched(), 0 for the default */
	uint32_t sched_flags;
	atomic_bool destroyed; /* on_destroy ran (or runs): no strong count again */
	/* under base.proc->obj_mu: */
	bool k_weak, k_strong; /* kernel holds (BR_INCREFS / BR_ACQUIRE seen) */
	bool k_strong_counted;
	struct bc_local *bound_next; /* in proc->locals */
	bool bound;
};

/* A handle of the kernel driver. */
struct bc_proxy {
	struct bc_binder base;
	uint32_t handle;
	atomic_bool dead;
	/* the rest under base.proc->obj_mu */
	bool death_requested; /* BC_REQUEST_DEATH_NOTIFICATION outstanding */
	bool in_table;
	bool frozen_requested; /* BC_REQUEST_FREEZE_NOTIFICATION outstanding */
	bool frozen_known, is_frozen; /* the last BR_FROZEN_BINDER */
	/* table presence + outstanding death and freeze notifications */
	unsigned mem;
	/* ordered-queue numbers of the last freeze request and of the last
	 * one the driver refused (see frozen.c) */
	uint64_t freeze_req_seq, freeze_fail_seq;
	bc_slot *deaths;	  /* death recipients */
	bc_slot *frozen_watches;
	struct bc_proxy *proxy_next; /* in proc->proxies */
};

extern const struct bc_binder_ops bc__local_ops;
extern const struct bc_binder_ops bc__proxy_ops;

#define BINDERC_CONTAINER_OF(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* @b as a local object, or NULL if it is another kind.  For what only
 * local objects have (class, user data, scheduling); const is not kept,
 * as with strchr(). */
static inline struct bc_local *bc__as_local(const bc_binder *b)
{
	return b && b->ops == &bc__local_ops ? BINDERC_CONTAINER_OF((bc_binder *)b, struct bc_local, base) : NULL;
}

/* @b as a kernel proxy, or NULL (for what only handles have). */
static inline struct bc_proxy *bc__as_proxy(const bc_binder *b)
{
	return b && b->ops == &bc__proxy_ops ? BINDERC_CONTAINER_OF((bc_binder *)b, struct bc_proxy, base) : NULL;
}

struct bc_class {
	atomic_int refs;
	char *descriptor;
	bc_transact_fn on_transact;
	bc_destroy_fn on_destroy;
	unsigned flags;
};

struct bc_weak {
	atomic_int refs;
	bc_binder *b; /* holds one weak count */
};

/* ---- binder.c: counts every kind shares ------------------------------- */
/* Increment from non-zero only: false if the count is zero (its object
 * is on its way out and must not be revived). */
bool bc__inc_not_zero(atomic_uint *c);
/* Add a weak count: the caller holds one already, or the object is new. */
void bc__binder_weak_inc(bc_binder *b);
void bc__binder_weak_dec(bc_binder *b);
/* Add a strong count the caller may hold a weak one for. */
void bc__binder_strong_add(bc_binder *b);
void bc__binder_strong_dec(bc_binder *b);
/* A strong count for a caller that holds only a weak one (ops->revive). */
bool bc__binder_strong_inc(bc_binder *b);

/* Fill @obj for @b (not NULL): 0 or -EXDEV. */
int bc__binder_flatten(bc_binder *b, bool weak, struct flat_binder_object *obj);
/* Stability level to write after @b. */
int bc__binder_wire_stability(const bc_binder *b, int partition);
/* A stability level received with @b. */
void bc__binder_set_stability_raw(bc_binder *b, int level);
/* 0, or -EPROTOTYPE when user transaction @code may not go to @b for
 * lack of the stability required of it. */
int bc__binder_check_call(const bc_binder *b, uint32_t code);
/* Bind the binders of @p to @proc (-EXDEV if bound elsewhere). */
int bc__parcel_bind(bc_parcel *p, bc_process *proc);
/* Process teardown: drop kernel references on locals, free proxies. */
void bc__process_release_objects(bc_process *proc);

/* ---- local.c ----------------------------------------------------------- */
/* The local object the kernel names by @ptr and @cookie, with a count. */
int bc__local_from_cookie(bc_process *proc, uintptr_t ptr, uintptr_t cookie, bool strong, bc_binder **ret);
/* Run a local object's handler (ping/interface answered here). */
int bc__local_dispatch(bc_binder *b, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply);
/* Driver events on local objects (from ipc.c). */
void bc__local_increfs(bc_process *proc, uintptr_t ptr, uintptr_t cookie);
void bc__local_acquire(bc_process *proc, uintptr_t ptr, uintptr_t cookie);
void bc__local_release(bc_process *proc, uintptr_t ptr, uintptr_t cookie);
void bc__local_decrefs(bc_process *proc, uintptr_t ptr, uintptr_t cookie);
/* Drop the kernel's counts on every local object bound to @proc. */
void bc__local_release_all(bc_process *proc);

/* ---- proxy.c ----------------------------------------------------------- */
/* The proxy of @handle in @proc, made if there is none, with a count. */
int bc__proxy_get(bc_process *proc, uint32_t handle, bool strong, bc_binder **ret);
/* The proxy a notification's cookie names (its base's address). */
struct bc_proxy *bc__proxy_of_cookie(uintptr_t cookie);
/* Append a notification command for @x to the ordered queue (obj_mu
 * held, room reserved); returns its number in the queue. */
uint64_t bc__proxy_notify_locked(struct bc_proxy *x, uint32_t cmd);
/* Drop a memory count of a proxy whose notification ended. */
void bc__proxy_mem_dec(bc_process *proc, struct bc_proxy *x);
/* BR_CLEAR_*_NOTIFICATION_DONE. */
void bc__proxy_clear_done(bc_process *proc, uintptr_t cookie);
/* Free the proxies left at process teardown. */
void bc__proxy_free_all(bc_process *proc);
/* A slot of proxy @b, holding a weak count of it (its release is
 * bc__binder_slot_release). */
int bc__proxy_slot_new(bc_binder *b, const struct bc_slot_ops *ops, void *userdata, bc_slot **ret);
/* A slot's detach: out of the proxy's list at @head (a list of the
 * proxy's own), and the driver's registration ended with @clear_locked
 * when it was the last. */
void bc__proxy_slot_detach(bc_slot *s, bc_slot **head, bool (*clear_locked)(struct bc_proxy *x));

/* ---- death.c ----------------------------------------------------------- */
int bc__proxy_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret);
/* BR_DEAD_BINDER. */
void bc__proxy_dead(bc_process *proc, uintptr_t cookie);
/* End the death notification of @x (obj_mu held, room for one command);
 * true if a command was appended. */
bool bc__death_clear_locked(struct bc_proxy *x);

/* ---- frozen.c ---------------------------------------------------------- */
int bc__proxy_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *userdata, bc_slot **ret);
int bc__proxy_get_frozen(const bc_binder *b, bool *ret);
/* BR_FROZEN_BINDER. */
void bc__proxy_frozen(bc_process *proc, uintptr_t cookie, bool is_frozen);
/* The driver refused the freeze request numbered @seq on the proxy whose
 * cookie is @cookie (from the ordered queue's writer, without obj_mu). */
void bc__proxy_freeze_refused(bc_process *proc, uintptr_t cookie, uint64_t seq, int err);
/* End the freeze notification of @x (obj_mu held, room for one command);
 * true if a command was appended. */
bool bc__frozen_clear_locked(struct bc_proxy *x);

/* ---- slots of a binder (death.c, frozen.c) ------------------------------ */
/* Take @s out of the list at @head (the owner's lock held): true if it
 * was there (then its hold is the caller's to put, unlocked). */
bool bc__slot_list_remove(bc_slot **head, bc_slot *s);
/* Add @s to the list at @head, with a hold (the owner's lock held). */
void bc__slot_push_locked(bc_slot **head, bc_slot *s);
/* Drop the holds of a list taken away from its owner (unlocked). */
void bc__slot_list_put(bc_slot *list);
/* What a binder's slot releases: its weak count on the binder. */
void bc__binder_slot_release(bc_slot *s);

/* ---- weak.c ------------------------------------------------------------ */
/* A weak reference holding a weak count the caller gives it. */
int bc__binder_weak_take(bc_binder *b, bc_weak **ret);

#endif
