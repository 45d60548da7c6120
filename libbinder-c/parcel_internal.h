/* SPDX-License-Identifier: MIT */
/*
 * libbinder-c/parcel_internal.h - what the parcel files share.
 *
 *   parcel.c          allocation and the per-thread cache, kernel parcels,
 *                     freeing, the wire-dialect table, accessors
 *   parcel_write.c    values, strings, arrays, interface token, status
 *   parcel_read.c     the same read back, bounds- and object-checked
 *   parcel_objects.c  binder and fd objects (offsets, stability words)
 *
 * The helpers are static inline because the hot paths (one int32, one
 * object) run through them and must not pay a call across files.
 */
#ifndef BINDERC_PARCEL_INTERNAL_H
#define BINDERC_PARCEL_INTERNAL_H

#include <errno.h>
#include <stdlib.h>

#include "internal.h"

/* Every item is padded to 4 bytes; no length may exceed an int32. */
#define PAD4(n) (((n) + 3u) & ~(size_t)3u)
#define MAX_LEN ((size_t)INT32_MAX)

/* Room for @need elements of @elem bytes; the first allocation has at
 * least @min. */
static inline int grow_min(void **buf, size_t *cap, size_t need, size_t elem, size_t min)
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

static inline int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	return grow_min(buf, cap, need, elem, 8);
}

/* ---- the wire dialect of a parcel (table in parcel.c) ------------------- */

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

/* The header word that follows the work source (Android 11+). */
static inline uint32_t partition_header(const bc_parcel *p)
{
	return p->partition == BINDERC_PARTITION_VENDOR ? BINDERC_HEADER_VNDR : BINDERC_HEADER_SYST;
}

/* ---- helpers shared by the writer, the reader and the objects --------- */

/* Roll back a partially written item. */
static inline void truncate_to(bc_parcel *p, size_t size)
{
	p->size = size;
}

/* Index of the first object ending after @pos. */
static inline size_t first_obj_after(const bc_parcel *p, size_t pos)
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

/* How the elements of a typed array sit on the wire: copied as they are
 * (4- or 8-byte values), or widened to int32 (bool, char). */
enum elem_kind { ELEM_RAW, ELEM_BOOL, ELEM_CHAR };

static inline size_t elem_wire_size(enum elem_kind kind, size_t csize)
{
	return kind == ELEM_RAW ? csize : 4;
}

#endif
