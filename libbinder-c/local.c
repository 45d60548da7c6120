/* SPDX-License-Identifier: MIT */
/*
 * Local objects: binders served by this process.  A local object lives
 * while this process or the kernel (for other processes) holds a strong
 * count; then its class's on_destroy runs, and its memory goes with the
 * last weak count.  The kernel names it by the base's address (ptr and
 * cookie alike); the kernel's counts are held while BR_INCREFS/BR_ACQUIRE
 * stand, under the process's obj_mu, which also keeps the list of the
 * objects the kernel holds (for teardown).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

static void unlink_local_locked(struct bc_local *l)
{
	if (!l->bound)
		return;
	for (struct bc_local **pp = &l->base.proc->locals; *pp; pp = &(*pp)->bound_next) {
		if (*pp == l) {
			*pp = l->bound_next;
			break;
		}
	}
	l->bound = false;
}

static void local_strong_last(bc_binder *b)
{
	struct bc_local *l = bc__as_local(b);

	if (!atomic_exchange(&l->destroyed, true) && l->cls->on_destroy)
		l->cls->on_destroy(l->userdata);
}

static void local_weak_last(bc_binder *b)
{
	struct bc_local *l = bc__as_local(b);
	bc_process *proc = b->proc;

	if (proc) {
		pthread_mutex_lock(&proc->obj_mu);
		unlink_local_locked(l);
		pthread_mutex_unlock(&proc->obj_mu);
	}
	bc_class_unref(l->cls);
	free(l);
}

/* Revived only while it has strong counts, so never after on_destroy. */
static bool local_revive(bc_binder *b)
{
	return bc__inc_not_zero(&b->strong);
}

static bool local_is_alive(const bc_binder *b)
{
	return !atomic_load(&bc__as_local(b)->destroyed);
}

static int local_flatten(bc_binder *b, bool weak, struct flat_binder_object *obj)
{
	struct bc_local *l = bc__as_local(b);

	obj->hdr.type = weak ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER;
	/* Accept fds; lowest scheduling priority requirement (nice 19). */
	obj->flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x13;
	if (l->sched_flags)
		obj->flags = l->sched_flags;
	obj->binder = (uintptr_t)b;
	obj->cookie = (uintptr_t)b;
	return 0;
}

/* A local object belongs to the first process it goes through. */
static int local_bind(bc_binder *b, bc_process *proc)
{
	bc_process *was = NULL;

	if (!atomic_compare_exchange_strong(&b->proc, &was, proc) && was != proc)
		return -EXDEV;
	return 0;
}

static int local_default_stability(const bc_binder *b, int partition)
{
	(void)b;
	return partition == BINDERC_PARTITION_VENDOR ? BINDERC_STABILITY_VENDOR : BINDERC_STABILITY_SYSTEM;
}

int bc__local_dispatch(bc_binder *b, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply)
{
	struct bc_local *l = bc__as_local(b);
	bc_class *c = l->cls;
	int r;

	if (code == BINDERC_PING_TRANSACTION)
		return 0;
	if (code == BINDERC_INTERFACE_TRANSACTION)
		return bc_parcel_write_string16(reply, c->descriptor);
	if ((c->flags & BINDERC_CLASS_ENFORCE_INTERFACE) && code >= BINDERC_FIRST_CALL_TRANSACTION &&
	    code <= BINDERC_LAST_CALL_TRANSACTION) {
		r = bc_parcel_enforce_interface(in, c->descriptor);
		if (r < 0)
			return -EPERM;
	}
	return c->on_transact(b, txn, code, in, reply, l->userdata);
}

/* A call to a local object runs its handler on the calling thread; what
 * the handler returns is the called object's, as through the driver. */
static int local_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags,
			  int *ret_origin)
{
	bc_parcel *empty = NULL, *in = data;
	size_t saved = 0;
	bc_txn *txn;
	int r;

	r = bc__txn_new(NULL, code, flags & (BINDERC_FLAG_ONEWAY | BINDERC_FLAG_CLEAR_BUF), getpid(), geteuid(), NULL,
			&txn);
	if (r < 0)
		return r;
	if (!in) {
		r = bc_parcel_new(&empty);
		if (r < 0) {
			bc_txn_unref(txn);
			return r;
		}
		in = empty;
	}
	saved = in->pos;
	in->pos = 0;
	if (!bc__binder_strong_inc(b)) {
		r = -EPIPE; /* a dead object */
		*ret_origin = BINDERC_ERROR_TRANSPORT;
	} else {
		r = bc__local_dispatch(b, txn, code, in, txn->reply);
		if (r == BINDERC_TXN_DEFERRED)
			r = bc__txn_wait(txn);
		*ret_origin = BINDERC_ERROR_REMOTE;
		bc_binder_unref(b);
	}
	in->pos = saved;
	bc_parcel_unref(empty);
	if (flags & BINDERC_FLAG_ONEWAY)
		r = 0;
	else if (r == 0 && ret_reply)
		*ret_reply = bc_parcel_ref(txn->reply);
	bc_txn_unref(txn);
	return r;
}

const struct bc_binder_ops bc__local_ops = {
	.strong_last = local_strong_last,
	.weak_last = local_weak_last,
	.revive = local_revive,
	.is_alive = local_is_alive,
	.transact = local_transact,
	.flatten = local_flatten,
	.bind = local_bind,
	.default_stability = local_default_stability,
	/* what a local object was set to stays: received_stability NULL */
};

int bc_binder_new(bc_class *cls, void *userdata, bc_binder **ret)
{
	struct bc_local *l;

	if (!cls || !ret)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->base.ops = &bc__local_ops;
	l->cls = bc_class_ref(cls);
	l->userdata = userdata;
	atomic_init(&l->base.strong, 1);
	atomic_init(&l->base.weak, 1);
	atomic_init(&l->base.proc, NULL);
	atomic_init(&l->destroyed, false);
	*ret = &l->base;
	return 0;
}

void *bc_binder_get_userdata(const bc_binder *b)
{
	struct bc_local *l = bc__as_local(b);

	return l ? l->userdata : NULL;
}

bc_class *bc_binder_get_class(const bc_binder *b)
{
	struct bc_local *l = bc__as_local(b);

	return l ? l->cls : NULL;
}

/* The flags of Android's binder that binderc reads (mainline ignores all
 * but the priority byte, and reads it as a nice value). */
#define SCHED_POLICY_SHIFT 9
#define SCHED_INHERIT_RT   0x800u

int bc_binder_set_sched(bc_binder *b, int policy, int prio, bool inherit_rt)
{
	struct bc_local *l = bc__as_local(b);
	uint32_t flags;

	if (!l)
		return -EINVAL;
	switch (policy) {
	case SCHED_OTHER:
		if (prio < -20 || prio > 19)
			return -EINVAL;
		break;
	case SCHED_FIFO:
	case SCHED_RR:
		if (prio < 1 || prio > 99)
			return -EINVAL;
		break;
	default:
		/* SCHED_BATCH is no minimum; the others have no encoding. */
		return -EINVAL;
	}
	flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | ((uint32_t)policy << SCHED_POLICY_SHIFT) |
		((uint32_t)prio & FLAT_BINDER_FLAG_PRIORITY_MASK);
	if (inherit_rt)
		flags |= SCHED_INHERIT_RT;
	l->sched_flags = flags;
	return 0;
}

/* ---- the kernel's counts ---------------------------------------------- */

/* The local object whose address the kernel gives back as @ptr and
 * @cookie (both are the base's address, see local_flatten()). */
static struct bc_local *local_of(uintptr_t ptr, uintptr_t cookie)
{
	if (ptr != cookie)
		return NULL;
	return bc__as_local((bc_binder *)cookie);
}

int bc__local_from_cookie(bc_process *proc, uintptr_t ptr, uintptr_t cookie, bool strong, bc_binder **ret)
{
	struct bc_local *l = local_of(ptr, cookie);

	(void)proc;
	if (!l)
		return -EBADMSG;
	if (strong) {
		if (!bc__binder_strong_inc(&l->base))
			return -ESRCH;
	} else {
		/* the kernel's weak reference keeps it */
		bc__binder_weak_inc(&l->base);
	}
	*ret = &l->base;
	return 0;
}

static void bind_locked(bc_process *proc, struct bc_local *l)
{
	if (!l->bound) {
		atomic_store(&l->base.proc, proc);
		l->bound = true;
		l->bound_next = proc->locals;
		proc->locals = l;
	}
}

void bc__local_increfs(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);

	if (!l)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	if (!l->k_weak) {
		l->k_weak = true;
		bc__binder_weak_inc(&l->base); /* a local object's: no command */
		bind_locked(proc, l);
	}
	pthread_mutex_unlock(&proc->obj_mu);
}

void bc__local_acquire(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);

	if (!l)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	if (!l->k_strong) {
		l->k_strong = true;
		bind_locked(proc, l);
		/* not once it is destroyed */
		l->k_strong_counted = bc__inc_not_zero(&l->base.strong);
	}
	pthread_mutex_unlock(&proc->obj_mu);
}

void bc__local_release(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);
	bool counted = false;

	if (!l)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	if (l->k_strong) {
		l->k_strong = false;
		counted = l->k_strong_counted;
		l->k_strong_counted = false;
		if (!l->k_weak)
			unlink_local_locked(l);
	}
	pthread_mutex_unlock(&proc->obj_mu);
	if (counted)
		bc__binder_strong_dec(&l->base);
}

void bc__local_decrefs(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);
	bool had = false;

	if (!l)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	if (l->k_weak) {
		l->k_weak = false;
		had = true;
		if (!l->k_strong)
			unlink_local_locked(l);
	}
	pthread_mutex_unlock(&proc->obj_mu);
	if (had)
		bc__binder_weak_dec(&l->base);
}

void bc__local_release_all(bc_process *proc)
{
	for (;;) {
		struct bc_local *l;
		bool s, w;

		pthread_mutex_lock(&proc->obj_mu);
		l = proc->locals;
		if (!l) {
			pthread_mutex_unlock(&proc->obj_mu);
			break;
		}
		proc->locals = l->bound_next;
		l->bound = false;
		s = l->k_strong && l->k_strong_counted;
		w = l->k_weak;
		l->k_strong = l->k_strong_counted = l->k_weak = false;
		pthread_mutex_unlock(&proc->obj_mu);
		if (s)
			bc__binder_strong_dec(&l->base);
		if (w)
			bc__binder_weak_dec(&l->base);
	}
}
