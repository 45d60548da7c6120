/* SPDX-License-Identifier: MIT */
/* Parcels: Android's binder wire format, written and read bounds-checked. */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define PAD4(n) (((n) + 3u) & ~(size_t)3u)
#define MAX_LEN ((size_t)INT32_MAX)

/* Room for @need elements of @elem bytes; the first allocation has at
 * least @min. */
static int grow_min(void **buf, size_t *cap, size_t need, size_t elem, size_t min)
{
	size_t c = *cap ? *cap : min;
	void *nb;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		c *= 2;
	}
	nb = realloc(*buf, c * elem);
	if (!nb)
		return -ENOMEM;
	*buf = nb;
	*cap = c;
	return 0;
}

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	return grow_min(buf, cap, need, elem, 8);
}

/* ---- wire dialects ------------------------------------------------------
 * Everything that differs between the dialects of enum bc_wire, looked up
 * once when a parcel gets its dialect: readers and writers test a field of
 * the description instead of comparing release numbers. */

/* Form of the word written after every binder object (Android 11+). */
enum wire_stability {
	STABILITY_NONE,     /* no word */
	STABILITY_LEVEL,    /* the level itself */
	STABILITY_CATEGORY, /* Category: version 1 in the low byte, level in the high byte */
};

struct bc_wire_proto {
	int wire;                      /* enum bc_wire */
	uint32_t policy;               /* strict-mode policy word opening an interface token */
	bool work_source;              /* then an int32 work-source uid (-1) */
	bool partition_header;         /* then 'SYST' or 'VNDR' */
	enum wire_stability stability; /* after each binder object */
};

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

/* The header word that follows the work source (Android 11+). */
static uint32_t partition_header(const bc_parcel *p)
{
	return p->partition == BINDERC_PARTITION_VENDOR ? BINDERC_HEADER_VNDR : BINDERC_HEADER_SYST;
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
	if (atomic_load(&p->refs) != 1 || (p->flags & (BINDERC_PARCEL_READONLY | BINDERC_PARCEL_KERNEL)) || p->n_fds ||
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

/* ---- writing ---------------------------------------------------------- */

/* Reserve @len bytes (padded to 4, zeroed padding) at the end. */
static int reserve(bc_parcel *p, size_t len, uint8_t **ret)
{
	size_t padded;
	int r;

	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	if (len > MAX_LEN || p->size + PAD4(len) > MAX_LEN)
		return -ENOMEM;
	padded = PAD4(len);
	/* A typical call's data (interface token, a few values) fits the
	 * first allocation. */
	r = grow_min((void **)&p->data, &p->cap, p->size + padded, 1, 128);
	if (r < 0)
		return r;
	*ret = p->data + p->size;
	memset(*ret + len, 0, padded - len);
	p->size += padded;
	return 0;
}

static int put(bc_parcel *p, const void *v, size_t len)
{
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	r = reserve(p, len, &d);
	if (r == 0 && len)
		memcpy(d, v, len);
	return r;
}

int bc_parcel_write_int32(bc_parcel *p, int32_t v) { return put(p, &v, 4); }
int bc_parcel_write_uint32(bc_parcel *p, uint32_t v) { return put(p, &v, 4); }
int bc_parcel_write_int64(bc_parcel *p, int64_t v) { return put(p, &v, 8); }
int bc_parcel_write_uint64(bc_parcel *p, uint64_t v) { return put(p, &v, 8); }
int bc_parcel_write_bool(bc_parcel *p, bool v) { return bc_parcel_write_int32(p, v ? 1 : 0); }
int bc_parcel_write_char(bc_parcel *p, uint16_t v) { return bc_parcel_write_int32(p, v); }
int bc_parcel_write_byte(bc_parcel *p, int8_t v) { return bc_parcel_write_int32(p, v); }
int bc_parcel_write_float(bc_parcel *p, float v) { return put(p, &v, 4); }
int bc_parcel_write_double(bc_parcel *p, double v) { return put(p, &v, 8); }

int bc_parcel_write_raw(bc_parcel *p, const void *data, size_t len)
{
	if (len && !data)
		return -EINVAL;
	return put(p, data, len);
}

/* Roll back a partially written item. */
static void truncate_to(bc_parcel *p, size_t size)
{
	p->size = size;
}

int bc_parcel_write_string16_utf16(bc_parcel *p, const uint16_t *s, size_t len)
{
	size_t start;
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!s)
		return bc_parcel_write_int32(p, -1);
	if (len >= MAX_LEN / 2)
		return -EINVAL;
	start = p->size;
	r = bc_parcel_write_int32(p, (int32_t)len);
	if (r < 0)
		return r;
	r = reserve(p, (len + 1) * 2, &d);
	if (r < 0) {
		truncate_to(p, start);
		return r;
	}
	memcpy(d, s, len * 2);
	memset(d + len * 2, 0, 2);
	return 0;
}

/* Write ASCII @s as String16 units in one pass; false (and nothing
 * written) at the first byte outside ASCII. */
static bool put_ascii16(bc_parcel *p, const char *s, size_t len, int *ret)
{
	size_t start = p->size;
	uint8_t *d;
	int r;

	r = bc_parcel_write_int32(p, (int32_t)len);
	if (r == 0)
		r = reserve(p, (len + 1) * 2, &d);
	if (r < 0) {
		truncate_to(p, start);
		*ret = r;
		return true;
	}
	for (size_t i = 0; i < len; i++) {
		uint16_t u = (unsigned char)s[i];

		if (u >= 0x80) {
			truncate_to(p, start);
			return false;
		}
		memcpy(d + i * 2, &u, 2);
	}
	memset(d + len * 2, 0, 2);
	*ret = 0;
	return true;
}

int bc_parcel_write_string16_len(bc_parcel *p, const char *utf8, size_t len)
{
	uint16_t stack[64], *tmp;
	ssize_t n;
	size_t start;
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!utf8)
		return bc_parcel_write_int32(p, -1);
	if (len >= MAX_LEN / 2)
		return -EINVAL;
	/* ASCII (descriptors, most names) is one unit a byte: no counting pass. */
	if (put_ascii16(p, utf8, len, &r))
		return r;
	n = bc__utf8_to_utf16(utf8, len, NULL);
	if (n < 0)
		return (int)n;
	start = p->size;
	r = bc_parcel_write_int32(p, (int32_t)n);
	if (r < 0)
		return r;
	r = reserve(p, ((size_t)n + 1) * 2, &d);
	if (r < 0) {
		truncate_to(p, start);
		return r;
	}
	/* d may be unaligned for uint16_t in theory; convert via a temp. */
	tmp = (size_t)n < sizeof(stack) / sizeof(stack[0]) ? stack : malloc(((size_t)n + 1) * 2);
	if (!tmp) {
		truncate_to(p, start);
		return -ENOMEM;
	}
	bc__utf8_to_utf16(utf8, len, tmp);
	tmp[n] = 0;
	memcpy(d, tmp, ((size_t)n + 1) * 2);
	if (tmp != stack)
		free(tmp);
	return 0;
}

int bc_parcel_write_string16(bc_parcel *p, const char *utf8)
{
	return bc_parcel_write_string16_len(p, utf8, utf8 ? strlen(utf8) : 0);
}

int bc_parcel_write_string8_len(bc_parcel *p, const char *s, size_t len)
{
	size_t start;
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!s)
		return bc_parcel_write_int32(p, -1);
	if (len >= MAX_LEN)
		return -EINVAL;
	start = p->size;
	r = bc_parcel_write_int32(p, (int32_t)len);
	if (r < 0)
		return r;
	r = reserve(p, len + 1, &d);
	if (r < 0) {
		truncate_to(p, start);
		return r;
	}
	memcpy(d, s, len);
	d[len] = 0;
	return 0;
}

int bc_parcel_write_string8(bc_parcel *p, const char *s)
{
	return bc_parcel_write_string8_len(p, s, s ? strlen(s) : 0);
}

int bc_parcel_write_byte_array(bc_parcel *p, const void *data, size_t len)
{
	size_t start;
	uint8_t *d;
	int r;

	if (!p)
		return -EINVAL;
	if (!data)
		return bc_parcel_write_int32(p, -1);
	if (len > MAX_LEN)
		return -EINVAL;
	start = p->size;
	r = bc_parcel_write_int32(p, (int32_t)len);
	if (r < 0)
		return r;
	r = reserve(p, len, &d);
	if (r < 0) {
		truncate_to(p, start);
		return r;
	}
	if (len)
		memcpy(d, data, len);
	return 0;
}

/* ---- typed arrays ------------------------------------------------------- */

/* How the elements of a typed array sit on the wire: copied as they are
 * (4- or 8-byte values), or widened to int32 (bool, char). */
enum elem_kind { ELEM_RAW, ELEM_BOOL, ELEM_CHAR };

static size_t elem_wire_size(enum elem_kind kind, size_t csize)
{
	return kind == ELEM_RAW ? csize : 4;
}

/* An array's count: -1 for a null @v (returns 1: nothing follows), else
 * @n; *@start is where the array began, for truncate_to() on failure. */
static int write_array_count(bc_parcel *p, const void *v, size_t n, size_t *start)
{
	int r;

	if (!p)
		return -EINVAL;
	*start = p->size;
	if (!v) {
		r = bc_parcel_write_int32(p, -1);
		return r < 0 ? r : 1;
	}
	if (n > MAX_LEN / 8)
		return -EINVAL;
	return bc_parcel_write_int32(p, (int32_t)n);
}

/* Count, then the @n elements of @v (@csize bytes each in memory). */
static int write_array(bc_parcel *p, const void *v, size_t n, size_t csize, enum elem_kind kind)
{
	size_t start = 0, wsize = elem_wire_size(kind, csize);
	uint8_t *d;
	int r = write_array_count(p, v, n, &start);

	if (r == 1)
		return 0;
	if (r == 0)
		r = reserve(p, n * wsize, &d);
	if (r < 0) {
		truncate_to(p, start);
		return r;
	}
	if (kind == ELEM_RAW) {
		if (n)
			memcpy(d, v, n * wsize);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int32_t w = kind == ELEM_BOOL ? (((const bool *)v)[i] ? 1 : 0) : ((const uint16_t *)v)[i];

		memcpy(d + i * 4, &w, 4);
	}
	return 0;
}

#define WRITE_ARRAY(name, T, kind)                                              \
	int bc_parcel_write_##name##_array(bc_parcel *p, const T *v, size_t n) \
	{                                                                      \
		return write_array(p, v, n, sizeof(T), kind);                  \
	}

WRITE_ARRAY(int32, int32_t, ELEM_RAW)
WRITE_ARRAY(uint32, uint32_t, ELEM_RAW)
WRITE_ARRAY(int64, int64_t, ELEM_RAW)
WRITE_ARRAY(uint64, uint64_t, ELEM_RAW)
WRITE_ARRAY(float, float, ELEM_RAW)
WRITE_ARRAY(double, double, ELEM_RAW)
WRITE_ARRAY(bool, bool, ELEM_BOOL)
WRITE_ARRAY(char, uint16_t, ELEM_CHAR)

int bc_parcel_write_string16_array(bc_parcel *p, const char *const *v, size_t n)
{
	size_t start = 0;
	int r = write_array_count(p, v, n, &start);

	if (r == 1)
		return 0;
	for (size_t i = 0; r == 0 && i < n; i++)
		r = bc_parcel_write_string16(p, v[i]);
	if (r < 0)
		truncate_to(p, start);
	return r;
}

static int add_offset(bc_parcel *p, size_t off)
{
	int r = grow((void **)&p->offs, &p->cap_offs, p->n_offs + 1, sizeof(uint64_t));

	if (r == 0)
		p->offs[p->n_offs++] = off;
	return r;
}

static uint32_t stability_word(const struct bc_wire_proto *proto, int level)
{
	if (proto->stability == STABILITY_CATEGORY)
		return 1u | ((uint32_t)level << 24);
	return (uint32_t)level;
}

static int write_binder(bc_parcel *p, bc_binder *b, bool weak)
{
	struct flat_binder_object obj;
	size_t start;
	int r;

	if (!p)
		return -EINVAL;
	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	memset(&obj, 0, sizeof(obj));
	start = p->size;
	if (b) {
		r = grow((void **)&p->binders, &p->cap_binders, p->n_binders + 1, sizeof(*p->binders));
		if (r < 0)
			return r;
		bc__binder_flatten(b, weak, &obj);
		r = add_offset(p, p->size);
		if (r < 0)
			return r;
	} else {
		obj.hdr.type = weak ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER;
	}
	r = put(p, &obj, sizeof(obj));
	if (r == 0 && p->proto->stability != STABILITY_NONE)
		r = bc_parcel_write_uint32(
			p, stability_word(p->proto, b ? bc__binder_wire_stability(b, p->partition) : 0));
	if (r < 0) {
		if (b)
			p->n_offs--;
		truncate_to(p, start);
		return r;
	}
	if (b)
		p->binders[p->n_binders++] = bc_binder_ref(b);
	return 0;
}

int bc_parcel_write_binder(bc_parcel *p, bc_binder *b) { return write_binder(p, b, false); }
int bc_parcel_write_weak_binder(bc_parcel *p, bc_binder *b) { return write_binder(p, b, true); }

int bc_parcel_write_fd(bc_parcel *p, int fd, bool take_ownership)
{
	struct binder_fd_object obj;
	size_t start;
	int r;

	if (!p || fd < 0)
		return -EINVAL;
	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	if (take_ownership) {
		r = grow((void **)&p->fds, &p->cap_fds, p->n_fds + 1, sizeof(int));
		if (r < 0)
			return r;
	}
	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_FD;
	obj.pad_flags = 0x7f | FLAT_BINDER_FLAG_ACCEPTS_FDS;
	obj.fd = (uint32_t)fd;
	obj.cookie = take_ownership ? 1 : 0;
	start = p->size;
	r = add_offset(p, p->size);
	if (r < 0)
		return r;
	r = put(p, &obj, sizeof(obj));
	if (r < 0) {
		p->n_offs--;
		truncate_to(p, start);
		return r;
	}
	if (take_ownership)
		p->fds[p->n_fds++] = fd;
	return 0;
}

int bc_parcel_begin_parcelable(bc_parcel *p, size_t *ret_token)
{
	size_t start;
	int r;

	if (!p || !ret_token)
		return -EINVAL;
	start = p->size;
	r = bc_parcel_write_int32(p, 0);
	if (r == 0)
		*ret_token = start;
	return r;
}

int bc_parcel_end_parcelable(bc_parcel *p, size_t token)
{
	int32_t size;

	if (!p || token > p->size || p->size - token < 4 || (token & 3))
		return -EINVAL;
	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	size = (int32_t)(p->size - token);
	memcpy(p->data + token, &size, 4);
	return 0;
}

int bc_parcel_write_interface_token(bc_parcel *p, const char *descriptor)
{
	size_t start;
	int r;

	if (!p || !descriptor)
		return -EINVAL;
	start = p->size;
	r = bc_parcel_write_uint32(p, p->proto->policy);
	if (r == 0 && p->proto->work_source)
		r = bc_parcel_write_int32(p, -1);
	if (r == 0 && p->proto->partition_header)
		r = bc_parcel_write_uint32(p, partition_header(p));
	if (r == 0)
		r = bc_parcel_write_string16(p, descriptor);
	if (r < 0 && !(p->flags & BINDERC_PARCEL_READONLY))
		truncate_to(p, start);
	return r;
}

int bc_parcel_write_status(bc_parcel *p, const bc_status *st)
{
	size_t start;
	int r;

	if (!p)
		return -EINVAL;
	if (!st || st->exception == BINDERC_EX_NONE)
		return bc_parcel_write_int32(p, BINDERC_EX_NONE);
	start = p->size;
	r = bc_parcel_write_int32(p, st->exception);
	if (r == 0)
		r = bc_parcel_write_string16(p, st->message ? st->message : "");
	if (r == 0)
		r = bc_parcel_write_int32(p, 0);
	if (r == 0 && st->exception == BINDERC_EX_SERVICE_SPECIFIC)
		r = bc_parcel_write_int32(p, st->service_error);
	if (r < 0 && !(p->flags & BINDERC_PARCEL_READONLY))
		truncate_to(p, start);
	return r;
}

/* ---- reading ---------------------------------------------------------- */

/* Index of the first object ending after @pos. */
static size_t first_obj_after(const bc_parcel *p, size_t pos)
{
	size_t lo = 0, hi = p->n_offs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->offs[mid] + BINDERC_OBJ_SIZE <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Check that [pos, pos+len) is inside the data and holds no object. */
static int check_plain(const bc_parcel *p, size_t pos, size_t len)
{
	size_t i;

	if (pos > p->size || len > p->size - pos)
		return -ENODATA;
	if (len == 0)
		return 0;
	i = first_obj_after(p, pos);
	if (i < p->n_offs && p->offs[i] < pos + len)
		return -EBADMSG;
	return 0;
}

/* Plain read of @len bytes (padded) at the position; advances. */
static int take(bc_parcel *p, size_t len, const uint8_t **ret)
{
	size_t padded;
	int r;

	if (!p)
		return -EINVAL;
	if (len > MAX_LEN)
		return -ENODATA;
	padded = PAD4(len);
	r = check_plain(p, p->pos, padded);
	if (r < 0)
		return r;
	*ret = p->data + p->pos;
	p->pos += padded;
	return 0;
}

static int get(bc_parcel *p, void *out, size_t len)
{
	const uint8_t *d;
	int r = take(p, len, &d);

	if (r < 0)
		return r;
	if (out)
		memcpy(out, d, len);
	return 0;
}

int bc_parcel_read_int32(bc_parcel *p, int32_t *ret) { return get(p, ret, 4); }
int bc_parcel_read_uint32(bc_parcel *p, uint32_t *ret) { return get(p, ret, 4); }
int bc_parcel_read_int64(bc_parcel *p, int64_t *ret) { return get(p, ret, 8); }
int bc_parcel_read_uint64(bc_parcel *p, uint64_t *ret) { return get(p, ret, 8); }
int bc_parcel_read_float(bc_parcel *p, float *ret) { return get(p, ret, 4); }
int bc_parcel_read_double(bc_parcel *p, double *ret) { return get(p, ret, 8); }

int bc_parcel_read_bool(bc_parcel *p, bool *ret)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r == 0 && ret)
		*ret = v != 0;
	return r;
}

int bc_parcel_read_char(bc_parcel *p, uint16_t *ret)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r == 0 && ret)
		*ret = (uint16_t)v;
	return r;
}

int bc_parcel_read_byte(bc_parcel *p, int8_t *ret)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r == 0 && ret)
		*ret = (int8_t)v;
	return r;
}

int bc_parcel_read_raw(bc_parcel *p, size_t len, const void **ret)
{
	const uint8_t *d;
	int r = take(p, len, &d);

	if (r == 0 && ret)
		*ret = d;
	return r;
}

/* Read a length prefix: -1 = null (returns 1), else 0 with *n. */
static int read_len(bc_parcel *p, size_t *n)
{
	int32_t v;
	int r = get(p, &v, 4);

	if (r < 0)
		return r;
	if (v == -1)
		return 1;
	if (v < 0) {
		p->pos -= 4;
		return -EBADMSG;
	}
	*n = (size_t)v;
	return 0;
}

int bc_parcel_read_string16_utf16(bc_parcel *p, const uint16_t **ret, size_t *ret_len)
{
	size_t start, n;
	const uint8_t *d;
	uint16_t nul;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r < 0)
		return r;
	if (r == 1) {
		if (ret)
			*ret = NULL;
		if (ret_len)
			*ret_len = 0;
		return 0;
	}
	if (n >= MAX_LEN / 2) {
		p->pos = start;
		return -ENODATA;
	}
	r = take(p, (n + 1) * 2, &d);
	if (r < 0) {
		p->pos = start;
		return r;
	}
	memcpy(&nul, d + n * 2, 2);
	if (nul != 0) {
		p->pos = start;
		return -EBADMSG;
	}
	if (ret)
		*ret = (const uint16_t *)(const void *)d;
	if (ret_len)
		*ret_len = n;
	return 0;
}

int bc_parcel_read_string16(bc_parcel *p, char **ret, size_t *ret_len)
{
	const uint16_t *s;
	uint16_t *tmp;
	size_t n, start;
	ssize_t m;
	char *out;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = bc_parcel_read_string16_utf16(p, &s, &n);
	if (r < 0)
		return r;
	if (!s) {
		if (ret)
			*ret = NULL;
		if (ret_len)
			*ret_len = 0;
		return 0;
	}
	/* The data may not be 2-aligned for the compiler's taste: copy. */
	tmp = malloc(n * 2 + 2);
	if (!tmp) {
		p->pos = start;
		return -ENOMEM;
	}
	memcpy(tmp, s, n * 2);
	m = bc__utf16_to_utf8(tmp, n, NULL);
	if (m < 0) {
		free(tmp);
		p->pos = start;
		return (int)m;
	}
	out = malloc((size_t)m + 1);
	if (!out) {
		free(tmp);
		p->pos = start;
		return -ENOMEM;
	}
	bc__utf16_to_utf8(tmp, n, out);
	out[m] = 0;
	free(tmp);
	if (ret)
		*ret = out;
	else
		free(out);
	if (ret_len)
		*ret_len = (size_t)m;
	return 0;
}

/* A length-prefixed run of @n bytes plus @nul terminating zero bytes (0 or
 * 1), read in place; length -1 is null (*@ret = NULL, *@ret_len = 0).  On
 * error the position is left where it was. */
static int read_counted(bc_parcel *p, size_t nul, const uint8_t **ret, size_t *ret_len)
{
	size_t start, n = 0;
	const uint8_t *d = NULL;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r < 0)
		return r;
	if (r == 0) {
		r = n >= MAX_LEN ? -ENODATA : take(p, n + nul, &d);
		if (r == 0 && nul && d[n] != 0)
			r = -EBADMSG;
		if (r < 0) {
			p->pos = start;
			return r;
		}
	}
	if (ret)
		*ret = d;
	if (ret_len)
		*ret_len = n;
	return 0;
}

int bc_parcel_read_string8(bc_parcel *p, const char **ret, size_t *ret_len)
{
	const uint8_t *d;
	int r = read_counted(p, 1, &d, ret_len);

	if (r == 0 && ret)
		*ret = (const char *)d;
	return r;
}

int bc_parcel_read_byte_array(bc_parcel *p, const void **ret, size_t *ret_len)
{
	const uint8_t *d;
	int r = read_counted(p, 0, &d, ret_len);

	if (r == 0 && ret)
		*ret = d;
	return r;
}

/* A typed array into a new allocation (*@ret, or freed when @ret is NULL).
 * Every element has a fixed wire size, so the whole array is checked
 * before allocating. */
static int read_array(bc_parcel *p, void **ret, size_t *ret_n, size_t csize, enum elem_kind kind)
{
	size_t start, n, wsize = elem_wire_size(kind, csize);
	const uint8_t *d;
	uint8_t *v;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r < 0)
		return r;
	if (r == 1) {
		if (ret)
			*ret = NULL;
		if (ret_n)
			*ret_n = 0;
		return 0;
	}
	r = n > MAX_LEN / wsize ? -ENODATA : check_plain(p, p->pos, n * wsize);
	if (r < 0) {
		p->pos = start;
		return r;
	}
	v = malloc(n ? n * csize : 1);
	if (!v) {
		p->pos = start;
		return -ENOMEM;
	}
	d = p->data + p->pos;
	p->pos += n * wsize;
	if (kind == ELEM_RAW && n) {
		memcpy(v, d, n * wsize);
	} else {
		for (size_t i = 0; i < n; i++) {
			int32_t w;

			memcpy(&w, d + i * 4, 4);
			if (kind == ELEM_BOOL)
				((bool *)(void *)v)[i] = w != 0;
			else
				((uint16_t *)(void *)v)[i] = (uint16_t)w;
		}
	}
	if (ret)
		*ret = v;
	else
		free(v);
	if (ret_n)
		*ret_n = n;
	return 0;
}

#define READ_ARRAY(name, T, kind)                                                 \
	int bc_parcel_read_##name##_array(bc_parcel *p, T **ret, size_t *ret_n)  \
	{                                                                        \
		void *v = NULL;                                                  \
		int r = read_array(p, ret ? &v : NULL, ret_n, sizeof(T), kind); \
		if (r == 0 && ret)                                               \
			*ret = v;                                                \
		return r;                                                        \
	}

READ_ARRAY(int32, int32_t, ELEM_RAW)
READ_ARRAY(uint32, uint32_t, ELEM_RAW)
READ_ARRAY(int64, int64_t, ELEM_RAW)
READ_ARRAY(uint64, uint64_t, ELEM_RAW)
READ_ARRAY(float, float, ELEM_RAW)
READ_ARRAY(double, double, ELEM_RAW)
READ_ARRAY(bool, bool, ELEM_BOOL)
READ_ARRAY(char, uint16_t, ELEM_CHAR)

void bc_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int bc_parcel_read_string16_array(bc_parcel *p, char ***ret, size_t *ret_n)
{
	size_t start, n;
	char **v;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_len(p, &n);
	if (r < 0)
		return r;
	if (r == 1) {
		if (ret)
			*ret = NULL;
		if (ret_n)
			*ret_n = 0;
		return 0;
	}
	/* Each element takes at least 4 bytes: bound n before allocating. */
	if (n > bc_parcel_remaining(p) / 4) {
		p->pos = start;
		return -ENODATA;
	}
	v = calloc(n ? n : 1, sizeof(char *));
	if (!v) {
		p->pos = start;
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		r = bc_parcel_read_string16(p, &v[i], NULL);
		if (r < 0) {
			bc_strv_free(v, i);
			p->pos = start;
			return r;
		}
	}
	if (ret)
		*ret = v;
	else
		bc_strv_free(v, n);
	if (ret_n)
		*ret_n = n;
	return 0;
}

/* Locate a flat object at the position.  *@listed tells whether the
 * offsets array lists it; unlisted objects must not overlap listed ones. */
static int peek_object(const bc_parcel *p, struct flat_binder_object *obj, bool *listed)
{
	size_t pos = p->pos, i;

	if (pos > p->size || BINDERC_OBJ_SIZE > p->size - pos)
		return -ENODATA;
	i = first_obj_after(p, pos);
	*listed = i < p->n_offs && p->offs[i] == pos;
	if (!*listed && i < p->n_offs && p->offs[i] < pos + BINDERC_OBJ_SIZE)
		return -EBADMSG;
	memcpy(obj, p->data + pos, sizeof(*obj));
	return 0;
}

/* Resolve a binder object to a bc_binder in a parcel that we wrote. */
static bc_binder *find_held(const bc_parcel *p, const struct flat_binder_object *obj)
{
	for (size_t i = 0; i < p->n_binders; i++) {
		bc_binder *b = p->binders[i];
		bool local = obj->hdr.type == BINDER_TYPE_BINDER || obj->hdr.type == BINDER_TYPE_WEAK_BINDER;

		if (local && !b->remote && obj->cookie == (uintptr_t)b && obj->binder == (uintptr_t)b)
			return b;
		if (!local && b->remote && obj->handle == b->handle)
			return b;
	}
	return NULL;
}

static int stability_level(uint32_t w)
{
	if (w == BINDERC_STABILITY_UNDECLARED || w == BINDERC_STABILITY_VENDOR || w == BINDERC_STABILITY_SYSTEM ||
	    w == BINDERC_STABILITY_VINTF)
		return (int)w;
	if ((w & 0x00ffffffu) == 1)
		return (int)(w >> 24);
	return (int)w;
}

/* Common part of strong and weak binder reads.  On success the position is
 * past the object (and stability word), obj and stab are filled and is_null
 * tells a null binder. */
static int read_binder_object(bc_parcel *p, bool weak_ok, struct flat_binder_object *obj, int *stab, bool *is_null)
{
	size_t start = p->pos;
	bool listed;
	int r;

	r = peek_object(p, obj, &listed);
	if (r < 0)
		return r;
	switch (obj->hdr.type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_HANDLE:
		break;
	case BINDER_TYPE_WEAK_BINDER:
	case BINDER_TYPE_WEAK_HANDLE:
		if (!weak_ok)
			return -EBADMSG;
		break;
	default:
		return -EBADMSG;
	}
	*is_null = (obj->hdr.type == BINDER_TYPE_BINDER || obj->hdr.type == BINDER_TYPE_WEAK_BINDER) &&
		   obj->binder == 0 && obj->cookie == 0;
	if (!listed && !*is_null)
		return -EBADMSG;
	p->pos += BINDERC_OBJ_SIZE;
	*stab = 0;
	if (p->proto->stability != STABILITY_NONE) {
		uint32_t w;

		r = bc_parcel_read_uint32(p, &w);
		if (r < 0) {
			p->pos = start;
			return r;
		}
		*stab = stability_level(w);
	}
	return 0;
}

static int resolve(bc_parcel *p, const struct flat_binder_object *obj, bool strong, bc_binder **ret)
{
	bool local = obj->hdr.type == BINDER_TYPE_BINDER || obj->hdr.type == BINDER_TYPE_WEAK_BINDER;

	if (!(p->flags & BINDERC_PARCEL_KERNEL)) {
		bc_binder *b = find_held(p, obj);

		if (!b)
			return p->n_binders || local ? -EBADMSG : -ENODEV;
		*ret = b;
		return 1; /* caller takes its own reference */
	}
	if (local)
		return bc__local_from_cookie(p->proc, (uintptr_t)obj->binder, (uintptr_t)obj->cookie, strong, ret);
	return bc__proxy_get(p->proc, obj->handle, strong, ret);
}

int bc_parcel_read_binder(bc_parcel *p, bc_binder **ret)
{
	struct flat_binder_object obj;
	size_t start;
	bc_binder *b = NULL;
	bool is_null;
	int stab, r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_binder_object(p, false, &obj, &stab, &is_null);
	if (r < 0)
		return r;
	if (!is_null) {
		r = resolve(p, &obj, true, &b);
		if (r < 0) {
			p->pos = start;
			return r;
		}
		if (r == 1) {
			if (!bc__binder_strong_inc(b)) {
				p->pos = start;
				return -ESRCH;
			}
		}
		if (b->remote && (p->flags & BINDERC_PARCEL_KERNEL))
			bc__binder_set_stability_raw(b, stab);
	}
	if (ret)
		*ret = b;
	else
		bc_binder_unref(b);
	return 0;
}

int bc_parcel_read_weak_binder(bc_parcel *p, bc_weak **ret)
{
	struct flat_binder_object obj;
	size_t start;
	bc_binder *b = NULL;
	bc_weak *w = NULL;
	bool is_null, weak_type;
	int stab, r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_binder_object(p, true, &obj, &stab, &is_null);
	if (r < 0)
		return r;
	if (!is_null) {
		weak_type = obj.hdr.type == BINDER_TYPE_WEAK_BINDER || obj.hdr.type == BINDER_TYPE_WEAK_HANDLE;
		r = resolve(p, &obj, !weak_type, &b);
		if (r < 0) {
			p->pos = start;
			return r;
		}
		if (r == 1) {
			/* borrowed from the parcel */
			r = bc_weak_new(b, &w);
		} else if (!weak_type) {
			/* a strong reference: turn it into a weak one */
			r = bc_weak_new(b, &w);
			bc_binder_unref(b);
		} else {
			/* resolve() gave us one weak count on b: wrap it */
			r = bc__binder_weak_take(b, &w);
			if (r < 0)
				bc__binder_weak_dec(b);
		}
		if (r < 0) {
			p->pos = start;
			return r;
		}
	}
	if (ret)
		*ret = w;
	else
		bc_weak_unref(w);
	return 0;
}

static int read_fd_object(bc_parcel *p, int *ret)
{
	struct binder_fd_object obj;
	bool listed;
	int r;

	if (!p)
		return -EINVAL;
	r = peek_object(p, (struct flat_binder_object *)(void *)&obj, &listed);
	if (r < 0)
		return r;
	if (!listed || obj.hdr.type != BINDER_TYPE_FD)
		return -EBADMSG;
	p->pos += BINDERC_OBJ_SIZE;
	*ret = (int)obj.fd;
	return 0;
}

int bc_parcel_read_fd(bc_parcel *p, int *ret)
{
	int fd, r = read_fd_object(p, &fd);

	if (r == 0 && ret)
		*ret = fd;
	return r;
}

int bc_parcel_read_dup_fd(bc_parcel *p, int *ret)
{
	size_t start = p ? p->pos : 0;
	int fd, nfd, r = read_fd_object(p, &fd);

	if (r < 0)
		return r;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (nfd < 0) {
		p->pos = start;
		return -errno;
	}
	if (ret)
		*ret = nfd;
	else
		close(nfd);
	return 0;
}

int bc_parcel_enter_parcelable(bc_parcel *p, size_t *ret_end)
{
	size_t start;
	int32_t size;
	int r;

	if (!p || !ret_end)
		return -EINVAL;
	start = p->pos;
	r = bc_parcel_read_int32(p, &size);
	if (r < 0)
		return r;
	if (size < 4 || (size & 3) || (size_t)size > p->size - start) {
		p->pos = start;
		return size >= 4 && !(size & 3) ? -ENODATA : -EBADMSG;
	}
	*ret_end = start + (size_t)size;
	return 0;
}

int bc_parcel_exit_parcelable(bc_parcel *p, size_t end)
{
	if (!p || end > p->size || (end & 3))
		return -EINVAL;
	if (p->pos > end)
		return -EBADMSG;
	p->pos = end;
	return 0;
}

/* The words before the descriptor: strict-mode policy, work source uid
 * (Android 10+), vendor header (Android 11+). */
static int read_token_header(bc_parcel *p)
{
	uint32_t w;
	int r;

	r = bc_parcel_read_uint32(p, NULL);
	if (r == 0 && p->proto->work_source)
		r = bc_parcel_read_int32(p, NULL);
	if (r == 0 && p->proto->partition_header) {
		r = bc_parcel_read_uint32(p, &w);
		if (r == 0 && w != partition_header(p))
			r = -EPROTO;
	}
	return r;
}

int bc_parcel_read_interface_token(bc_parcel *p, char **ret_descriptor)
{
	size_t start;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_token_header(p);
	if (r == 0) {
		char *d = NULL;

		r = bc_parcel_read_string16(p, &d, NULL);
		if (r == 0 && !d)
			r = -EBADMSG;
		if (r == 0 && ret_descriptor)
			*ret_descriptor = d;
		else
			free(d);
	}
	if (r < 0)
		p->pos = start;
	return r;
}

/* strcmp() of @n UTF-16 units at @u (no alignment) with @s, when every unit
 * is ASCII (its UTF-8 is itself): 0 equal, 1 different, -1 not all ASCII. */
static int ascii16_cmp(const uint8_t *u, size_t n, const char *s)
{
	uint16_t c = 0;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		memcpy(&c, u + i * 2, 2);
		if (c >= 0x80)
			return -1;
		/* strcmp() stops at the first difference or the common NUL. */
		if (c != (unsigned char)s[i] || c == 0)
			break;
	}
	if (i == n)
		return s[n] != 0;
	r = c != (unsigned char)s[i];
	while (++i < n) {
		memcpy(&c, u + i * 2, 2);
		if (c >= 0x80)
			return -1;
	}
	return r;
}

int bc_parcel_enforce_interface(bc_parcel *p, const char *descriptor)
{
	const uint16_t *s;
	size_t start, n;
	char *d = NULL;
	int r;

	if (!descriptor || !p)
		return -EINVAL;
	/* The usual ASCII descriptor is compared in place, without converting. */
	start = p->pos;
	r = read_token_header(p);
	if (r == 0)
		r = bc_parcel_read_string16_utf16(p, &s, &n);
	if (r == 0 && !s)
		r = -EBADMSG;
	if (r < 0) {
		p->pos = start;
		return r;
	}
	r = ascii16_cmp((const uint8_t *)s, n, descriptor);
	if (r >= 0)
		return r ? -EPERM : 0;
	p->pos = start;
	r = bc_parcel_read_interface_token(p, &d);
	if (r < 0)
		return r;
	if (strcmp(d, descriptor) != 0)
		r = -EPERM;
	free(d);
	return r;
}

/* Skip a size-prefixed blob whose size counts itself. */
static int skip_sized(bc_parcel *p)
{
	size_t start = p->pos;
	int32_t size;
	int r = bc_parcel_read_int32(p, &size);

	if (r < 0)
		return r;
	if (size < 4 || (size_t)size > p->size - start) {
		p->pos = start;
		return -EBADMSG;
	}
	p->pos = start + PAD4((size_t)size);
	if (p->pos > p->size)
		p->pos = p->size;
	return 0;
}

int bc_parcel_read_status(bc_parcel *p, bc_status *ret)
{
	bc_status st = BINDERC_STATUS_INIT;
	size_t start;
	int32_t ex, trace;
	int r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = bc_parcel_read_int32(p, &ex);
	if (r < 0)
		return r;
	if (ex == BINDERC_EX_HAS_REPLY_HEADER) {
		r = skip_sized(p);
		if (r < 0)
			goto fail;
		ex = BINDERC_EX_NONE;
	}
	st.exception = ex;
	if (ex != BINDERC_EX_NONE) {
		r = bc_parcel_read_string16(p, &st.message, NULL);
		if (r < 0)
			goto fail;
		r = bc_parcel_read_int32(p, &trace);
		if (r < 0)
			goto fail;
		if (trace < 0 || (size_t)trace > bc_parcel_remaining(p)) {
			r = -EBADMSG;
			goto fail;
		}
		if (PAD4((size_t)trace) <= bc_parcel_remaining(p))
			p->pos += PAD4((size_t)trace);
		else
			p->pos = p->size;
		if (ex == BINDERC_EX_SERVICE_SPECIFIC) {
			r = bc_parcel_read_int32(p, &st.service_error);
			if (r < 0)
				goto fail;
		} else if (ex == BINDERC_EX_PARCELABLE) {
			r = skip_sized(p);
			if (r < 0)
				goto fail;
		}
	}
	if (ret)
		*ret = st;
	else
		bc_status_clear(&st);
	return 0;
fail:
	bc_status_clear(&st);
	p->pos = start;
	return r;
}
