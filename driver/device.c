// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: module entry, file operations and the ioctl dispatch.
 *
 * Each name in the devices= parameter becomes one device with its own
 * binder context, as the mainline driver does for its legacy devices (the
 * nodes themselves are chardev.c's); so does each device of a binderfs
 * mount (binderfs.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>

#include "binderc.h"
#include "trace.h"
#include "stats.h"

static char *devices = "binderc";
module_param(devices, charp, 0444);
MODULE_PARM_DESC(devices, "comma-separated device names (default binderc)");

atomic_t binderc_last_id;
DEFINE_MUTEX(binderc_procs_lock);
LIST_HEAD(binderc_procs);
atomic_t binderc_counters[BINDERC_CNT_COUNT];
struct binderc_stats binderc_global_stats;

/* Mapping flags mainline refuses: the receive area is kernel-written. */
#define BINDERC_FORBIDDEN_MMAP_FLAGS VM_WRITE

static int binderc_open(struct inode *inode, struct file *filp)
{
	struct binderc_context *ctx = binderc_binderfs_context(inode);
	struct binderc_proc *proc;

	/* A node of a binderfs mount, or one of the devices= devices. */
	if (!ctx)
		ctx = &binderc_device_from_inode(inode)->context;
	proc = binderc_proc_create(ctx);
	if (!proc)
		return -ENOMEM;
	/* The opener's credentials, not the caller's, decide (CVE-2021-39686). */
	proc->cred = get_cred(filp->f_cred);
	filp->private_data = proc;
	binderc_debugfs_add_proc(proc);
	binderc_binderfs_add_proc(proc, inode);
	return 0;
}

static int binderc_flush(struct file *filp, fl_owner_t id)
{
	binderc_proc_flush(filp->private_data);
	return 0;
}

static int binderc_release(struct inode *inode, struct file *filp)
{
	binderc_binderfs_remove_proc(filp->private_data);
	binderc_proc_release(filp->private_data);
	return 0;
}

static void binderc_vma_close(struct vm_area_struct *vma)
{
	struct binderc_proc *proc = vma->vm_private_data;

	binderc_alloc_vma_close(&proc->alloc);
	binderc_proc_close_receive(proc);
}

static vm_fault_t binderc_vma_fault(struct vm_fault *vmf)
{
	struct binderc_proc *proc = vmf->vma->vm_private_data;

	return binderc_alloc_fault(&proc->alloc, vmf);
}

static const struct vm_operations_struct binderc_vm_ops = {
	.close = binderc_vma_close,
	.fault = binderc_vma_fault,
};

bool binderc_vma_is_alloc(struct vm_area_struct *vma,
			  struct binderc_alloc *alloc)
{
	struct binderc_proc *proc = vma->vm_private_data;

	return vma->vm_ops == &binderc_vm_ops && &proc->alloc == alloc;
}

static int binderc_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct binderc_proc *proc = filp->private_data;

	if (proc->tsk != current->group_leader)
		return -EINVAL;
	if (vma->vm_flags & BINDERC_FORBIDDEN_MMAP_FLAGS)
		return -EPERM;
	/* Never writable later, never inherited by fork. */
	binderc_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND);
	binderc_vm_flags_clear(vma, VM_MAYWRITE);
	vma->vm_ops = &binderc_vm_ops;
	vma->vm_private_data = proc;
	return binderc_alloc_mmap(&proc->alloc, vma);
}

static __poll_t binderc_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct binderc_proc *proc = filp->private_data;
	struct binderc_thread *thread;
	bool wait_for_proc_work;

	thread = binderc_get_thread(proc);
	if (!thread)
		return EPOLLERR;

	binderc_lock_inner(proc);
	thread->looper |= BINDERC_LOOPER_POLL;
	wait_for_proc_work = binderc_available_for_proc_work_ilocked(thread);
	binderc_unlock_inner(proc);

	poll_wait(filp, &thread->wait, wait);
	if (binderc_has_work(thread, wait_for_proc_work))
		return EPOLLIN;
	return 0;
}

static int binderc_ioctl_write_read(struct file *filp, unsigned int cmd,
				    void __user *ubuf,
				    struct binderc_thread *thread)
{
	struct binderc_proc *proc = filp->private_data;
	struct binder_write_read bwr;
	int ret = 0;

	if (_IOC_SIZE(cmd) != sizeof(bwr))
		return -EINVAL;
	if (copy_from_user(&bwr, ubuf, sizeof(bwr)))
		return -EFAULT;

	if (bwr.write_size > 0) {
		ret = binderc_thread_write(proc, thread, bwr.write_buffer,
					   bwr.write_size,
					   &bwr.write_consumed);
		trace_binderc_write_done(ret);
		if (ret < 0 || !bwr.read_size)
			binderc_sched_settle(thread);
		if (ret < 0) {
			/* Mainline reports nothing read when the write fails. */
			bwr.read_consumed = 0;
			if (copy_to_user(ubuf, &bwr, sizeof(bwr)))
				ret = -EFAULT;
			return ret;
		}
	}
	if (bwr.read_size > 0) {
		ret = binderc_thread_read(proc, thread, bwr.read_buffer,
					  bwr.read_size, &bwr.read_consumed,
					  filp->f_flags & O_NONBLOCK);
		trace_binderc_read_done(ret);
		if (ret < 0)
			binderc_sched_settle(thread);
		/*
		 * Hand leftover proc work to another waiting thread.  Looked
		 * at first without the lock: work queued after the look was
		 * queued with a wakeup of its own.
		 */
		if (!list_empty(&proc->todo)) {
			binderc_lock_inner(proc);
			if (!list_empty(&proc->todo))
				binderc_wakeup_proc_ilocked(proc);
			binderc_unlock_inner(proc);
		}
		if (ret < 0) {
			if (copy_to_user(ubuf, &bwr, sizeof(bwr)))
				ret = -EFAULT;
			return ret;
		}
	}
	if (copy_to_user(ubuf, &bwr, sizeof(bwr)))
		return -EFAULT;
	return 0;
}

static long binderc_ioctl_version(void __user *ubuf, unsigned int cmd)
{
	struct binder_version __user *ver = ubuf;

	if (_IOC_SIZE(cmd) != sizeof(struct binder_version))
		return -EINVAL;
	/* Mainline answers -EINVAL, not -EFAULT, when the copy fails. */
	if (put_user(BINDER_CURRENT_PROTOCOL_VERSION, &ver->protocol_version))
		return -EINVAL;
	return 0;
}

static long binderc_ioctl_set_max_threads(struct binderc_proc *proc,
					  void __user *ubuf)
{
	u32 max_threads;

	if (copy_from_user(&max_threads, ubuf, sizeof(max_threads)))
		return -EINVAL;
	binderc_lock_inner(proc);
	proc->max_threads = max_threads;
	binderc_unlock_inner(proc);
	return 0;
}

static long binderc_ioctl_set_ctx_mgr_ext(struct binderc_proc *proc,
					  void __user *ubuf)
{
	struct flat_binder_object fbo;

	if (copy_from_user(&fbo, ubuf, sizeof(fbo)))
		return -EINVAL;
	return binderc_set_context_mgr(proc, &fbo);
}

static long binderc_ioctl_node_info_for_ref(struct binderc_proc *proc,
					    void __user *ubuf)
{
	struct binder_node_info_for_ref info;
	struct binderc_node *node, *mgr;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	if (info.strong_count || info.weak_count || info.reserved1 ||
	    info.reserved2 || info.reserved3)
		return -EINVAL;

	/* Only the context manager may ask (servicemanager's lazy services). */
	mgr = binderc_get_mgr_node(proc->context);
	if (!mgr)
		return -EPERM;
	if (READ_ONCE(mgr->proc) != proc) {
		binderc_put_node(mgr);
		return -EPERM;
	}
	binderc_put_node(mgr);

	node = binderc_get_node_from_ref(proc, info.handle, true, NULL);
	if (!node)
		return -EINVAL;
	binderc_lock_node(node);
	info.strong_count = node->local_strong_refs +
			    node->internal_strong_refs;
	info.weak_count = node->local_weak_refs;
	binderc_unlock_node(node);
	binderc_put_node(node);

	if (copy_to_user(ubuf, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static long binderc_ioctl_node_debug_info(struct binderc_proc *proc,
					  void __user *ubuf)
{
	struct binder_node_debug_info info;
	binder_uintptr_t after;
	struct rb_node *n;

	if (copy_from_user(&info, ubuf, sizeof(info)))
		return -EFAULT;
	after = info.ptr;
	memset(&info, 0, sizeof(info));

	binderc_lock_inner(proc);
	for (n = rb_first(&proc->nodes); n; n = rb_next(n)) {
		struct binderc_node *node;

		node = rb_entry(n, struct binderc_node, rb_node);
		if (node->ptr > after) {
			info.ptr = node->ptr;
			info.cookie = node->cookie;
			info.has_strong_ref = node->has_strong_ref;
			info.has_weak_ref = node->has_weak_ref;
			break;
		}
	}
	binderc_unlock_inner(proc);

	if (copy_to_user(ubuf, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static long binderc_ioctl_spam_detection(struct binderc_proc *proc,
					 void __user *ubuf)
{
	u32 enable;

	if (copy_from_user(&enable, ubuf, sizeof(enable)))
		return -EFAULT;
	binderc_lock_inner(proc);
	proc->oneway_spam_detection_enabled = !!enable;
	binderc_unlock_inner(proc);
	return 0;
}

static long binderc_ioctl_extended_error(struct binderc_thread *thread,
					 void __user *ubuf)
{
	struct binder_extended_error ee;

	/* Read and clear under the lock; copy out only after dropping it. */
	binderc_lock_inner(thread->proc);
	ee = thread->ee;
	binderc_set_extended_error(&thread->ee, 0, BR_OK, 0);
	binderc_unlock_inner(thread->proc);

	if (copy_to_user(ubuf, &ee, sizeof(ee)))
		return -EFAULT;
	return 0;
}

static long binderc_ioctl(struct file *filp, unsigned int cmd,
			  unsigned long arg)
{
	struct binderc_proc *proc = filp->private_data;
	void __user *ubuf = (void __user *)arg;
	struct binderc_thread *thread;
	long ret;

	trace_binderc_ioctl(cmd, arg);
	/* Like mainline, every ioctl first makes sure the thread exists. */
	thread = binderc_get_thread(proc);
	if (!thread)
		return -ENOMEM;

	switch (cmd) {
	case BINDER_WRITE_READ:
		ret = binderc_ioctl_write_read(filp, cmd, ubuf, thread);
		break;
	case BINDER_SET_MAX_THREADS:
		ret = binderc_ioctl_set_max_threads(proc, ubuf);
		break;
	case BINDER_SET_CONTEXT_MGR_EXT:
		ret = binderc_ioctl_set_ctx_mgr_ext(proc, ubuf);
		break;
	case BINDER_SET_CONTEXT_MGR:
		ret = binderc_set_context_mgr(proc, NULL);
		break;
	case BINDER_THREAD_EXIT:
		binderc_thread_release(proc, thread);
		thread = NULL;
		ret = 0;
		break;
	case BINDER_VERSION:
		ret = binderc_ioctl_version(ubuf, cmd);
		break;
	case BINDER_GET_NODE_INFO_FOR_REF:
		ret = binderc_ioctl_node_info_for_ref(proc, ubuf);
		break;
	case BINDER_GET_NODE_DEBUG_INFO:
		ret = binderc_ioctl_node_debug_info(proc, ubuf);
		break;
	case BINDER_GET_EXTENDED_ERROR:
		ret = binderc_ioctl_extended_error(thread, ubuf);
		break;
	case BINDER_FREEZE:
		ret = binderc_ioctl_freeze(proc, ubuf);
		break;
	case BINDER_GET_FROZEN_INFO:
		ret = binderc_ioctl_get_frozen_info(proc, ubuf);
		break;
	case BINDER_ENABLE_ONEWAY_SPAM_DETECTION:
		ret = binderc_ioctl_spam_detection(proc, ubuf);
		break;
	default:
		/* Includes the idle ioctls mainline never implemented. */
		ret = -EINVAL;
		break;
	}
	if (thread)
		thread->looper_need_return = false;
	trace_binderc_ioctl_done(ret);
	return ret;
}

const struct file_operations binderc_fops = {
	.owner = THIS_MODULE,
	.open = binderc_open,
	.flush = binderc_flush,
	.release = binderc_release,
	.mmap = binderc_mmap,
	.poll = binderc_poll,
	.unlocked_ioctl = binderc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static int __init binderc_init(void)
{
	int ret;

	/* Before any device exists: a transaction may report at once. */
	ret = binderc_report_init();
	if (ret)
		return ret;
	ret = binderc_alloc_shrinker_init();
	if (ret)
		goto out_report;
	binderc_debugfs_init();
	ret = binderc_chardev_init(devices);
	if (ret)
		goto out_debugfs;
	ret = binderc_binderfs_init();
	if (ret)
		goto out_chardev;
	return 0;

out_chardev:
	binderc_chardev_exit();
out_debugfs:
	binderc_debugfs_exit();
	binderc_alloc_shrinker_exit();
out_report:
	binderc_report_exit();
	return ret;
}

static void __exit binderc_exit(void)
{
	binderc_binderfs_exit();
	binderc_chardev_exit();
	binderc_debugfs_exit();
	binderc_alloc_shrinker_exit();
	binderc_report_exit();
}

module_init(binderc_init);
module_exit(binderc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("binder IPC, out of tree");
MODULE_VERSION(BINDERC_VERSION);
