// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: BINDER_FREEZE and BINDER_GET_FROZEN_INFO.
 *
 * Freezing applies to every proc of a pid (on every binderc device).  While
 * frozen, sync calls to the proc fail at once with BR_FROZEN_REPLY and
 * oneway calls are queued; both are recorded for GET_FROZEN_INFO.  Freezing
 * fails with -EAGAIN (and undoes itself) while the proc still has
 * transactions in flight, optionally after waiting timeout_ms for them.
 * A freeze that holds, and every thaw, notify the watches on the proc's
 * nodes (freeze_notify.c).
 *
 * Unlike mainline, both ioctls see only the procs of the caller's own
 * context (device), and act only for a caller with the target's euid or
 * CAP_SYS_NICE in the target's user namespace: on a generic distro a device
 * may be shared by several users, and holding a binder fd must not let one
 * of them stall another's processes or watch their calls.  A pid with no
 * proc in the caller's context answers -EINVAL, as an unknown pid does in
 * mainline; one the caller may not act on answers -EPERM, before anything
 * is changed.
 *
 * Also unlike mainline, the pid is read in the caller's pid namespace, as
 * kill(2) reads it: a container's process manager freezing its pid 42
 * must not freeze whatever process has the global pid 42, and cannot name
 * a process it does not see.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/jiffies.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "binderc.h"

static bool binderc_txns_pending_ilocked(struct binderc_proc *proc)
{
	struct rb_node *n;

	lockdep_assert_held(&proc->inner_lock);
	if (proc->outstanding_txns > 0)
		return true;
	for (n = rb_first(&proc->threads); n; n = rb_next(n)) {
		struct binderc_thread *thread;

		thread = rb_entry(n, struct binderc_thread, rb_node);
		if (thread->transaction_stack)
			return true;
	}
	return false;
}

static void binderc_set_frozen(struct binderc_proc *proc, bool frozen)
{
	binderc_lock_inner(proc);
	proc->sync_recv = false;
	proc->async_recv = false;
	proc->is_frozen = frozen;
	binderc_unlock_inner(proc);
}

static int binderc_freeze_one(struct binderc_proc *proc,
			      struct binder_freeze_info *info)
{
	long ret = 0;

	if (!info->enable) {
		binderc_set_frozen(proc, false);
		binderc_notify_frozen_state(proc, false);
		return 0;
	}
	/* Frozen first, so nothing new arrives while we wait. */
	binderc_set_frozen(proc, true);
	if (info->timeout_ms > 0)
		ret = wait_event_interruptible_timeout(proc->freeze_wait,
				!READ_ONCE(proc->outstanding_txns),
				msecs_to_jiffies(info->timeout_ms));
	if (ret >= 0) {
		binderc_lock_inner(proc);
		if (binderc_txns_pending_ilocked(proc))
			ret = -EAGAIN;
		binderc_unlock_inner(proc);
	}
	if (ret < 0) {
		binderc_lock_inner(proc);
		proc->is_frozen = false;
		binderc_unlock_inner(proc);
		/* Undone: no notice, as in mainline. */
		return ret;
	}
	binderc_notify_frozen_state(proc, true);
	return 0;
}

/* Whether current may freeze @proc or read its frozen state. */
static bool binderc_may_freeze(struct binderc_proc *proc)
{
	const struct cred *tcred = get_task_cred(proc->tsk);
	bool ok;

	ok = uid_eq(current_euid(), tcred->euid) ||
	     ns_capable(tcred->user_ns, CAP_SYS_NICE);
	put_cred(tcred);
	return ok;
}

static bool binderc_freeze_target(struct binderc_proc *proc,
				  struct binderc_proc *caller, struct pid *pid)
{
	return task_tgid(proc->tsk) == pid && proc->context == caller->context;
}

/*
 * Pin every proc of @pid in @caller's context; returns how many (0: none),
 * -ENOMEM, or -EPERM if the caller may not act on one of them.
 */
static int binderc_pin_procs_of(struct binderc_proc *caller, struct pid *pid,
				struct binderc_proc ***procsp)
{
	struct binderc_proc *proc, **procs;
	int count = 0, i = 0;

	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(proc, &binderc_procs, proc_entry) {
		if (!binderc_freeze_target(proc, caller, pid))
			continue;
		if (!binderc_may_freeze(proc)) {
			mutex_unlock(&binderc_procs_lock);
			return -EPERM;
		}
		count++;
	}
	if (!count) {
		mutex_unlock(&binderc_procs_lock);
		return 0;
	}
	/* Sleeping allocation under a mutex only: fine. */
	procs = kcalloc(count, sizeof(*procs), GFP_KERNEL);
	if (!procs) {
		mutex_unlock(&binderc_procs_lock);
		return -ENOMEM;
	}
	/*
	 * A target that exits meanwhile loses its thread-group pid, so this
	 * pass may match fewer procs than the first (never more): pin only
	 * what still matches, and say how many that is.
	 */
	list_for_each_entry(proc, &binderc_procs, proc_entry) {
		if (i == count || !binderc_freeze_target(proc, caller, pid))
			continue;
		binderc_lock_inner(proc);
		proc->tmp_ref++;
		binderc_unlock_inner(proc);
		procs[i++] = proc;
	}
	mutex_unlock(&binderc_procs_lock);
	if (!i) {
		kfree(procs);
		return 0;
	}
	*procsp = procs;
	return i;
}

long binderc_ioctl_freeze(struct binderc_proc *caller, void __user *ubuf)
{
	struct binder_freeze_info info;
	struct binderc_proc **procs;
	struct pid *pid;
	int count, i, ret = 0;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	/* The caller's view: a pid it cannot see is no pid at all. */
	pid = find_get_pid(info.pid);
	if (!pid)
		return -EINVAL;
	count = binderc_pin_procs_of(caller, pid, &procs);
	put_pid(pid);
	if (count <= 0)
		return count ? count : -EINVAL;
	for (i = 0; i < count; i++) {
		/* After a failure the rest stay as they were, like mainline. */
		if (ret >= 0)
			ret = binderc_freeze_one(procs[i], &info);
		binderc_proc_dec_tmpref(procs[i]);
	}
	kfree(procs);
	return ret < 0 ? ret : 0;
}

long binderc_ioctl_get_frozen_info(struct binderc_proc *caller,
				   void __user *ubuf)
{
	struct binder_frozen_status_info info;
	struct binderc_proc *proc;
	bool found = false;
	struct pid *pid;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	info.sync_recv = 0;
	info.async_recv = 0;
	pid = find_get_pid(info.pid);
	if (!pid)
		return -EINVAL;

	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(proc, &binderc_procs, proc_entry) {
		if (!binderc_freeze_target(proc, caller, pid))
			continue;
		if (!binderc_may_freeze(proc)) {
			mutex_unlock(&binderc_procs_lock);
			put_pid(pid);
			return -EPERM;
		}
		found = true;
		binderc_lock_inner(proc);
		/* bit 0: a sync call was refused; bit 1: calls in flight. */
		info.sync_recv |= proc->sync_recv |
				  (binderc_txns_pending_ilocked(proc) << 1);
		info.async_recv |= proc->async_recv;
		binderc_unlock_inner(proc);
	}
	mutex_unlock(&binderc_procs_lock);
	put_pid(pid);

	if (!found)
		return -EINVAL;
	if (copy_to_user(ubuf, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/*
 * TF_UPDATE_TXN: a oneway call to a frozen proc replaces a queued one that
 * it makes outdated (same target, code, flags and sender).
 */
static bool binderc_can_update_txn(struct binderc_transaction *old,
				   struct binderc_transaction *t)
{
	if ((old->flags & t->flags & (TF_ONE_WAY | TF_UPDATE_TXN)) !=
	    (TF_ONE_WAY | TF_UPDATE_TXN) || !old->to_proc || !t->to_proc)
		return false;
	return old->to_proc->tsk == t->to_proc->tsk && old->code == t->code &&
	       old->flags == t->flags && old->buffer->pid == t->buffer->pid &&
	       old->buffer->target_node->ptr == t->buffer->target_node->ptr &&
	       old->buffer->target_node->cookie ==
	       t->buffer->target_node->cookie;
}

struct binderc_transaction *
binderc_find_outdated_txn_ilocked(struct binderc_proc *proc,
				  struct binderc_transaction *t,
				  struct list_head *target_list)
{
	struct binderc_work *w;

	lockdep_assert_held(&proc->inner_lock);
	list_for_each_entry(w, target_list, entry) {
		struct binderc_transaction *queued;

		if (w->type != BINDERC_WORK_TRANSACTION)
			continue;
		queued = container_of(w, struct binderc_transaction, work);
		if (binderc_can_update_txn(queued, t))
			return queued;
	}
	return NULL;
}
