/* SPDX-License-Identifier: MIT */
/*
 * Weak references: a bc_weak holds one weak count of its binder, which
 * keeps the object's memory (and a proxy's handle) but not the object
 * itself; promoting asks the binder's kind whether it may be revived.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

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
		bc__binder_weak_inc(b); /* the caller holds a count: no kernel command */
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

	if (!w || !ret)
		return -EINVAL;
	b = w->b;
	/* A dead proxy or a destroyed local object stays so; the weak
	 * reference's count keeps the object revivable otherwise. */
	if (!b->ops->is_alive(b) || !b->ops->revive(b))
		return -ESRCH;
	*ret = b;
	return 0;
}
