// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: nodes (the objects a proc exports), their strong/weak counting,
 * the BR_INCREFS / BR_ACQUIRE / BR_RELEASE / BR_DECREFS handshake with the
 * owning process, and what happens to them when the owner dies.  The
 * handles other procs hold on them are in ref.c.
 *
 * Counting follows mainline exactly because userspace sees its effects:
 *  - internal_strong_refs: strong refs held by refs of other procs;
 *  - local_strong/weak_refs: held by the kernel for transactions in flight
 *    and for the acks userspace still owes (pending_*);
 *  - tmp_refs: short pins of a node pointer held in a local variable.
 * When a node gains its first reference the owner is told with BR_INCREFS/
 * BR_ACQUIRE (acked by BC_*_DONE); when all go it gets BR_RELEASE/BR_DECREFS.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "binderc.h"
#include "stats.h"

DEFINE_SPINLOCK(binderc_dead_nodes_lock);
HLIST_HEAD(binderc_dead_nodes);

/* node->lock, then the owner's inner_lock if the owner is alive. */
void binderc_node_inner_lock(struct binderc_node *node)
{
	binderc_lock_node(node);
	if (node->proc)
		binderc_lock_inner(node->proc);
}

void binderc_node_inner_unlock(struct binderc_node *node)
{
	if (node->proc)
		binderc_unlock_inner(node->proc);
	binderc_unlock_node(node);
}

static struct binderc_node *binderc_get_node_ilocked(struct binderc_proc *proc,
						     binder_uintptr_t ptr)
{
	struct rb_node *n = proc->nodes.rb_node;

	lockdep_assert_held(&proc->inner_lock);
	while (n) {
		struct binderc_node *node;

		node = rb_entry(n, struct binderc_node, rb_node);
		if (ptr < node->ptr) {
			n = n->rb_left;
		} else if (ptr > node->ptr) {
			n = n->rb_right;
		} else {
			binderc_inc_node_tmpref_ilocked(node);
			return node;
		}
	}
	return NULL;
}

/* Returns the node with a tmp ref (binderc_put_node() drops it). */
struct binderc_node *binderc_get_node(struct binderc_proc *proc,
				      binder_uintptr_t ptr)
{
	struct binderc_node *node;

	binderc_lock_inner(proc);
	node = binderc_get_node_ilocked(proc, ptr);
	binderc_unlock_inner(proc);
	return node;
}

static struct binderc_node *
binderc_init_node_ilocked(struct binderc_proc *proc,
			  struct binderc_node *new_node,
			  struct flat_binder_object *fp)
{
	struct rb_node **p = &proc->nodes.rb_node;
	binder_uintptr_t ptr = fp ? fp->binder : 0;
	struct rb_node *parent = NULL;
	struct binderc_node *node;
	u32 flags = fp ? fp->flags : 0;

	lockdep_assert_held(&proc->inner_lock);
	while (*p) {
		parent = *p;
		node = rb_entry(parent, struct binderc_node, rb_node);
		if (ptr < node->ptr) {
			p = &(*p)->rb_left;
		} else if (ptr > node->ptr) {
			p = &(*p)->rb_right;
		} else {
			/* Raced with another sender of the same object. */
			binderc_inc_node_tmpref_ilocked(node);
			return node;
		}
	}
	node = new_node;
	node->tmp_refs++;
	rb_link_node(&node->rb_node, parent, p);
	rb_insert_color(&node->rb_node, &proc->nodes);
	node->debug_id = binderc_new_debug_id();
	node->proc = proc;
	node->ptr = ptr;
	node->cookie = fp ? fp->cookie : 0;
	node->work.type = BINDERC_WORK_NODE;
	binderc_node_sched_init(node, flags);
	node->accept_fds = !!(flags & FLAT_BINDER_FLAG_ACCEPTS_FDS);
	node->txn_security_ctx = !!(flags & FLAT_BINDER_FLAG_TXN_SECURITY_CTX);
	spin_lock_init(&node->lock);
	INIT_LIST_HEAD(&node->work.entry);
	INIT_LIST_HEAD(&node->async_todo);
	binderc_count_inc(BINDERC_CNT_NODE);
	return node;
}

struct binderc_node *binderc_new_node(struct binderc_proc *proc,
				      struct flat_binder_object *fp)
{
	struct binderc_node *node, *new_node;

	new_node = kzalloc(sizeof(*new_node), GFP_KERNEL);
	if (!new_node)
		return NULL;
	binderc_lock_inner(proc);
	node = binderc_init_node_ilocked(proc, new_node, fp);
	binderc_unlock_inner(proc);
	if (node != new_node)
		kfree(new_node);
	return node;
}

void binderc_free_node(struct binderc_node *node)
{
	binderc_count_dec(BINDERC_CNT_NODE);
	kfree(node);
}

int binderc_inc_node_nilocked(struct binderc_node *node, int strong,
			      int internal, struct list_head *target_list)
{
	struct binderc_proc *proc = node->proc;

	binderc_assert_nilocked(node);
	if (strong) {
		if (internal) {
			/*
			 * A first internal strong ref must come with a list to
			 * tell the owner on (except the context manager, whose
			 * strong ref the kernel holds from the start).
			 */
			if (!target_list && node->internal_strong_refs == 0 &&
			    !(proc && node == proc->context->mgr_node &&
			      node->has_strong_ref))
				return -EINVAL;
			node->internal_strong_refs++;
		} else {
			node->local_strong_refs++;
		}
		if (!node->has_strong_ref && target_list) {
			struct binderc_thread *thread;

			thread = container_of(target_list,
					      struct binderc_thread, todo);
			binderc_dequeue_work_ilocked(proc, &node->work);
			binderc_enqueue_deferred_thread_work_ilocked(thread,
								     &node->work);
		}
	} else {
		if (!internal)
			node->local_weak_refs++;
		if (!node->has_weak_ref && target_list &&
		    list_empty(&node->work.entry))
			binderc_enqueue_work_ilocked(proc, &node->work,
						     target_list);
	}
	return 0;
}

int binderc_inc_node(struct binderc_node *node, int strong, int internal,
		     struct list_head *target_list)
{
	int ret;

	binderc_node_inner_lock(node);
	ret = binderc_inc_node_nilocked(node, strong, internal, target_list);
	binderc_node_inner_unlock(node);
	return ret;
}

/* Returns true when the caller must free the node. */
static bool binderc_node_unlink_if_unused(struct binderc_node *node)
{
	struct binderc_proc *proc = node->proc;

	if (!hlist_empty(&node->refs) || node->local_strong_refs ||
	    node->local_weak_refs || node->tmp_refs)
		return false;
	if (proc) {
		binderc_dequeue_work_ilocked(proc, &node->work);
		rb_erase(&node->rb_node, &proc->nodes);
		return true;
	}
	binderc_lock_dead_nodes();
	/* tmp_refs may be taken by a debugfs walker: check again. */
	if (node->tmp_refs) {
		binderc_unlock_dead_nodes();
		return false;
	}
	hlist_del(&node->dead_node);
	binderc_unlock_dead_nodes();
	return true;
}

bool binderc_dec_node_nilocked(struct binderc_node *node, int strong,
			       int internal)
{
	struct binderc_proc *proc = node->proc;

	binderc_assert_nilocked(node);
	/*
	 * A dead node's local refs were all dropped when its owner died
	 * (binderc_node_release).  A transaction that pinned it just before
	 * still gives its ref back: ignore that, or the count would go
	 * negative and the node would never be freed.  (Mainline has this
	 * leak; binderc's counters made it visible.)
	 */
	if (strong) {
		if (internal)
			node->internal_strong_refs--;
		else if (proc)
			node->local_strong_refs--;
		if (node->local_strong_refs || node->internal_strong_refs)
			return false;
	} else {
		if (!internal && proc)
			node->local_weak_refs--;
		if (node->local_weak_refs || node->tmp_refs ||
		    !hlist_empty(&node->refs))
			return false;
	}

	if (proc && (node->has_strong_ref || node->has_weak_ref)) {
		/* The owner must hear about it (BR_RELEASE / BR_DECREFS). */
		if (list_empty(&node->work.entry)) {
			binderc_enqueue_work_ilocked(proc, &node->work,
						     &proc->todo);
			binderc_wakeup_proc_ilocked(proc);
		}
		return false;
	}
	return binderc_node_unlink_if_unused(node);
}

void binderc_dec_node(struct binderc_node *node, int strong, int internal)
{
	bool free_node;

	binderc_node_inner_lock(node);
	free_node = binderc_dec_node_nilocked(node, strong, internal);
	binderc_node_inner_unlock(node);
	if (free_node)
		binderc_free_node(node);
}

/*
 * The tmp_refs count of a live node is under its owner's inner_lock; once
 * the owner died, under binderc_dead_nodes_lock.
 */
void binderc_inc_node_tmpref_ilocked(struct binderc_node *node)
{
	if (node->proc)
		lockdep_assert_held(&node->proc->inner_lock);
	else
		lockdep_assert_held(&binderc_dead_nodes_lock);
	node->tmp_refs++;
}

void binderc_inc_node_tmpref(struct binderc_node *node)
{
	binderc_lock_node(node);
	if (node->proc)
		binderc_lock_inner(node->proc);
	else
		binderc_lock_dead_nodes();
	binderc_inc_node_tmpref_ilocked(node);
	if (node->proc)
		binderc_unlock_inner(node->proc);
	else
		binderc_unlock_dead_nodes();
	binderc_unlock_node(node);
}

void binderc_put_node(struct binderc_node *node)
{
	bool free_node;

	binderc_node_inner_lock(node);
	if (!node->proc)
		binderc_lock_dead_nodes();
	node->tmp_refs--;
	WARN_ON(node->tmp_refs < 0);
	if (!node->proc)
		binderc_unlock_dead_nodes();
	/* A weak internal "decrement" only re-checks for the last ref. */
	free_node = binderc_dec_node_nilocked(node, 0, 1);
	binderc_node_inner_unlock(node);
	if (free_node)
		binderc_free_node(node);
}

/* ---- BC_INCREFS_DONE / BC_ACQUIRE_DONE and the BR_* news ------------- */

int binderc_handle_node_done(struct binderc_proc *proc, u32 cmd,
			     binder_uintptr_t node_ptr,
			     binder_uintptr_t cookie)
{
	bool strong = cmd == BC_ACQUIRE_DONE;
	struct binderc_node *node;
	bool free_node;

	node = binderc_get_node(proc, node_ptr);
	if (!node)
		return -EINVAL;
	if (cookie != node->cookie) {
		binderc_put_node(node);
		return -EINVAL;
	}
	binderc_node_inner_lock(node);
	if (strong ? !node->pending_strong_ref : !node->pending_weak_ref) {
		/* An ack nobody asked for: a user error. */
		binderc_node_inner_unlock(node);
		binderc_put_node(node);
		return -EINVAL;
	}
	if (strong)
		node->pending_strong_ref = 0;
	else
		node->pending_weak_ref = 0;
	/* Drop the local ref held on behalf of the unacknowledged request. */
	free_node = binderc_dec_node_nilocked(node, strong, 0);
	WARN_ON(free_node);
	binderc_node_inner_unlock(node);
	binderc_put_node(node);
	return 0;
}

static int binderc_put_node_cmd(struct binderc_proc *proc,
				void __user **ptrp, u32 cmd,
				binder_uintptr_t ptr, binder_uintptr_t cookie)
{
	void __user *p = *ptrp;

	if (put_user(cmd, (u32 __user *)p) ||
	    put_user(ptr, (binder_uintptr_t __user *)(p + sizeof(u32))) ||
	    put_user(cookie, (binder_uintptr_t __user *)
		     (p + sizeof(u32) + sizeof(ptr))))
		return -EFAULT;
	*ptrp = p + sizeof(u32) + 2 * sizeof(binder_uintptr_t);
	binderc_stat_br(proc, cmd);
	return 0;
}

/*
 * A BINDERC_WORK_NODE just dequeued, inner_lock held (dropped here):
 * compare what userspace was told with the real counts and tell the
 * difference.  Returns 0 (keep reading) or -errno.
 */
int binderc_node_work_to_user(struct binderc_proc *proc,
			      struct binderc_node *node, void __user **ptrp)
	__releases(&proc->inner_lock)
{
	binder_uintptr_t ptr = node->ptr, cookie = node->cookie;
	bool strong, weak, had_strong, had_weak;
	int ret = 0;

	lockdep_assert_held(&proc->inner_lock);
	strong = node->internal_strong_refs || node->local_strong_refs;
	weak = !hlist_empty(&node->refs) || node->local_weak_refs ||
	       node->tmp_refs || strong;
	had_strong = node->has_strong_ref;
	had_weak = node->has_weak_ref;

	/* Until the _DONE ack, a local ref stands in for userspace's. */
	if (weak && !had_weak) {
		node->has_weak_ref = 1;
		node->pending_weak_ref = 1;
		node->local_weak_refs++;
	}
	if (strong && !had_strong) {
		node->has_strong_ref = 1;
		node->pending_strong_ref = 1;
		node->local_strong_refs++;
	}
	if (!strong && had_strong)
		node->has_strong_ref = 0;
	if (!weak && had_weak)
		node->has_weak_ref = 0;
	if (!weak && !strong) {
		rb_erase(&node->rb_node, &proc->nodes);
		binderc_unlock_inner(proc);
		/* Serialize with a decrementer still unlocking node->lock. */
		binderc_lock_node(node);
		binderc_unlock_node(node);
		binderc_free_node(node);
	} else {
		binderc_unlock_inner(proc);
	}

	if (weak && !had_weak)
		ret = binderc_put_node_cmd(proc, ptrp, BR_INCREFS, ptr, cookie);
	if (!ret && strong && !had_strong)
		ret = binderc_put_node_cmd(proc, ptrp, BR_ACQUIRE, ptr, cookie);
	if (!ret && !strong && had_strong)
		ret = binderc_put_node_cmd(proc, ptrp, BR_RELEASE, ptr, cookie);
	if (!ret && !weak && had_weak)
		ret = binderc_put_node_cmd(proc, ptrp, BR_DECREFS, ptr, cookie);
	return ret;
}

/* ---- the owner died ---------------------------------------------------- */

static void binderc_queue_death_ilocked(struct binderc_ref *ref)
{
	lockdep_assert_held(&ref->proc->inner_lock);
	WARN_ON(!list_empty(&ref->death->work.entry));
	ref->death->work.type = BINDERC_WORK_DEAD_BINDER;
	binderc_enqueue_work_ilocked(ref->proc, &ref->death->work,
				     &ref->proc->todo);
	binderc_wakeup_proc_ilocked(ref->proc);
}

/*
 * Called during the owner's release with one tmp ref held by the caller.
 * Refs stay valid; their holders get BR_DEAD_BINDER if they asked.
 */
int binderc_node_release(struct binderc_node *node, int refs)
{
	struct binderc_proc *proc = node->proc;
	struct binderc_ref *ref;

	binderc_release_work(proc, &node->async_todo);

	binderc_lock_node(node);
	binderc_lock_inner(proc);
	binderc_dequeue_work_ilocked(proc, &node->work);
	if (hlist_empty(&node->refs) && node->tmp_refs == 1) {
		binderc_unlock_inner(proc);
		binderc_unlock_node(node);
		binderc_free_node(node);
		return refs;
	}
	node->proc = NULL;
	node->local_strong_refs = 0;
	node->local_weak_refs = 0;
	binderc_unlock_inner(proc);

	binderc_lock_dead_nodes();
	hlist_add_head(&node->dead_node, &binderc_dead_nodes);
	binderc_unlock_dead_nodes();

	hlist_for_each_entry(ref, &node->refs, node_entry) {
		refs++;
		/* ref->death is stable here: node->lock is held. */
		binderc_lock_inner(ref->proc);
		if (ref->death)
			binderc_queue_death_ilocked(ref);
		binderc_unlock_inner(ref->proc);
	}
	binderc_unlock_node(node);
	binderc_put_node(node);
	return refs;
}
