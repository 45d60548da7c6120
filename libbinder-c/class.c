/* SPDX-License-Identifier: MIT */
/*
 * Classes: an interface descriptor and the callbacks of the local objects
 * made from it.  Each object holds a reference, so a class may be dropped
 * as soon as its objects are made.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
