/* SPDX-License-Identifier: MIT */
/*
 * Local objects and proxies: reference counts mirrored with the kernel,
 * one proxy per handle, weak references, death recipients, frozen-state
 * watches.
 *
 * Counts are atomics; the handle table, bound local objects and
 * notification state are under their process's obj_mu; commands to the
 * driver are sent after unlocking (LOCKING in internal.h says how their
 * order is kept).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* ---- classes ---------------------------------------------------------- */

int bc_class_new(const char *descriptor, bc_transact_fn on_transact, bc_destroy_fn on_destroy, unsigned flags,
		 bc_class **ret)
{
	bc_class *c;

	if (!descriptor || !on_transact || !ret || (flags & ~BINDERC_CLASS_ENFORCE_INTERFACE))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->descriptor = strdup(descriptor);
	if (!c->descriptor) {
		free(c);
		return -ENOMEM;
	}
	atomic_init(&c->refs, 1);
	c->on_transact = on_transact;
	c->on_destroy = on_destroy;
	c->flags = flags;
	*ret = c;
	return 0;
}

static void class_free(bc_class *c)
{
	free(c->descriptor);
	free(c);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_class, bc_class, class_free);

const char *bc_class_get_descriptor(const bc_class *c)
{
	return c ? c->descriptor : NULL;
}

/* ---- counting --------------------------------------------------------- */

static void kcmd_handle(struct bc_proxy *x, uint32_t cmd, bool may_defer)
{
	uint32_t h = x->handle;

	bc__ref_cmd(x->base.proc, cmd, &h, sizeof(h), may_defer);
}

/* Append a notification command for @x to its process's ordered queue
 * (obj_mu held, room reserved). */
static uint64_t notify_cmd_locked(struct bc_proxy *x, uint32_t cmd)
{
	struct binder_handle_cookie hc = { .handle = x->handle, .cookie = (uintptr_t)&x->base };

	return bc__oq_append_locked(x->base.proc, cmd, &hc, sizeof(hc));
}

/* End the proxy's freeze notification (its BR_CLEAR_FREEZE_NOTIFICATION_DONE
 * drops the memory count it holds).  Same cookie as the death commands:
 * the driver keeps the two kinds apart.  Appends at most one command. */
static bool frozen_clear_locked(struct bc_proxy *x)
{
	if (!x->frozen_requested)
		return false;
	notify_cmd_locked(x, BC__BC_CLEAR_FREEZE_NOTIFICATION);
	x->frozen_requested = false;
	x->frozen_known = false;
	return true;
}

/* Increment from non-zero only: false if the count is zero (its object is
 * on its way out and must not be revived). */
static bool inc_not_zero(atomic_uint *c)
{
	unsigned v = atomic_load(c);

	while (v != 0)
		if (atomic_compare_exchange_weak(c, &v, v + 1))
			return true;
	return false;
}

/* Add a weak count; the caller holds one already, or the object is new
 * (then the proxy's BC_INCREFS goes out here, before the caller returns). */
static void weak_inc(bc_binder *b)
{
	if (atomic_fetch_add(&b->weak, 1) == 0 && b->remote)
		kcmd_handle(bc__proxy(b), BC_INCREFS, false);
}

static void strong_inc(bc_binder *b)
{
	if (atomic_fetch_add(&b->strong, 1) == 0) {
		weak_inc(b);
		if (b->remote)
			kcmd_handle(bc__proxy(b), BC_ACQUIRE, false);
	}
}

static void unlink_proxy_locked(struct bc_proxy *x)
{
	for (struct bc_proxy **pp = &x->base.proc->proxies; *pp; pp = &(*pp)->proxy_next) {
		if (*pp == x) {
			*pp = x->proxy_next;
			return;
		}
	}
}

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

static void free_binder(bc_binder *b)
{
	if (b->remote) {
		struct bc_proxy *x = bc__proxy(b);

		while (x->deaths) {
			struct bc_death_reg *d = x->deaths;

			x->deaths = d->next;
			free(d);
		}
		while (x->frozen_watches) {
			struct bc_frozen_reg *f = x->frozen_watches;

			x->frozen_watches = f->next;
			free(f);
		}
		free(x);
	} else {
		struct bc_local *l = bc__local(b);

		bc_class_unref(l->cls);
		free(l);
	}
}

/* The last weak count of a proxy is gone: leave the handle table (a
 * lookup racing with us found the count zero and made a new proxy) and
 * the kernel. */
static void proxy_weak_zero(struct bc_proxy *x)
{
	bc_process *proc = x->base.proc;
	bool ordered, free_it;

	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 3);
	x->in_table = false;
	ordered = x->death_requested;
	if (x->death_requested) {
		notify_cmd_locked(x, BC_CLEAR_DEATH_NOTIFICATION);
		x->death_requested = false;
	}
	ordered |= frozen_clear_locked(x);
	/* After any clear, ours or one still queued (it needs the handle to
	 * exist): in their queue then. */
	ordered |= proc->oq_done != proc->oq_seq;
	if (ordered) {
		uint32_t h = x->handle;

		bc__oq_append_locked(proc, BC_DECREFS, &h, sizeof(h));
	}
	free_it = --x->mem == 0;
	if (free_it)
		unlink_proxy_locked(x);
	pthread_mutex_unlock(&proc->obj_mu);
	if (ordered)
		bc__oq_flush(proc, 0);
	else
		kcmd_handle(x, BC_DECREFS, true);
	if (free_it)
		free_binder(&x->base);
	/* the proxy's own reference on its process, last */
	bc_process_unref(proc);
}

/* Drop one weak count. */
void bc__binder_weak_dec(bc_binder *b)
{
	struct bc_local *l;
	bc_process *proc;

	if (atomic_fetch_sub(&b->weak, 1) != 1)
		return;
	if (b->remote) {
		proxy_weak_zero(bc__proxy(b));
		return;
	}
	l = bc__local(b);
	proc = b->proc;
	if (proc) {
		pthread_mutex_lock(&proc->obj_mu);
		unlink_local_locked(l);
		pthread_mutex_unlock(&proc->obj_mu);
	}
	free_binder(b);
}

static void strong_dec(bc_binder *b)
{
	if (atomic_fetch_sub(&b->strong, 1) != 1)
		return;
	if (b->remote) {
		/* with the thread's next write: a late release is harmless */
		kcmd_handle(bc__proxy(b), BC_RELEASE, true);
	} else {
		struct bc_local *l = bc__local(b);

		if (!atomic_exchange(&l->destroyed, true) && l->cls->on_destroy)
			l->cls->on_destroy(l->userdata);
	}
	bc__binder_weak_dec(b);
}

/* A strong count for a caller that holds only a weak one (or none that
 * counts: a kernel cookie).  A local object is revived only while it has
 * strong counts (so never after on_destroy); a proxy may take one again
 * while it is in the handle table, i.e. while its weak count holds. */
bool bc__binder_strong_inc(bc_binder *b)
{
	if (b->remote) {
		if (!inc_not_zero(&b->weak))
			return false;
		strong_inc(b);
		bc__binder_weak_dec(b);
		return true;
	}
	return inc_not_zero(&b->strong);
}

/* ---- binders ---------------------------------------------------------- */

int bc_binder_new(bc_class *cls, void *userdata, bc_binder **ret)
{
	struct bc_local *l;

	if (!cls || !ret)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->cls = bc_class_ref(cls);
	l->userdata = userdata;
	atomic_init(&l->base.strong, 1);
	atomic_init(&l->base.weak, 1);
	atomic_init(&l->base.proc, NULL);
	atomic_init(&l->destroyed, false);
	*ret = &l->base;
	return 0;
}

bc_binder *bc_binder_ref(bc_binder *b)
{
	if (b)
		strong_inc(b);
	return b;
}

bc_binder *bc_binder_unref(bc_binder *b)
{
	if (b)
		strong_dec(b);
	return NULL;
}

bool bc_binder_is_remote(const bc_binder *b)
{
	return b && b->remote;
}

void *bc_binder_get_userdata(const bc_binder *b)
{
	return b && !b->remote ? bc__local(b)->userdata : NULL;
}

bc_class *bc_binder_get_class(const bc_binder *b)
{
	return b && !b->remote ? bc__local(b)->cls : NULL;
}

int bc_binder_get_handle(const bc_binder *b, uint32_t *ret)
{
	if (!b || !b->remote || !ret)
		return -EINVAL;
	*ret = bc__proxy(b)->handle;
	return 0;
}

bc_process *bc_binder_get_process(const bc_binder *b)
{
	return b ? b->proc : NULL;
}

int bc_binder_set_stability(bc_binder *b, int level)
{
	if (!b || b->remote)
		return -EINVAL;
	if (level != BINDERC_STABILITY_UNDECLARED && level != BINDERC_STABILITY_VENDOR && level != BINDERC_STABILITY_SYSTEM &&
	    level != BINDERC_STABILITY_VINTF)
		return -EINVAL;
	b->stability = level;
	return 0;
}

int bc_binder_get_stability(const bc_binder *b)
{
	return b ? b->stability : -EINVAL;
}

/* The flags of Android's binder that binderc reads (mainline ignores all
 * but the priority byte, and reads it as a nice value). */
#define SCHED_POLICY_SHIFT 9
#define SCHED_INHERIT_RT   0x800u

int bc_binder_set_sched(bc_binder *b, int policy, int prio, bool inherit_rt)
{
	uint32_t flags;

	if (!b || b->remote)
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
	b->sched_flags = flags;
	return 0;
}

void bc__binder_set_stability_raw(bc_binder *b, int level)
{
	b->stability = level;
}

bool bc_binder_is_alive(const bc_binder *b)
{
	if (!b)
		return false;
	return b->remote ? !atomic_load(&bc__proxy(b)->dead) : !atomic_load(&bc__local(b)->destroyed);
}

void bc__binder_flatten(bc_binder *b, bool weak, struct flat_binder_object *obj)
{
	memset(obj, 0, sizeof(*obj));
	if (b->remote) {
		obj->hdr.type = weak ? BINDER_TYPE_WEAK_HANDLE : BINDER_TYPE_HANDLE;
		obj->handle = bc__proxy(b)->handle;
	} else {
		obj->hdr.type = weak ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER;
		/* Accept fds; lowest scheduling priority requirement (nice 19). */
		obj->flags = FLAT_BINDER_FLAG_ACCEPTS_FDS | 0x13;
		if (b->sched_flags)
			obj->flags = b->sched_flags;
		obj->binder = (uintptr_t)b;
		obj->cookie = (uintptr_t)b;
	}
}

int bc__binder_wire_stability(const bc_binder *b, int partition)
{
	if (b->stability)
		return b->stability;
	if (b->remote)
		return BINDERC_STABILITY_UNDECLARED;
	return partition == BINDERC_PARTITION_VENDOR ? BINDERC_STABILITY_VENDOR : BINDERC_STABILITY_SYSTEM;
}

int bc__parcel_bind(bc_parcel *p, bc_process *proc)
{
	for (size_t i = 0; i < p->n_binders; i++) {
		bc_binder *b = p->binders[i];
		bc_process *was = NULL;

		if (b->remote) {
			if (b->proc != proc)
				return -EXDEV;
			continue;
		}
		/* A local object belongs to the first process it goes through. */
		if (!atomic_compare_exchange_strong(&b->proc, &was, proc) && was != proc)
			return -EXDEV;
	}
	return 0;
}

int bc_binder_new_parcel(bc_binder *b, bc_parcel **ret)
{
	int r = bc_parcel_new(ret);

	if (r == 0 && b && b->proc)
		bc_parcel_set_wire(*ret, b->proc->wire, b->proc->partition);
	return r;
}

int bc__local_dispatch(bc_binder *b, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply)
{
	struct bc_local *l = bc__local(b);
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

static int local_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags)
{
	bc_parcel *empty = NULL, *in = data;
	size_t saved = 0;
	bc_txn *txn;
	int r;

	r = bc__txn_new(NULL, code, flags & BINDERC_FLAG_ONEWAY, getpid(), geteuid(), NULL, &txn);
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
		r = -EPIPE;
	} else {
		r = bc__local_dispatch(b, txn, code, in, txn->reply);
		if (r == BINDERC_TXN_DEFERRED)
			r = bc__txn_wait(txn);
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

int bc_binder_transact(bc_binder *b, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags)
{
	if (!b || (flags & ~(BINDERC_FLAG_ONEWAY | BINDERC_FLAG_TELL_FROZEN)))
		return -EINVAL;
	if (ret_reply)
		*ret_reply = NULL;
	if (!b->remote)
		return local_transact(b, code, data, ret_reply, flags);
	return bc__transact(b->proc, bc__proxy(b)->handle, code, data, ret_reply, flags);
}

int bc_binder_ping(bc_binder *b)
{
	bc_parcel *reply = NULL;
	int r = bc_binder_transact(b, BINDERC_PING_TRANSACTION, NULL, &reply, 0);

	bc_parcel_unref(reply);
	return r;
}

int bc_binder_get_interface(bc_binder *b, char **ret)
{
	bc_parcel *reply = NULL;
	char *d = NULL;
	int r;

	if (!ret)
		return -EINVAL;
	r = bc_binder_transact(b, BINDERC_INTERFACE_TRANSACTION, NULL, &reply, 0);
	if (r == 0)
		r = bc_parcel_read_string16(reply, &d, NULL);
	if (r == 0 && !d)
		r = -EBADMSG;
	bc_parcel_unref(reply);
	if (r == 0)
		*ret = d;
	return r;
}

/* ---- objects from the kernel ------------------------------------------ */

/* The local object whose address the kernel gives back as @ptr and
 * @cookie (both are the base's address, see bc__binder_flatten()). */
static struct bc_local *local_of(uintptr_t ptr, uintptr_t cookie)
{
	bc_binder *b = (bc_binder *)cookie;

	if (!b || ptr != cookie || b->remote)
		return NULL;
	return bc__local(b);
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
		weak_inc(&l->base);
	}
	*ret = &l->base;
	return 0;
}

/* A weak count on the proxy of @handle in @proc's table (obj_mu held),
 * or NULL.  A proxy whose count is zero is being destroyed by the thread
 * that dropped it (it leaves the table as soon as that thread gets the
 * lock): it is passed over, and the caller makes a new one. */
static struct bc_proxy *lookup_locked(bc_process *proc, uint32_t handle)
{
	for (struct bc_proxy *x = proc->proxies; x; x = x->proxy_next)
		if (x->in_table && x->handle == handle && inc_not_zero(&x->base.weak))
			return x;
	return NULL;
}

int bc__proxy_get(bc_process *proc, uint32_t handle, bool strong, bc_binder **ret)
{
	struct bc_proxy *x, *fresh = NULL;

	if (!proc)
		return -ENODEV;
	pthread_mutex_lock(&proc->obj_mu);
	x = lookup_locked(proc, handle);
	pthread_mutex_unlock(&proc->obj_mu);
	if (!x) {
		/* Allocated unlocked; another thread may insert one meanwhile. */
		fresh = calloc(1, sizeof(*fresh));
		if (!fresh)
			return -ENOMEM;
		fresh->base.remote = true;
		atomic_init(&fresh->base.strong, 0);
		atomic_init(&fresh->base.weak, 1);
		atomic_init(&fresh->base.proc, proc);
		atomic_init(&fresh->dead, false);
		fresh->handle = handle;
		fresh->in_table = true;
		fresh->mem = 1;
		pthread_mutex_lock(&proc->obj_mu);
		x = lookup_locked(proc, handle);
		if (!x) {
			bc_process_ref(proc); /* the proxy's */
			fresh->proxy_next = proc->proxies;
			proc->proxies = fresh;
		}
		pthread_mutex_unlock(&proc->obj_mu);
		if (!x) {
			/* Ours: its weak count is new to the kernel. */
			x = fresh;
			fresh = NULL;
			kcmd_handle(x, BC_INCREFS, false);
		}
		free(fresh);
	}
	/* We hold a weak count now: it keeps the proxy while a strong one is
	 * taken (the strong era holds its own). */
	if (strong) {
		strong_inc(&x->base);
		bc__binder_weak_dec(&x->base);
	}
	*ret = &x->base;
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
		weak_inc(&l->base); /* a local object's: no command */
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
		l->k_strong_counted = inc_not_zero(&l->base.strong);
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
		strong_dec(&l->base);
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

void bc__process_release_objects(bc_process *proc)
{
	struct bc_proxy *left;

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
			strong_dec(&l->base);
		if (w)
			bc__binder_weak_dec(&l->base);
	}
	/* What is left are proxies waiting for BR_CLEAR_DEATH_NOTIFICATION_DONE
	 * or BR_CLEAR_FREEZE_NOTIFICATION_DONE (nothing else runs now). */
	pthread_mutex_lock(&proc->obj_mu);
	left = proc->proxies;
	proc->proxies = NULL;
	pthread_mutex_unlock(&proc->obj_mu);
	while (left) {
		struct bc_proxy *x = left;

		left = x->proxy_next;
		free_binder(&x->base);
	}
}

/* ---- death recipients ------------------------------------------------- */

int bc_binder_link_to_death(bc_binder *b, bc_death_fn fn, void *cookie)
{
	struct bc_death_reg *d;
	struct bc_proxy *x;
	bc_process *proc;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	proc = b->proc;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->fn = fn;
	d->cookie = cookie;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	if (atomic_load(&x->dead)) {
		pthread_mutex_unlock(&proc->obj_mu);
		free(d);
		return -EPIPE;
	}
	d->next = x->deaths;
	x->deaths = d;
	if (!x->death_requested) {
		x->death_requested = true;
		x->mem++;
		notify_cmd_locked(x, BC_REQUEST_DEATH_NOTIFICATION);
	}
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	return 0;
}

int bc_binder_unlink_to_death(bc_binder *b, bc_death_fn fn, void *cookie)
{
	struct bc_death_reg *found = NULL;
	struct bc_proxy *x;
	bc_process *proc;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	proc = b->proc;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	for (struct bc_death_reg **pp = &x->deaths; *pp; pp = &(*pp)->next) {
		if ((*pp)->fn == fn && (*pp)->cookie == cookie) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	if (found && !x->deaths && x->death_requested) {
		notify_cmd_locked(x, BC_CLEAR_DEATH_NOTIFICATION);
		x->death_requested = false;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	free(found);
	return found ? 0 : -ENOENT;
}

/* The proxy a death notification's cookie names (its base's address, see
 * notify_cmd_locked()). */
static struct bc_proxy *proxy_of(uintptr_t cookie)
{
	return cookie ? bc__proxy((bc_binder *)cookie) : NULL;
}

/* Its memory is safe: the death registration holds a memory count until
 * BR_CLEAR_DEATH_NOTIFICATION_DONE, which the driver sends only after
 * this notice's BC_DEAD_BINDER_DONE. */
void bc__proxy_dead(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = proxy_of(cookie);
	struct bc_death_reg *list;
	struct bc_frozen_reg *frozen;
	uint64_t c = cookie;

	if (!x)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 3);
	atomic_store(&x->dead, true);
	list = x->deaths;
	x->deaths = NULL;
	if (x->death_requested) {
		notify_cmd_locked(x, BC_CLEAR_DEATH_NOTIFICATION);
		x->death_requested = false;
	}
	/* Its watches end silently: the death recipients say why. */
	frozen_clear_locked(x);
	frozen = x->frozen_watches;
	x->frozen_watches = NULL;
	/* After the clear, as before the queue existed. */
	bc__oq_append_locked(proc, BC_DEAD_BINDER_DONE, &c, sizeof(c));
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	while (frozen) {
		struct bc_frozen_reg *f = frozen;

		frozen = f->next;
		free(f);
	}
	while (list) {
		struct bc_death_reg *d = list;

		list = d->next;
		d->fn(d->cookie);
		free(d);
	}
}

/* Drop a memory count of a proxy whose notification ended. */
static void proxy_mem_dec(bc_process *proc, struct bc_proxy *x)
{
	bool free_it = false;

	pthread_mutex_lock(&proc->obj_mu);
	if (--x->mem == 0) {
		unlink_proxy_locked(x);
		free_it = true;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	if (free_it)
		free_binder(&x->base);
}

void bc__proxy_clear_done(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = proxy_of(cookie);

	if (x)
		proxy_mem_dec(proc, x);
}

/* ---- frozen-state watches ---------------------------------------------- */

/*
 * The first watch on a proxy queues the driver's request and waits until
 * it was written: a driver before Linux 6.12 refuses it (EINVAL, an
 * unknown command; the proxy holds a live reference, so nothing else),
 * and the caller is told -EOPNOTSUPP.  Watches added while the request is
 * on its way wait for it too and share its outcome.
 */
int bc_binder_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *cookie)
{
	struct bc_frozen_reg *f;
	struct bc_proxy *x;
	bc_process *proc;
	uint64_t seq = 0;
	int r = 0;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	proc = b->proc;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->fn = fn;
	f->cookie = cookie;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	if (atomic_load(&x->dead)) {
		r = -EPIPE;
	} else {
		if (!x->frozen_requested) {
			/* One driver watch per proxy; the first state comes
			 * with it. */
			x->frozen_requested = true;
			x->mem++;
			x->freeze_req_seq = notify_cmd_locked(x, BC__BC_REQUEST_FREEZE_NOTIFICATION);
		}
		seq = x->freeze_req_seq;
		f->next = x->frozen_watches;
		x->frozen_watches = f;
		f = NULL;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	free(f);
	if (r < 0)
		return r;
	bc__oq_flush(proc, seq);
	pthread_mutex_lock(&proc->obj_mu);
	if (x->freeze_fail_seq == seq)
		r = -EOPNOTSUPP; /* its watches are gone with it */
	pthread_mutex_unlock(&proc->obj_mu);
	return r;
}

void bc__proxy_freeze_refused(bc_process *proc, uintptr_t cookie, uint64_t seq, int err)
{
	struct bc_proxy *x = proxy_of(cookie);
	struct bc_frozen_reg *watches = NULL;

	if (!x)
		return;
	bc__log("freeze notification refused: %d", err);
	pthread_mutex_lock(&proc->obj_mu);
	x->freeze_fail_seq = seq;
	/* Unless a clear already ended it (that clear fails too). */
	if (x->frozen_requested && x->freeze_req_seq == seq) {
		x->frozen_requested = false;
		x->frozen_known = false;
		watches = x->frozen_watches;
		x->frozen_watches = NULL;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	while (watches) {
		struct bc_frozen_reg *f = watches;

		watches = f->next;
		free(f);
	}
	/* the request's memory count: no clear will ever be done */
	proxy_mem_dec(proc, x);
}

int bc_binder_unwatch_frozen(bc_binder *b, bc_frozen_fn fn, void *cookie)
{
	struct bc_frozen_reg *found = NULL;
	struct bc_proxy *x;
	bc_process *proc;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	proc = b->proc;
	pthread_mutex_lock(&proc->obj_mu);
	bc__oq_reserve_locked(proc, 1);
	for (struct bc_frozen_reg **pp = &x->frozen_watches; *pp; pp = &(*pp)->next) {
		if ((*pp)->fn == fn && (*pp)->cookie == cookie) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	if (found && !x->frozen_watches)
		frozen_clear_locked(x);
	pthread_mutex_unlock(&proc->obj_mu);
	bc__oq_flush(proc, 0);
	free(found);
	return found ? 0 : -ENOENT;
}

int bc_binder_get_frozen(const bc_binder *b, bool *ret)
{
	struct bc_proxy *x;
	bc_process *proc;
	int r = -ENODATA;

	if (!b || !ret)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	proc = b->proc;
	pthread_mutex_lock(&proc->obj_mu);
	if (x->frozen_known) {
		*ret = x->is_frozen;
		r = 0;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	return r;
}

/* Copy up to @n watches of @x into @out (obj_mu held); returns how many. */
static size_t copy_watches_locked(const struct bc_proxy *x, struct bc_frozen_reg *out, size_t n)
{
	size_t i = 0;

	for (const struct bc_frozen_reg *f = x->frozen_watches; f && i < n; f = f->next)
		out[i++] = *f;
	return i;
}

/*
 * BR_FROZEN_BINDER for the proxy named by @cookie.  Its memory is safe: the
 * driver's watch holds a count on it until BR_CLEAR_FREEZE_NOTIFICATION_DONE,
 * which never comes before this notice's BC_FREEZE_NOTIFICATION_DONE.  The
 * watchers run without the lock, from a copy (allocated unlocked: counted
 * first, then filled with at most that many); the ack goes after them, so
 * changes meanwhile are merged by the driver rather than queued.
 */
void bc__proxy_frozen(bc_process *proc, uintptr_t cookie, bool is_frozen)
{
	struct bc_proxy *x = proxy_of(cookie);
	struct bc_frozen_reg *copy = NULL;
	uint64_t c = cookie;
	size_t n = 0;

	if (!x)
		return;
	pthread_mutex_lock(&proc->obj_mu);
	for (const struct bc_frozen_reg *f = x->frozen_watches; f; f = f->next)
		n++;
	pthread_mutex_unlock(&proc->obj_mu);
	if (n)
		copy = calloc(n, sizeof(*copy));
	pthread_mutex_lock(&proc->obj_mu);
	if (x->frozen_requested) {
		x->frozen_known = true;
		x->is_frozen = is_frozen;
		n = copy ? copy_watches_locked(x, copy, n) : 0;
	} else {
		n = 0;
	}
	pthread_mutex_unlock(&proc->obj_mu);
	for (size_t i = 0; i < n; i++)
		copy[i].fn(is_frozen, copy[i].cookie);
	free(copy);
	bc__ref_cmd(proc, BC__BC_FREEZE_NOTIFICATION_DONE, &c, sizeof(c), true);
}

/* ---- weak references -------------------------------------------------- */

int bc__binder_weak_take(bc_binder *b, bc_weak **ret)
{
	bc_weak *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	atomic_init(&w->refs, 1);
	w->b = b;
	*ret = w;
	return 0;
}

int bc_weak_new(bc_binder *b, bc_weak **ret)
{
	int r;

	if (!b || !ret)
		return -EINVAL;
	r = bc__binder_weak_take(b, ret);
	if (r == 0)
		weak_inc(b); /* the caller holds a count: no kernel command */
	return r;
}

static void weak_free(bc_weak *w)
{
	bc__binder_weak_dec(w->b);
	free(w);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_weak, bc_weak, weak_free);

int bc_weak_promote(bc_weak *w, bc_binder **ret)
{
	bc_binder *b;
	int r = 0;

	if (!w || !ret)
		return -EINVAL;
	b = w->b;
	if (b->remote) {
		/* the weak reference's count keeps the proxy revivable */
		if (atomic_load(&bc__proxy(b)->dead))
			r = -ESRCH;
		else
			strong_inc(b);
	} else if (!inc_not_zero(&b->strong)) {
		r = -ESRCH; /* destroyed */
	}
	if (r == 0)
		*ret = b;
	return r;
}
