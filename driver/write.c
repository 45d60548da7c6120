// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the BC_* half of BINDER_WRITE_READ.
 *
 * Commands are taken one at a time and write_consumed moves past each one
 * that was taken, so userspace can resume after an error exactly like with
 * mainline: an unknown command or a fault stops the loop with -EINVAL or
 * -EFAULT, and a pending BR_* error stops it until it has been read.
 */
#include <linux/uaccess.h>

#include "binderc.h"
#include "stats.h"

static void binderc_cmd_register_looper(struct binderc_proc *proc,
					struct binderc_thread *thread)
{
	binderc_lock_inner(proc);
	if (thread->looper & BINDERC_LOOPER_ENTERED) {
		thread->looper |= BINDERC_LOOPER_INVALID;
	} else if (proc->requested_threads == 0) {
		/* Not spawned on our request: a user error, as in mainline. */
		thread->looper |= BINDERC_LOOPER_INVALID;
	} else {
		proc->requested_threads--;
		proc->requested_threads_started++;
	}
	thread->looper |= BINDERC_LOOPER_REGISTERED;
	binderc_unlock_inner(proc);
}

static void binderc_cmd_enter_looper(struct binderc_thread *thread)
{
	if (thread->looper & BINDERC_LOOPER_REGISTERED)
		thread->looper |= BINDERC_LOOPER_INVALID;
	thread->looper |= BINDERC_LOOPER_ENTERED;
}

static void binderc_cmd_free_buffer(struct binderc_proc *proc,
				    struct binderc_thread *thread,
				    binder_uintptr_t data_ptr)
{
	struct binderc_buffer *buffer;

	/* A bogus, foreign or unreturned address is a user error, ignored. */
	buffer = binderc_alloc_prepare_to_free(&proc->alloc, data_ptr);
	if (IS_ERR_OR_NULL(buffer))
		return;
	binderc_free_buf(proc, thread, buffer, false);
}

/*
 * One command with its payload; returns the bytes consumed after the
 * command word or -errno.  Failures of the command itself that mainline
 * treats as user errors are not errors of the ioctl.
 */
static int binderc_write_one(struct binderc_proc *proc,
			     struct binderc_thread *thread, u32 cmd,
			     void __user *ptr)
{
	switch (cmd) {
	case BC_INCREFS:
	case BC_ACQUIRE:
	case BC_RELEASE:
	case BC_DECREFS: {
		u32 target;
		int ret;

		if (get_user(target, (u32 __user *)ptr))
			return -EFAULT;
		ret = binderc_handle_refcount_cmd(proc, cmd, target);
		return ret < 0 ? ret : sizeof(u32);
	}
	case BC_INCREFS_DONE:
	case BC_ACQUIRE_DONE: {
		struct binder_ptr_cookie pc;

		if (copy_from_user(&pc, ptr, sizeof(pc)))
			return -EFAULT;
		binderc_handle_node_done(proc, cmd, pc.ptr, pc.cookie);
		return sizeof(pc);
	}
	case BC_FREE_BUFFER: {
		binder_uintptr_t data_ptr;

		if (get_user(data_ptr, (binder_uintptr_t __user *)ptr))
			return -EFAULT;
		binderc_cmd_free_buffer(proc, thread, data_ptr);
		return sizeof(data_ptr);
	}
	case BC_TRANSACTION_SG:
	case BC_REPLY_SG: {
		struct binder_transaction_data_sg tr;

		if (copy_from_user(&tr, ptr, sizeof(tr)))
			return -EFAULT;
		binderc_transaction(proc, thread, &tr.transaction_data,
				    cmd == BC_REPLY_SG, tr.buffers_size);
		return sizeof(tr);
	}
	case BC_TRANSACTION:
	case BC_REPLY: {
		struct binder_transaction_data tr;

		if (copy_from_user(&tr, ptr, sizeof(tr)))
			return -EFAULT;
		binderc_transaction(proc, thread, &tr, cmd == BC_REPLY, 0);
		return sizeof(tr);
	}
	case BC_REGISTER_LOOPER:
		binderc_cmd_register_looper(proc, thread);
		return 0;
	case BC_ENTER_LOOPER:
		binderc_cmd_enter_looper(thread);
		return 0;
	case BC_EXIT_LOOPER:
		thread->looper |= BINDERC_LOOPER_EXITED;
		return 0;
	case BC_REQUEST_DEATH_NOTIFICATION:
	case BC_CLEAR_DEATH_NOTIFICATION: {
		u32 target;
		binder_uintptr_t cookie;

		if (get_user(target, (u32 __user *)ptr))
			return -EFAULT;
		if (get_user(cookie, (binder_uintptr_t __user *)
			     (ptr + sizeof(u32))))
			return -EFAULT;
		binderc_request_death(proc, thread, cmd, target, cookie);
		return sizeof(u32) + sizeof(binder_uintptr_t);
	}
	case BC_DEAD_BINDER_DONE: {
		binder_uintptr_t cookie;

		if (get_user(cookie, (binder_uintptr_t __user *)ptr))
			return -EFAULT;
		binderc_dead_binder_done(proc, thread, cookie);
		return sizeof(cookie);
	}
	case BC_REQUEST_FREEZE_NOTIFICATION:
	case BC_CLEAR_FREEZE_NOTIFICATION: {
		struct binder_handle_cookie hc;
		int ret;

		if (copy_from_user(&hc, ptr, sizeof(hc)))
			return -EFAULT;
		/* Refusals are ioctl errors here, unlike the death commands. */
		if (cmd == BC_REQUEST_FREEZE_NOTIFICATION)
			ret = binderc_request_freeze_notification(proc,
					hc.handle, hc.cookie);
		else
			ret = binderc_clear_freeze_notification(proc,
					hc.handle, hc.cookie);
		return ret < 0 ? ret : sizeof(hc);
	}
	case BC_FREEZE_NOTIFICATION_DONE: {
		binder_uintptr_t cookie;
		int ret;

		if (get_user(cookie, (binder_uintptr_t __user *)ptr))
			return -EFAULT;
		ret = binderc_freeze_notification_done(proc, cookie);
		return ret < 0 ? ret : sizeof(cookie);
	}
	default:
		/* Includes BC_ATTEMPT_ACQUIRE and BC_ACQUIRE_RESULT. */
		return -EINVAL;
	}
}

int binderc_thread_write(struct binderc_proc *proc,
			 struct binderc_thread *thread,
			 binder_uintptr_t ubuf, size_t size,
			 binder_size_t *consumed)
{
	void __user *buffer = u64_to_user_ptr(ubuf);
	void __user *ptr = buffer + *consumed;
	void __user *end = buffer + size;

	/* A pending error must be read before more commands are taken. */
	while (ptr < end && thread->return_error.cmd == BR_OK) {
		u32 cmd;
		int used;

		if (get_user(cmd, (u32 __user *)ptr))
			return -EFAULT;
		ptr += sizeof(u32);
		binderc_stat_bc(proc, cmd);
		used = binderc_write_one(proc, thread, cmd, ptr);
		if (used < 0)
			return used;
		ptr += used;
		*consumed = ptr - buffer;
	}
	return 0;
}

