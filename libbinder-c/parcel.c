/* SPDX-License-Identifier: MIT */
/*
 * Parcels: Android's binder wire format, written and read bounds-checked.
 * This file has the parcel's life (allocation, kernel buffers, freeing) and
 * the wire-dialect table; see parcel_internal.h for the others.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parcel_internal.h"

/* ---- wire dialects ------------------------------------------------------
 * Everything that differs between the dialects of enum bc_wire, looked up
 * once when a parcel gets its dialect: readers and writers test a field of
 * the description instead of comparing release numbers. */

#define POLICY_PRE_12 0x00400000u /* 0x40 << 16 */
#define POLICY_12 0x80000000u     /* 1 << 31 */

/* Indexed by dialect, so that a kernel parcel finds its own in one step. */
#define WIRE_FIRST BINDERC_WIRE_ANDROID_9
static const struct bc_wire_proto wire_protos[] = {
	[BINDERC_WIRE_ANDROID_9 - WIRE_FIRST] = { BINDERC_WIRE_ANDROID_9, POLICY_PRE_12, false, false, STABILITY_NONE },
	[BINDERC_WIRE_ANDROID_10 - WIRE_FIRST] = { BINDERC_WIRE_ANDROID_10, POLICY_PRE_12, true, false, STABILITY_NONE },
	[BINDERC_WIRE_ANDROID_11 - WIRE_FIRST] = { BINDERC_WIRE_ANDROID_11, POLICY_PRE_12, true, true, STABILITY_LEVEL },
	[BINDERC_WIRE_ANDROID_12 - WIRE_FIRST] = { BINDERC_WIRE_ANDROID_12, POLICY_12, true, true, STABILITY_CATEGORY },
	[BINDERC_WIRE_ANDROID_13 - WIRE_FIRST] = { BINDERC_WIRE_ANDROID_13, POLICY_12, true, true, STABILITY_LEVEL },
};

const struct bc_wire_proto *bc__wire_proto(int wire)
{
	if (wire < WIRE_FIRST || (size_t)(wire - WIRE_FIRST) >= sizeof(wire_protos) / sizeof(wire_protos[0]))
		return NULL;
	return &wire_protos[wire - WIRE_FIRST];
}

/* ---- allocation ----------------------------------------------------------
 * Each thread keeps the last two parcels it freed (a call's request and
 * reply, or a handler's request), with a written parcel's data buffer if it
 * is small, so that a steady stream of calls allocates nothing.  A thread's
 * cache is freed when it exits. */
#define PARCEL_CACHE 2
#define CACHED_BUF_MAX 1024u

struct parcel_cache {
	bc_parcel *p[PARCEL_CACHE];
	size_t n;
	bool registered;
};

static _Thread_local struct parcel_cache cache;
static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static bool cache_usable;

static void cache_drop(void *arg)
{
	struct parcel_cache *c = arg;

	/* Parcels freed by later destructors register the cache again. */
	c->registered = false;
	while (c->n) {
		bc_parcel *p = c->p[--c->n];

		free(p->data);
		free(p);
	}
}

static void cache_key_make(void)
{
	cache_usable = pthread_key_create(&cache_key, cache_drop) == 0;
}

/* Keep @p (no references, fds, objects or kernel buffer left) or free it. */
static void cache_put(bc_parcel *p)
{
	struct parcel_cache *c = &cache;

	free(p->offs);
	if (p->cap > CACHED_BUF_MAX) {
		free(p->data);
		p->data = NULL;
		p->cap = 0;
	}
	if (!c->registered) {
		pthread_once(&cache_once, cache_key_make);
		c->registered = cache_usable && pthread_setspecific(cache_key, c) == 0;
	}
	if (!c->registered || c->n == PARCEL_CACHE) {
		free(p->data);
		free(p);
		return;
	}
	c->p[c->n++] = p;
}

/* A new empty parcel; with a cached data buffer when @buffer (one the
 * caller will write), else without one. */
static bc_parcel *parcel_alloc(bool buffer)
{
	struct parcel_cache *c = &cache;
	uint8_t *data = NULL;
	size_t cap = 0, i;
	bc_parcel *p;

	if (c->n == 0)
		return calloc(1, sizeof(*p));
	/* The most recent one whose buffer state matches, else the most recent. */
	for (i = c->n; i > 1 && (c->p[i - 1]->cap != 0) != buffer; i--)
		;
	p = c->p[i - 1];
	c->p[i - 1] = c->p[--c->n];
	if (buffer) {
		data = p->data;
		cap = p->cap;
	} else {
		free(p->data);
	}
	memset(p, 0, sizeof(*p));
	p->data = data;
	p->cap = cap;
	return p;
}

static int parcel_new(bool buffer, bc_parcel **ret)
{
	bc_parcel *p = parcel_alloc(buffer);

	if (!p)
		return -ENOMEM;
	atomic_init(&p->refs, 1);
	p->proto = bc__wire_proto(BINDERC_WIRE_DEFAULT);
	p->partition = BINDERC_PARTITION_SYSTEM;
	*ret = p;
	return 0;
}

int bc_parcel_new(bc_parcel **ret)
{
	if (!ret)
		return -EINVAL;
	return parcel_new(true, ret);
}

/* memset through a volatile pointer: a store to memory about to be freed
 * is otherwise dead, and the compiler may drop it. */
static void *(*const volatile wipe_fn)(void *, int, size_t) = memset;

void bc__wipe(void *p, size_t n)
{
	if (p && n)
		wipe_fn(p, 0, n);
}

void bc_parcel_mark_sensitive(bc_parcel *p)
{
	if (p)
		p->flags |= BINDERC_PARCEL_SENSITIVE;
}

static bool valid_object_type(uint32_t t)
{
	return t == BINDER_TYPE_BINDER || t == BINDER_TYPE_WEAK_BINDER || t == BINDER_TYPE_HANDLE ||
	       t == BINDER_TYPE_WEAK_HANDLE || t == BINDER_TYPE_FD;
}

static int check_offsets(const uint8_t *data, size_t size, const uint64_t *offs, size_t n)
{
	uint64_t next = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t type;

		if (offs[i] < next || (offs[i] & 3) || offs[i] > size || size - offs[i] < BINDERC_OBJ_SIZE)
			return -EINVAL;
		memcpy(&type, data + offs[i], sizeof(type));
		if (!valid_object_type(type))
			return -EINVAL;
		next = offs[i] + BINDERC_OBJ_SIZE;
	}
	return 0;
}

int bc_parcel_new_from_data(const void *data, size_t size, const uint64_t *offsets, size_t n_offsets,
			    bc_parcel **ret)
{
	bc_parcel *p;
	int r;

	if (!ret || (size && !data) || (n_offsets && !offsets) || size > MAX_LEN)
		return -EINVAL;
	r = check_offsets(data, size, offsets, n_offsets);
	if (r < 0)
		return r;
	r = parcel_new(false, &p);
	if (r < 0)
		return r;
	p->flags = BINDERC_PARCEL_READONLY;
	p->data = malloc(size ? size : 1);
	p->offs = malloc(n_offsets ? n_offsets * sizeof(uint64_t) : 1);
	if (!p->data || !p->offs) {
		bc_parcel_unref(p);
		return -ENOMEM;
	}
	if (size)
		memcpy(p->data, data, size);
	if (n_offsets)
		memcpy(p->offs, offsets, n_offsets * sizeof(uint64_t));
	p->size = p->cap = size;
	p->n_offs = p->cap_offs = n_offsets;
	*ret = p;
	return 0;
}

int bc__parcel_from_kernel(bc_process *proc, const struct binder_transaction_data *tr, bc_parcel **ret)
{
	bc_parcel *p;
	int r;

	r = parcel_new(false, &p);
	if (r < 0)
		return r;
	p->flags = BINDERC_PARCEL_READONLY | BINDERC_PARCEL_KERNEL;
	p->proc = bc_process_ref(proc);
	/* bc_process_set_wire() accepted only what bc_parcel_set_wire() does. */
	p->proto = bc__wire_proto(proc->wire);
	p->partition = proc->partition;
	p->kbuf = (uintptr_t)tr->data.ptr.buffer;
	p->data = (uint8_t *)(uintptr_t)tr->data.ptr.buffer;
	p->size = tr->data_size;
	p->offs = (uint64_t *)(uintptr_t)tr->data.ptr.offsets;
	p->n_offs = tr->offsets_size / sizeof(uint64_t);
	r = check_offsets(p->data, p->size, p->offs, p->n_offs);
	if (r == 0) {
		/* The kernel installed every fd object for us: the parcel owns them. */
		for (size_t i = 0; i < p->n_offs; i++) {
			struct binder_fd_object fo;

			memcpy(&fo, p->data + p->offs[i], sizeof(fo));
			if (fo.hdr.type != BINDER_TYPE_FD)
				continue;
			if (grow((void **)&p->fds, &p->cap_fds, p->n_fds + 1, sizeof(int)) < 0) {
				close((int)fo.fd);
				continue;
			}
			p->fds[p->n_fds++] = (int)fo.fd;
		}
	}
	*ret = p;
	return r < 0 ? -EBADMSG : 0;
}

/* A reply this small without objects holds no references in the kernel and
 * next to no space in the mapping: its buffer may be freed with the next
 * write instead of by an ioctl of its own. */
#define DEFER_FREE_MAX 512u

static void parcel_free(bc_parcel *p, struct bc_thread *t)
{
	for (size_t i = 0; i < p->n_fds; i++)
		close(p->fds[i]);
	free(p->fds);
	for (size_t i = 0; i < p->n_binders; i++)
		bc_binder_unref(p->binders[i]);
	free(p->binders);
	if (p->rpc)
		bc__rpc_parcel_release(p);
	/* A driver buffer is read-only to us; the driver clears it itself
	 * (TF_CLEAR_BUF).  Our own buffers are cleared before they are cached
	 * or freed. */
	if ((p->flags & BINDERC_PARCEL_SENSITIVE) && !(p->flags & BINDERC_PARCEL_KERNEL))
		bc__wipe(p->data, p->cap);
	if (p->flags & BINDERC_PARCEL_KERNEL) {
		if (t)
			bc__thread_queue_free(t, p->kbuf);
		else
			bc__free_buffer(p->proc, p->kbuf,
					(p->flags & BINDERC_PARCEL_REPLY) && p->n_offs == 0 && p->size <= DEFER_FREE_MAX);
		bc_process_unref(p->proc);
		/* The data and offsets are the kernel's. */
		p->data = NULL;
		p->offs = NULL;
		p->cap = 0;
	} else if (p->flags & BINDERC_PARCEL_READONLY) {
		/* A copy (bc_parcel_new_from_data): exact size, not for reuse. */
		free(p->data);
		p->data = NULL;
		p->cap = 0;
	}
	cache_put(p);
}

bool bc__parcel_recycle(bc_parcel *p)
{
	if (atomic_load(&p->refs) != 1 ||
	    (p->flags & (BINDERC_PARCEL_READONLY | BINDERC_PARCEL_KERNEL | BINDERC_PARCEL_SENSITIVE)) || p->n_fds ||
	    p->n_binders || p->cap > 4096)
		return false;
	p->size = p->pos = 0;
	p->n_offs = 0;
	return true;
}

/* The public unref frees at once; only the IPC loop defers the buffer
 * (bc__parcel_unref_queued, below). */
static void parcel_free_now(bc_parcel *p)
{
	parcel_free(p, NULL);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_parcel, bc_parcel, parcel_free_now);

void bc__parcel_unref_queued(bc_parcel *p, struct bc_thread *t)
{
	if (p && atomic_fetch_sub(&p->refs, 1) == 1)
		parcel_free(p, t);
}

int bc_parcel_set_wire(bc_parcel *p, int wire, int partition)
{
	const struct bc_wire_proto *proto = bc__wire_proto(wire);

	if (!p || !proto || (partition != BINDERC_PARTITION_SYSTEM && partition != BINDERC_PARTITION_VENDOR))
		return -EINVAL;
	p->proto = proto;
	p->partition = partition;
	return 0;
}

int bc_parcel_get_wire(const bc_parcel *p)
{
	return p ? p->proto->wire : -EINVAL;
}

const void *bc_parcel_data(const bc_parcel *p)
{
	return p ? p->data : NULL;
}

size_t bc_parcel_size(const bc_parcel *p)
{
	return p ? p->size : 0;
}

const uint64_t *bc_parcel_offsets(const bc_parcel *p, size_t *ret_n)
{
	if (ret_n)
		*ret_n = p ? p->n_offs : 0;
	return p ? p->offs : NULL;
}

size_t bc_parcel_get_position(const bc_parcel *p)
{
	return p ? p->pos : 0;
}

int bc_parcel_set_position(bc_parcel *p, size_t pos)
{
	if (!p || pos > p->size || (pos & 3))
		return -EINVAL;
	p->pos = pos;
	return 0;
}

size_t bc_parcel_remaining(const bc_parcel *p)
{
	return p && p->pos < p->size ? p->size - p->pos : 0;
}
