// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the context of a device and its context manager, the node that
 * handle 0 names in every proc of the device.
 *
 * BINDER_SET_CONTEXT_MGR(_EXT) makes a new node of the caller the manager
 * and holds a strong and a weak local ref on it, never given back: the
 * node lives until its owner dies.  The first caller's euid is remembered
 * and only that euid may take the role again.  The role is given up when
 * the owner's file is released.
 */
#include <linux/cred.h>
#include <linux/security.h>

#include "binderc.h"

void binderc_context_init(struct binderc_context *ctx, const char *name)
{
	mutex_init(&ctx->mgr_set_lock);
	spin_lock_init(&ctx->mgr_lock);
	ctx->mgr_uid = INVALID_UID;
	ctx->name = name;
	/*
	 * Cut once here: every transaction's log entry copies it, and a
	 * fixed-size copy is a few moves where strscpy() was a loop.
	 */
	strscpy_pad(ctx->log_name, name, sizeof(ctx->log_name));
	refcount_set(&ctx->ref, 1);
	ctx->release = NULL;
}

/* A proc pins its device's context for as long as it exists. */
void binderc_context_get(struct binderc_context *ctx)
{
	refcount_inc(&ctx->ref);
}

void binderc_context_put(struct binderc_context *ctx)
{
	if (refcount_dec_and_test(&ctx->ref) && ctx->release)
		ctx->release(ctx);
}

/* Returns the manager node with a tmp ref (binderc_put_node()), or NULL. */
struct binderc_node *binderc_get_mgr_node(struct binderc_context *ctx)
{
	struct binderc_node *node;

	binderc_lock_mgr(ctx);
	node = ctx->mgr_node;
	if (node)
		binderc_inc_node_tmpref(node);
	binderc_unlock_mgr(ctx);
	return node;
}

int binderc_set_context_mgr(struct binderc_proc *proc,
			    struct flat_binder_object *fbo)
{
	struct binderc_context *ctx = proc->context;
	kuid_t euid = current_euid();
	struct binderc_node *node;
	int ret;

	ret = binderc_node_sched_check(fbo ? fbo->flags : 0);
	if (ret)
		return ret;
	mutex_lock(&ctx->mgr_set_lock);
	ret = -EBUSY;
	if (READ_ONCE(ctx->mgr_node))
		goto out;
	ret = security_binder_set_context_mgr(proc->cred);
	if (ret < 0)
		goto out;
	/* Once set, only the same euid may take the role again. */
	ret = -EPERM;
	if (uid_valid(ctx->mgr_uid) && !uid_eq(ctx->mgr_uid, euid))
		goto out;
	ret = -ENOMEM;
	node = binderc_new_node(proc, fbo);
	if (!node)
		goto out;
	ctx->mgr_uid = euid;

	binderc_node_inner_lock(node);
	node->local_weak_refs++;
	node->local_strong_refs++;
	node->has_strong_ref = 1;
	node->has_weak_ref = 1;
	binderc_node_inner_unlock(node);
	binderc_lock_mgr(ctx);
	ctx->mgr_node = node;
	binderc_unlock_mgr(ctx);
	binderc_put_node(node);
	ret = 0;
out:
	mutex_unlock(&ctx->mgr_set_lock);
	return ret;
}

/* Called by release(): the proc's node stops being the manager. */
void binderc_drop_context_mgr(struct binderc_proc *proc)
{
	struct binderc_context *ctx = proc->context;

	mutex_lock(&ctx->mgr_set_lock);
	binderc_lock_mgr(ctx);
	if (ctx->mgr_node && ctx->mgr_node->proc == proc)
		ctx->mgr_node = NULL;
	binderc_unlock_mgr(ctx);
	mutex_unlock(&ctx->mgr_set_lock);
}
