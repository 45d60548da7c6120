// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: refs, the handles a proc holds on nodes (usually of other
 * procs).  Each proc keeps its refs in two trees under its outer_lock, by
 * handle (desc) and by node; handle 0 is the context manager's.  A ref's
 * first strong or weak count takes one internal count on its node (see
 * node.c); BC_INCREFS / BC_ACQUIRE / BC_RELEASE / BC_DECREFS change a
 * ref's counts, and a ref whose counts both reach zero is unlinked and
 * freed.
 */
#include <linux/slab.h>

#include "binderc.h"

struct binderc_ref *binderc_get_ref_olocked(struct binderc_proc *proc,
					    u32 desc, bool need_strong_ref)
{
	struct rb_node *n = proc->refs_by_desc.rb_node;

	lockdep_assert_held(&proc->outer_lock);
	while (n) {
		struct binderc_ref *ref;

		ref = rb_entry(n, struct binderc_ref, rb_node_desc);
		if (desc < ref->data.desc) {
			n = n->rb_left;
		} else if (desc > ref->data.desc) {
			n = n->rb_right;
		} else {
			/* A weak handle used as a strong one is refused. */
			if (need_strong_ref && !ref->data.strong)
				return NULL;
			return ref;
		}
	}
	return NULL;
}

static struct binderc_ref *
binderc_lookup_ref_by_node_olocked(struct binderc_proc *proc,
				   struct binderc_node *node,
				   struct rb_node ***linkp,
				   struct rb_node **parentp)
{
	struct rb_node **p = &proc->refs_by_node.rb_node;
	struct rb_node *parent = NULL;

	lockdep_assert_held(&proc->outer_lock);
	while (*p) {
		struct binderc_ref *ref;

		parent = *p;
		ref = rb_entry(parent, struct binderc_ref, rb_node_node);
		if (node < ref->node)
			p = &(*p)->rb_left;
		else if (node > ref->node)
			p = &(*p)->rb_right;
		else
			return ref;
	}
	*linkp = p;
	*parentp = parent;
	return NULL;
}

/* Lowest free handle: 0 only for the context manager, else from 1. */
static void binderc_insert_ref_desc_olocked(struct binderc_proc *proc,
					    struct binderc_ref *new_ref)
{
	struct rb_node **p, *parent = NULL, *n;
	struct binderc_ref *ref;

	lockdep_assert_held(&proc->outer_lock);
	new_ref->data.desc =
		new_ref->node == READ_ONCE(proc->context->mgr_node) ? 0 : 1;
	for (n = rb_first(&proc->refs_by_desc); n; n = rb_next(n)) {
		ref = rb_entry(n, struct binderc_ref, rb_node_desc);
		if (ref->data.desc > new_ref->data.desc)
			break;
		new_ref->data.desc = ref->data.desc + 1;
	}

	p = &proc->refs_by_desc.rb_node;
	while (*p) {
		parent = *p;
		ref = rb_entry(parent, struct binderc_ref, rb_node_desc);
		if (new_ref->data.desc < ref->data.desc)
			p = &(*p)->rb_left;
		else
			p = &(*p)->rb_right;
	}
	rb_link_node(&new_ref->rb_node_desc, parent, p);
	rb_insert_color(&new_ref->rb_node_desc, &proc->refs_by_desc);
}

static struct binderc_ref *
binderc_get_ref_for_node_olocked(struct binderc_proc *proc,
				 struct binderc_node *node,
				 struct binderc_ref *new_ref)
{
	struct rb_node **link, *parent;
	struct binderc_ref *ref;

	lockdep_assert_held(&proc->outer_lock);
	ref = binderc_lookup_ref_by_node_olocked(proc, node, &link, &parent);
	if (ref || !new_ref)
		return ref;

	new_ref->data.debug_id = binderc_new_debug_id();
	new_ref->proc = proc;
	new_ref->node = node;
	rb_link_node(&new_ref->rb_node_node, parent, link);
	rb_insert_color(&new_ref->rb_node_node, &proc->refs_by_node);
	binderc_insert_ref_desc_olocked(proc, new_ref);

	binderc_lock_node(node);
	hlist_add_head(&new_ref->node_entry, &node->refs);
	binderc_unlock_node(node);
	binderc_count_inc(BINDERC_CNT_REF);
	return new_ref;
}

/*
 * Unlink a ref whose counts are gone (or whose proc is going).  If the
 * node became unused, ref->node is left set so binderc_free_ref() frees it.
 */
void binderc_cleanup_ref_olocked(struct binderc_ref *ref)
{
	bool delete_node;

	lockdep_assert_held(&ref->proc->outer_lock);
	rb_erase(&ref->rb_node_desc, &ref->proc->refs_by_desc);
	rb_erase(&ref->rb_node_node, &ref->proc->refs_by_node);

	binderc_node_inner_lock(ref->node);
	if (ref->data.strong)
		binderc_dec_node_nilocked(ref->node, 1, 1);
	hlist_del(&ref->node_entry);
	delete_node = binderc_dec_node_nilocked(ref->node, 0, 1);
	binderc_node_inner_unlock(ref->node);
	if (!delete_node)
		ref->node = NULL;

	if (ref->death) {
		/* Not yet delivered or not yet acked: it dies with the ref. */
		binderc_dequeue_work(ref->proc, &ref->death->work);
		binderc_count_dec(BINDERC_CNT_DEATH);
	}
	if (ref->freeze) {
		/* Queued or read but not acked: it goes with the ref too. */
		binderc_dequeue_work(ref->proc, &ref->freeze->work);
		binderc_count_dec(BINDERC_CNT_FREEZE);
	}
	binderc_count_dec(BINDERC_CNT_REF);
}

void binderc_free_ref(struct binderc_ref *ref)
{
	if (ref->node)
		binderc_free_node(ref->node);
	kfree(ref->death);
	kfree(ref->freeze);
	kfree(ref);
}

static int binderc_inc_ref_olocked(struct binderc_ref *ref, int strong,
				   struct list_head *target_list)
{
	int ret;

	lockdep_assert_held(&ref->proc->outer_lock);
	if (strong) {
		if (ref->data.strong == 0) {
			ret = binderc_inc_node(ref->node, 1, 1, target_list);
			if (ret)
				return ret;
		}
		ref->data.strong++;
	} else {
		if (ref->data.weak == 0) {
			ret = binderc_inc_node(ref->node, 0, 1, target_list);
			if (ret)
				return ret;
		}
		ref->data.weak++;
	}
	return 0;
}

/* Returns true when the ref was unlinked and must be freed. */
static bool binderc_dec_ref_olocked(struct binderc_ref *ref, int strong)
{
	lockdep_assert_held(&ref->proc->outer_lock);
	if (strong) {
		/* Dropping below zero is a user error; nothing changes. */
		if (ref->data.strong == 0)
			return false;
		ref->data.strong--;
		if (ref->data.strong == 0)
			binderc_dec_node(ref->node, strong, 1);
	} else {
		if (ref->data.weak == 0)
			return false;
		ref->data.weak--;
	}
	if (ref->data.strong == 0 && ref->data.weak == 0) {
		binderc_cleanup_ref_olocked(ref);
		return true;
	}
	return false;
}

struct binderc_node *binderc_get_node_from_ref(struct binderc_proc *proc,
					       u32 desc, bool need_strong_ref,
					       struct binderc_ref_data *rdata)
{
	struct binderc_node *node = NULL;
	struct binderc_ref *ref;

	binderc_lock_outer(proc);
	ref = binderc_get_ref_olocked(proc, desc, need_strong_ref);
	if (ref) {
		node = ref->node;
		binderc_inc_node_tmpref(node);
		if (rdata)
			*rdata = ref->data;
	}
	binderc_unlock_outer(proc);
	return node;
}

int binderc_update_ref_for_handle(struct binderc_proc *proc, u32 desc,
				  bool increment, bool strong,
				  struct binderc_ref_data *rdata)
{
	bool delete_ref = false;
	struct binderc_ref *ref;
	int ret = 0;

	binderc_lock_outer(proc);
	ref = binderc_get_ref_olocked(proc, desc, strong);
	if (!ref) {
		binderc_unlock_outer(proc);
		return -EINVAL;
	}
	if (increment)
		ret = binderc_inc_ref_olocked(ref, strong, NULL);
	else
		delete_ref = binderc_dec_ref_olocked(ref, strong);
	if (rdata)
		*rdata = ref->data;
	binderc_unlock_outer(proc);

	if (delete_ref)
		binderc_free_ref(ref);
	return ret;
}

int binderc_inc_ref_for_node(struct binderc_proc *proc,
			     struct binderc_node *node, bool strong,
			     struct list_head *target_list,
			     struct binderc_ref_data *rdata)
{
	struct binderc_ref *ref, *new_ref = NULL;
	int ret;

	binderc_lock_outer(proc);
	ref = binderc_get_ref_for_node_olocked(proc, node, NULL);
	if (!ref) {
		/* Allocate outside the spinlock, then look again. */
		binderc_unlock_outer(proc);
		new_ref = kzalloc(sizeof(*new_ref), GFP_KERNEL);
		if (!new_ref)
			return -ENOMEM;
		binderc_lock_outer(proc);
		ref = binderc_get_ref_for_node_olocked(proc, node, new_ref);
	}
	ret = binderc_inc_ref_olocked(ref, strong, target_list);
	*rdata = ref->data;
	if (ret && ref == new_ref) {
		/*
		 * The node may be dying; undo the fresh ref here (its zero
		 * counts release nothing) and free it below (CVE-2022-20421).
		 */
		binderc_cleanup_ref_olocked(new_ref);
		ref = NULL;
	}
	binderc_unlock_outer(proc);
	if (new_ref && ref != new_ref)
		kfree(new_ref);
	return ret;
}

/* ---- BC_INCREFS / BC_ACQUIRE / BC_RELEASE / BC_DECREFS --------------- */

/* Returns -EINVAL (an ioctl error, as mainline) or 0. */
int binderc_handle_refcount_cmd(struct binderc_proc *proc, u32 cmd,
				u32 target)
{
	bool strong = cmd == BC_ACQUIRE || cmd == BC_RELEASE;
	bool increment = cmd == BC_INCREFS || cmd == BC_ACQUIRE;
	struct binderc_ref_data rdata;
	int ret = -1;

	if (increment && !target) {
		struct binderc_node *mgr = binderc_get_mgr_node(proc->context);

		if (mgr) {
			if (READ_ONCE(mgr->proc) == proc) {
				/* The context manager cannot hold handle 0. */
				binderc_put_node(mgr);
				return -EINVAL;
			}
			ret = binderc_inc_ref_for_node(proc, mgr, strong,
						       NULL, &rdata);
			binderc_put_node(mgr);
		}
	}
	if (ret)
		binderc_update_ref_for_handle(proc, target, increment, strong,
					      &rdata);
	/* Invalid refs are user errors: logged by mainline, not returned. */
	return 0;
}
