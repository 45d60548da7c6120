/* SPDX-License-Identifier: MIT */
/*
 * libbinder-c/refcount.h - generated ref/unref functions.
 *
 * Every reference-counted object of the public API has the same pair:
 * TYPE *NAME_ref(TYPE *) adds a reference and returns its argument,
 * TYPE *NAME_unref(TYPE *) drops one, frees on the last and returns NULL
 * (so that `p = NAME_unref(p);` clears the caller's pointer); both accept
 * NULL.  Hand-written, the copies differed only in the type and the
 * free function, so they are generated here and cannot drift apart.
 * bc_binder (counts mirrored into the kernel, see LOCKING in internal.h) and
 * bc_process_unref (the last reference may fall on a pool thread) keep
 * their own code.
 *
 * The object needs an `atomic_int refs` member.  The counting is
 * sequentially consistent (plain atomic_fetch_add/atomic_fetch_sub): the
 * thread that drops the last reference must see every write made by the
 * threads that dropped theirs before it frees.
 */
#ifndef BINDERC_REFCOUNT_H
#define BINDERC_REFCOUNT_H

#include <stdatomic.h>

/* Expands to a declaration so that the use site ends with ';' like any
 * other declaration, and checks the member's type while at it. */
#define BINDERC__REFS_ARE_ATOMIC(type) \
	_Static_assert(_Generic(&((type *)0)->refs, atomic_int *: 1, default: 0), #type ".refs must be atomic_int")

/** Define NAME_ref() for TYPE. */
#define BINDERC_DEFINE_REF(type, name)                   \
	type *name##_ref(type *obj)                      \
	{                                                \
		if (obj)                                 \
			atomic_fetch_add(&obj->refs, 1); \
		return obj;                              \
	}                                                \
	BINDERC__REFS_ARE_ATOMIC(type)

/** Define NAME_unref() for TYPE: the last reference calls
 * @free_fn(obj), a void function of one TYPE * argument. */
#define BINDERC_DEFINE_UNREF(type, name, free_fn)                \
	type *name##_unref(type *obj)                            \
	{                                                        \
		if (obj && atomic_fetch_sub(&obj->refs, 1) == 1) \
			free_fn(obj);                            \
		return NULL;                                     \
	}                                                        \
	BINDERC__REFS_ARE_ATOMIC(type)

/** Define both (the common case). */
#define BINDERC_DEFINE_TRIVIAL_REF_UNREF(type, name, free_fn) \
	BINDERC_DEFINE_REF(type, name);                       \
	BINDERC_DEFINE_UNREF(type, name, free_fn)

#endif
