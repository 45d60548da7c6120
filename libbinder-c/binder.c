/* SPDX-License-Identifier: MIT */
/*
 * Local objects and proxies: reference counts mirrored with the kernel,
 * one proxy per handle, weak references, death recipients, frozen-state
 * watches.
 *
 * All counts live under one mutex (bc__lock).  Commands that change the
 * kernel's counts (BC_ACQUIRE, ...) are written while it is held so that
 * their order matches the order of the count changes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

pthread_mutex_t bc__lock = PTHREAD_MUTEX_INITIALIZER;

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

static void kcmd_handle(struct bc_proxy *x, uint32_t cmd)
{
	uint32_t h = x->handle;
	int r = bc__cmd(x->base.proc, cmd, &h, sizeof(h));

	if (r < 0)
		bc__log("refcount command %#x on handle %u failed: %d", cmd, h, r);
}

static int death_cmd(struct bc_proxy *x, uint32_t cmd)
{
	struct binder_handle_cookie hc = { .handle = x->handle, .cookie = (uintptr_t)&x->base };

	return bc__cmd(x->base.proc, cmd, &hc, sizeof(hc));
}

/* End the proxy's freeze notification (its BR_CLEAR_FREEZE_NOTIFICATION_DONE
 * drops the memory count it holds).  Same cookie as death_cmd(): the
 * driver keeps the two kinds apart. */
static void frozen_clear_locked(struct bc_proxy *x)
{
	if (!x->frozen_requested)
		return;
	death_cmd(x, BC__BC_CLEAR_FREEZE_NOTIFICATION);
	x->frozen_requested = false;
	x->frozen_known = false;
}

static void weak_inc_locked(bc_binder *b)
{
	if (b->weak++ == 0 && b->remote)
		kcmd_handle(bc__proxy(b), BC_INCREFS);
}

static void strong_inc_locked(bc_binder *b)
{
	if (b->strong++ == 0) {
		weak_inc_locked(b);
		if (b->remote)
			kcmd_handle(bc__proxy(b), BC_ACQUIRE);
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

/* The last weak count of a proxy: leave the handle table and the kernel.
 * Returns whether the proxy may be freed (no death notification is still
 * to be cleared). */
static bool proxy_weak_zero_locked(struct bc_proxy *x)
{
	x->in_table = false;
	if (x->death_requested) {
		death_cmd(x, BC_CLEAR_DEATH_NOTIFICATION);
		x->death_requested = false;
	}
	frozen_clear_locked(x);
	kcmd_handle(x, BC_DECREFS);
	if (--x->mem != 0)
		return false;
	unlink_proxy_locked(x);
	return true;
}

/* Drop one weak count. */
void bc__binder_weak_dec(bc_binder *b)
{
	bc_process *unref_proc = NULL;
	bool free_it = false;

	pthread_mutex_lock(&bc__lock);
	if (--b->weak == 0) {
		if (!b->remote) {
			unlink_local_locked(bc__local(b));
			free_it = true;
		} else {
			/* the proxy's own reference on its process goes too */
			unref_proc = b->proc;
			free_it = proxy_weak_zero_locked(bc__proxy(b));
		}
	}
	pthread_mutex_unlock(&bc__lock);
	if (free_it)
		free_binder(b);
	bc_process_unref(unref_proc);
}

static void strong_dec(bc_binder *b)
{
	struct bc_local *destroy = NULL;
	bool zero = false;

	pthread_mutex_lock(&bc__lock);
	if (--b->strong == 0) {
		zero = true;
		if (b->remote) {
			kcmd_handle(bc__proxy(b), BC_RELEASE);
		} else if (!bc__local(b)->destroyed) {
			destroy = bc__local(b);
			destroy->destroyed = true;
		}
	}
	pthread_mutex_unlock(&bc__lock);
	if (destroy && destroy->cls->on_destroy)
		destroy->cls->on_destroy(destroy->userdata);
	if (zero)
		bc__binder_weak_dec(b);
}

/* Whether @b can take a strong reference again: a local object until it
 * is destroyed, a proxy while it is in the handle table. */
static bool revivable_locked(const bc_binder *b)
{
	return b->remote ? b->weak != 0 : !bc__local(b)->destroyed;
}

bool bc__binder_strong_inc(bc_binder *b)
{
	bool ok;

	pthread_mutex_lock(&bc__lock);
	ok = revivable_locked(b);
	if (ok)
		strong_inc_locked(b);
	pthread_mutex_unlock(&bc__lock);
	return ok;
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
	l->base.strong = 1;
	l->base.weak = 1;
	*ret = &l->base;
	return 0;
}

bc_binder *bc_binder_ref(bc_binder *b)
{
	if (b) {
		pthread_mutex_lock(&bc__lock);
		strong_inc_locked(b);
		pthread_mutex_unlock(&bc__lock);
	}
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

void bc__binder_set_stability_raw(bc_binder *b, int level)
{
	b->stability = level;
}

bool bc_binder_is_alive(const bc_binder *b)
{
	bool alive;

	if (!b)
		return false;
	pthread_mutex_lock(&bc__lock);
	alive = b->remote ? !bc__proxy(b)->dead : !bc__local(b)->destroyed;
	pthread_mutex_unlock(&bc__lock);
	return alive;
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
	int r = 0;

	if (p->n_binders == 0)
		return 0;
	pthread_mutex_lock(&bc__lock);
	for (size_t i = 0; i < p->n_binders && r == 0; i++) {
		bc_binder *b = p->binders[i];

		if (!b->remote && !b->proc)
			b->proc = proc;
		else if (b->proc != proc)
			r = -EXDEV;
	}
	pthread_mutex_unlock(&bc__lock);
	return r;
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
	if (!b || (flags & ~BINDERC_FLAG_ONEWAY))
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
		pthread_mutex_lock(&bc__lock);
		weak_inc_locked(&l->base);
		pthread_mutex_unlock(&bc__lock);
	}
	*ret = &l->base;
	return 0;
}

int bc__proxy_get(bc_process *proc, uint32_t handle, bool strong, bc_binder **ret)
{
	struct bc_proxy *x;

	if (!proc)
		return -ENODEV;
	pthread_mutex_lock(&bc__lock);
	for (x = proc->proxies; x; x = x->proxy_next)
		if (x->in_table && x->handle == handle)
			break;
	if (!x) {
		x = calloc(1, sizeof(*x));
		if (!x) {
			pthread_mutex_unlock(&bc__lock);
			return -ENOMEM;
		}
		x->base.remote = true;
		x->base.proc = bc_process_ref(proc);
		x->handle = handle;
		x->in_table = true;
		x->mem = 1;
		x->proxy_next = proc->proxies;
		proc->proxies = x;
	}
	if (strong)
		strong_inc_locked(&x->base);
	else
		weak_inc_locked(&x->base);
	pthread_mutex_unlock(&bc__lock);
	*ret = &x->base;
	return 0;
}

static void bind_locked(bc_process *proc, struct bc_local *l)
{
	if (!l->bound) {
		l->base.proc = proc;
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
	pthread_mutex_lock(&bc__lock);
	if (!l->k_weak) {
		l->k_weak = true;
		weak_inc_locked(&l->base);
		bind_locked(proc, l);
	}
	pthread_mutex_unlock(&bc__lock);
}

void bc__local_acquire(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);

	if (!l)
		return;
	pthread_mutex_lock(&bc__lock);
	if (!l->k_strong) {
		l->k_strong = true;
		bind_locked(proc, l);
		if (!l->destroyed) {
			strong_inc_locked(&l->base);
			l->k_strong_counted = true;
		}
	}
	pthread_mutex_unlock(&bc__lock);
}

void bc__local_release(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);
	bool counted = false;

	(void)proc;
	if (!l)
		return;
	pthread_mutex_lock(&bc__lock);
	if (l->k_strong) {
		l->k_strong = false;
		counted = l->k_strong_counted;
		l->k_strong_counted = false;
		if (!l->k_weak)
			unlink_local_locked(l);
	}
	pthread_mutex_unlock(&bc__lock);
	if (counted)
		strong_dec(&l->base);
}

void bc__local_decrefs(bc_process *proc, uintptr_t ptr, uintptr_t cookie)
{
	struct bc_local *l = local_of(ptr, cookie);
	bool had = false;

	(void)proc;
	if (!l)
		return;
	pthread_mutex_lock(&bc__lock);
	if (l->k_weak) {
		l->k_weak = false;
		had = true;
		if (!l->k_strong)
			unlink_local_locked(l);
	}
	pthread_mutex_unlock(&bc__lock);
	if (had)
		bc__binder_weak_dec(&l->base);
}

void bc__process_release_objects(bc_process *proc)
{
	for (;;) {
		struct bc_local *l;
		bool s, w;

		pthread_mutex_lock(&bc__lock);
		l = proc->locals;
		if (!l) {
			pthread_mutex_unlock(&bc__lock);
			break;
		}
		proc->locals = l->bound_next;
		l->bound = false;
		s = l->k_strong && l->k_strong_counted;
		w = l->k_weak;
		l->k_strong = l->k_strong_counted = l->k_weak = false;
		pthread_mutex_unlock(&bc__lock);
		if (s)
			strong_dec(&l->base);
		if (w)
			bc__binder_weak_dec(&l->base);
	}
	/* What is left are proxies waiting for BR_CLEAR_DEATH_NOTIFICATION_DONE
	 * or BR_CLEAR_FREEZE_NOTIFICATION_DONE. */
	pthread_mutex_lock(&bc__lock);
	while (proc->proxies) {
		struct bc_proxy *x = proc->proxies;

		proc->proxies = x->proxy_next;
		free_binder(&x->base);
	}
	pthread_mutex_unlock(&bc__lock);
}

/* ---- death recipients ------------------------------------------------- */

int bc_binder_link_to_death(bc_binder *b, bc_death_fn fn, void *cookie)
{
	struct bc_death_reg *d;
	struct bc_proxy *x;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->fn = fn;
	d->cookie = cookie;
	pthread_mutex_lock(&bc__lock);
	if (x->dead) {
		pthread_mutex_unlock(&bc__lock);
		free(d);
		return -EPIPE;
	}
	d->next = x->deaths;
	x->deaths = d;
	if (!x->death_requested) {
		x->death_requested = true;
		x->mem++;
		death_cmd(x, BC_REQUEST_DEATH_NOTIFICATION);
	}
	pthread_mutex_unlock(&bc__lock);
	return 0;
}

int bc_binder_unlink_to_death(bc_binder *b, bc_death_fn fn, void *cookie)
{
	struct bc_death_reg *found = NULL;
	struct bc_proxy *x;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	pthread_mutex_lock(&bc__lock);
	for (struct bc_death_reg **pp = &x->deaths; *pp; pp = &(*pp)->next) {
		if ((*pp)->fn == fn && (*pp)->cookie == cookie) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	if (found && !x->deaths && x->death_requested) {
		death_cmd(x, BC_CLEAR_DEATH_NOTIFICATION);
		x->death_requested = false;
	}
	pthread_mutex_unlock(&bc__lock);
	free(found);
	return found ? 0 : -ENOENT;
}

/* The proxy a death notification's cookie names (its base's address, see
 * death_cmd()). */
static struct bc_proxy *proxy_of(uintptr_t cookie)
{
	return cookie ? bc__proxy((bc_binder *)cookie) : NULL;
}

void bc__proxy_dead(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = proxy_of(cookie);
	struct bc_death_reg *list;
	struct bc_frozen_reg *frozen;
	uint64_t c = cookie;

	if (!x)
		return;
	pthread_mutex_lock(&bc__lock);
	x->dead = true;
	list = x->deaths;
	x->deaths = NULL;
	if (x->death_requested) {
		death_cmd(x, BC_CLEAR_DEATH_NOTIFICATION);
		x->death_requested = false;
	}
	/* Its watches end silently: the death recipients say why. */
	frozen_clear_locked(x);
	frozen = x->frozen_watches;
	x->frozen_watches = NULL;
	pthread_mutex_unlock(&bc__lock);
	while (frozen) {
		struct bc_frozen_reg *f = frozen;

		frozen = f->next;
		free(f);
	}
	bc__cmd(proc, BC_DEAD_BINDER_DONE, &c, sizeof(c));
	while (list) {
		struct bc_death_reg *d = list;

		list = d->next;
		d->fn(d->cookie);
		free(d);
	}
}

void bc__proxy_clear_done(bc_process *proc, uintptr_t cookie)
{
	struct bc_proxy *x = proxy_of(cookie);
	bool free_it = false;

	(void)proc;
	if (!x)
		return;
	pthread_mutex_lock(&bc__lock);
	if (--x->mem == 0) {
		unlink_proxy_locked(x);
		free_it = true;
	}
	pthread_mutex_unlock(&bc__lock);
	if (free_it)
		free_binder(&x->base);
}

/* ---- frozen-state watches ---------------------------------------------- */

int bc_binder_watch_frozen(bc_binder *b, bc_frozen_fn fn, void *cookie)
{
	struct bc_frozen_reg *f;
	struct bc_proxy *x;
	int r = 0;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->fn = fn;
	f->cookie = cookie;
	pthread_mutex_lock(&bc__lock);
	if (x->dead) {
		r = -EPIPE;
	} else if (!x->frozen_requested) {
		/* One driver watch per proxy; the first state comes with it. */
		r = death_cmd(x, BC__BC_REQUEST_FREEZE_NOTIFICATION);
		/* The proxy holds a live ref, so EINVAL is an unknown command. */
		if (r == -EINVAL)
			r = -EOPNOTSUPP;
		if (r == 0) {
			x->frozen_requested = true;
			x->mem++;
		}
	}
	if (r == 0) {
		f->next = x->frozen_watches;
		x->frozen_watches = f;
		f = NULL;
	}
	pthread_mutex_unlock(&bc__lock);
	free(f);
	return r;
}

int bc_binder_unwatch_frozen(bc_binder *b, bc_frozen_fn fn, void *cookie)
{
	struct bc_frozen_reg *found = NULL;
	struct bc_proxy *x;

	if (!b || !fn)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	pthread_mutex_lock(&bc__lock);
	for (struct bc_frozen_reg **pp = &x->frozen_watches; *pp; pp = &(*pp)->next) {
		if ((*pp)->fn == fn && (*pp)->cookie == cookie) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	if (found && !x->frozen_watches)
		frozen_clear_locked(x);
	pthread_mutex_unlock(&bc__lock);
	free(found);
	return found ? 0 : -ENOENT;
}

int bc_binder_get_frozen(const bc_binder *b, bool *ret)
{
	struct bc_proxy *x;
	int r = -ENODATA;

	if (!b || !ret)
		return -EINVAL;
	if (!b->remote)
		return -ENOSYS;
	x = bc__proxy(b);
	pthread_mutex_lock(&bc__lock);
	if (x->frozen_known) {
		*ret = x->is_frozen;
		r = 0;
	}
	pthread_mutex_unlock(&bc__lock);
	return r;
}

/*
 * BR_FROZEN_BINDER for the proxy named by @cookie.  Its memory is safe: the
 * driver's watch holds a count on it until BR_CLEAR_FREEZE_NOTIFICATION_DONE,
 * which never comes before this notice's BC_FREEZE_NOTIFICATION_DONE.  The
 * watchers run without the lock, from a copy; the ack goes after them, so
 * changes meanwhile are merged by the driver rather than queued.
 */
void bc__proxy_frozen(bc_process *proc, uintptr_t cookie, bool is_frozen)
{
	struct bc_proxy *x = proxy_of(cookie);
	struct bc_frozen_reg *copy = NULL, **tail = &copy;
	uint64_t c = cookie;

	if (!x)
		return;
	pthread_mutex_lock(&bc__lock);
	if (x->frozen_requested) {
		x->frozen_known = true;
		x->is_frozen = is_frozen;
		for (struct bc_frozen_reg *f = x->frozen_watches; f; f = f->next) {
			struct bc_frozen_reg *n = malloc(sizeof(*n));

			if (!n)
				break;
			*n = *f;
			n->next = NULL;
			*tail = n;
			tail = &n->next;
		}
	}
	pthread_mutex_unlock(&bc__lock);
	while (copy) {
		struct bc_frozen_reg *f = copy;

		copy = f->next;
		f->fn(is_frozen, f->cookie);
		free(f);
	}
	bc__cmd(proc, BC__BC_FREEZE_NOTIFICATION_DONE, &c, sizeof(c));
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
	if (r == 0) {
		pthread_mutex_lock(&bc__lock);
		weak_inc_locked(b);
		pthread_mutex_unlock(&bc__lock);
	}
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
	pthread_mutex_lock(&bc__lock);
	if (b->remote ? bc__proxy(b)->dead : bc__local(b)->destroyed)
		r = -ESRCH;
	else
		strong_inc_locked(b);
	pthread_mutex_unlock(&bc__lock);
	if (r == 0)
		*ret = b;
	return r;
}
