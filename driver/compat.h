/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: every difference between the kernels binderc builds against
 * (Linux 5.10 to 7.3) is handled here and nowhere else.
 *
 * Where a newer kernel added an interface, older kernels get a
 * replacement under the same name, so the driver is written against the
 * newest API and a replacement can be deleted once its kernel is no
 * longer supported.  Where an interface changed shape, the driver calls a
 * binderc_ helper.  Only exported symbols are used, and nothing here
 * skips or relaxes a check of what user space passes in.
 */
#ifndef BINDERC_COMPAT_H
#define BINDERC_COMPAT_H

/*
 * BINDERC_KERNEL is the version of the kernel built against as one number,
 * VERSION * 100 + PATCHLEVEL (6.12 is 612), set by driver/Kbuild from the
 * kernel's Makefile; it stands in for LINUX_VERSION_CODE, which checkpatch
 * rejects, and is used in this file only.
 */
#ifndef BINDERC_KERNEL
#error "BINDERC_KERNEL is not set: build binderc through driver/Kbuild"
#endif
#if BINDERC_KERNEL < 510
#error "binderc needs Linux 5.10 or later (the oldest supported kernel is 5.10)"
#endif
#define BINDERC_KERNEL_AT_LEAST(major, minor) \
	(BINDERC_KERNEL >= (major) * 100 + (minor))

/*
 * From 6.18 the kernel's own binder registers the generic netlink family
 * "binder" for its transaction reports, and fails to load if it is taken:
 * there binderc uses its own family name unless told otherwise.
 */
#define BINDERC_KERNEL_BINDER_HAS_REPORTS BINDERC_KERNEL_AT_LEAST(6, 18)

#include <linux/cred.h>
#include <linux/device.h>
#include <linux/freezer.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/uaccess.h>

/*
 * vma->vm_flags: read-only since 6.3; writers use vm_flags_set() and
 * vm_flags_clear() (with mmap_lock held for writing, as in ->mmap).
 */
static inline void binderc_vm_flags_set(struct vm_area_struct *vma,
					vm_flags_t flags)
{
#if BINDERC_KERNEL_AT_LEAST(6, 3)
	vm_flags_set(vma, flags);
#else
	vma->vm_flags |= flags;
#endif
}

static inline void binderc_vm_flags_clear(struct vm_area_struct *vma,
					  vm_flags_t flags)
{
#if BINDERC_KERNEL_AT_LEAST(6, 3)
	vm_flags_clear(vma, flags);
#else
	vma->vm_flags &= ~flags;
#endif
}

/*
 * struct device_type.devnode() and struct class.devnode() take a const
 * struct device * since 6.2:
 *
 *	static char *f(BINDERC_DEVNODE_CONST struct device *dev, ...)
 *
 * class_register() of a static struct class works on every supported
 * kernel (a macro before 6.4, a function taking a const struct class *
 * since); leave out .owner, which 6.4 removed.
 */
#if BINDERC_KERNEL_AT_LEAST(6, 2)
#define BINDERC_DEVNODE_CONST const
#else
#define BINDERC_DEVNODE_CONST
#endif

/*
 * Sleeping for work: since 6.1 a sleep is made freezable by adding
 * TASK_FREEZABLE to the task state; before, by sleeping in
 * freezable_schedule().  Wait with TASK_INTERRUPTIBLE | TASK_FREEZABLE
 * and sleep with binderc_freezable_schedule() to get both.
 */
#if BINDERC_KERNEL_AT_LEAST(6, 1)
#define binderc_freezable_schedule() schedule()
#else
#define TASK_FREEZABLE 0
#define binderc_freezable_schedule() freezable_schedule()
#endif

/*
 * kmap_local_page(), kunmap_local(): 5.11.  Without CONFIG_HIGHMEM (every
 * 64-bit kernel) a page is always mapped and both are what 5.11 made them
 * there: page_address() and nothing.
 */
#if !BINDERC_KERNEL_AT_LEAST(5, 11)
#ifdef CONFIG_HIGHMEM
#error "binderc on kernels before 5.11 needs one without CONFIG_HIGHMEM"
#endif
static inline void *kmap_local_page(struct page *page)
{
	return page_address(page);
}

static inline void binderc_kunmap_local(const void *addr)
{
}

#define kunmap_local(addr) binderc_kunmap_local(addr)
#endif

/* memzero_page(): 5.12 */
#if !BINDERC_KERNEL_AT_LEAST(5, 12)
static inline void memzero_page(struct page *page, size_t offset, size_t len)
{
	zero_user(page, offset, len);
}
#endif

/*
 * fault_in_writeable(): 5.16.  Makes [uaddr, uaddr + size) present and
 * writable by writing a zero byte into each page (as mainline does);
 * returns how many bytes at the end could not be faulted in.  put_user()
 * checks every address.
 */
#if !BINDERC_KERNEL_AT_LEAST(5, 16)
static inline size_t fault_in_writeable(char __user *uaddr, size_t size)
{
	unsigned long start = (unsigned long)uaddr;
	unsigned long end, addr = start;

	if (!size)
		return 0;
	if (check_add_overflow(start, size, &end))
		end = ULONG_MAX;
	while (addr < end) {
		if (put_user(0, (char __user *)addr))
			break;
		addr = PAGE_ALIGN(addr + 1);
		if (!addr)
			break;
	}
	if (addr >= end || !addr)
		return 0;
	return end - addr;
}
#endif

/* task_euid(): gone from <linux/cred.h> in later kernels; a macro */
#ifndef task_euid
#define task_euid(task) (task_cred_xxx((task), euid))
#endif

/*
 * The sender's security context for a node with TXN_SECURITY_CTX: since
 * 6.14 the LSM hands it out in a struct lsm_context, before as a string
 * and a length.  binderc_secctx_get() fills context and len (0 on
 * success, or a negative errno with context NULL); each success is undone
 * by one binderc_secctx_release(), which sets context back to NULL.
 */
struct binderc_secctx {
	char *context;
	u32 len;
#if BINDERC_KERNEL_AT_LEAST(6, 14)
	struct lsm_context lsm;
#endif
};

static inline int binderc_secctx_get(const struct cred *cred,
				     struct binderc_secctx *ctx)
{
	u32 secid;
	int ret;

	security_cred_getsecid(cred, &secid);
#if BINDERC_KERNEL_AT_LEAST(6, 14)
	ret = security_secid_to_secctx(secid, &ctx->lsm);
	if (ret >= 0) {
		ctx->context = ctx->lsm.context;
		ctx->len = ctx->lsm.len;
		return 0;
	}
#else
	ret = security_secid_to_secctx(secid, &ctx->context, &ctx->len);
	if (!ret)
		return 0;
#endif
	ctx->context = NULL;
	ctx->len = 0;
	return ret;
}

static inline void binderc_secctx_release(struct binderc_secctx *ctx)
{
#if BINDERC_KERNEL_AT_LEAST(6, 14)
	security_release_secctx(&ctx->lsm);
#else
	security_release_secctx(ctx->context, ctx->len);
#endif
	ctx->context = NULL;
	ctx->len = 0;
}

/*
 * binderfs entries.  A directory entry made by binderfs stays until it is
 * unlinked or the filesystem goes away.  Since 6.19 the dcache knows such
 * "persistent" dentries (d_make_persistent(), and kill_anon_super() drops
 * them); before, they were kept by an extra reference that
 * kill_litter_super() dropped.  The helpers, on every kernel:
 *
 *	d = binderc_start_creating(parent, name);
 *		parent's inode locked and a negative dentry for name, or
 *		ERR_PTR (-EEXIST if the name exists, -EACCES for "", ".",
 *		".." or a name with '/'); the lock is dropped on error
 *	binderc_make_persistent(d, inode);
 *	binderc_done_creating(d);
 *		unlocks the parent and drops the lookup's reference
 *	binderc_kill_fs_super(sb);
 *		in ->kill_sb
 *
 * simple_unlink(), simple_rename() and simple_recursive_removal() undo
 * what binderc_make_persistent() did on every supported kernel.
 *
 * ->rename() takes a struct user_namespace * first since 5.12 and a
 * struct mnt_idmap * since 6.3: declare it as
 *
 *	static int f(BINDERC_RENAME_IDMAP_PARAM struct inode *old_dir, ...)
 *
 * and call simple_rename(BINDERC_RENAME_IDMAP_ARG old_dir, ...).
 *
 * Timestamps of a new inode: simple_inode_init_ts() since 6.7.  The
 * create/persistent helpers are compile-tested on 5.10, 6.1, 6.12 and
 * 7.3; the 6.19 line is where d_make_persistent() appeared.
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/namei.h>

#if BINDERC_KERNEL_AT_LEAST(6, 19)
static inline struct dentry *binderc_start_creating(struct dentry *parent,
						    const char *name)
{
	return simple_start_creating(parent, name);
}

static inline void binderc_make_persistent(struct dentry *dentry,
					   struct inode *inode)
{
	d_make_persistent(dentry, inode);
}

static inline void binderc_done_creating(struct dentry *dentry)
{
	simple_done_creating(dentry);
}

static inline void binderc_kill_fs_super(struct super_block *sb)
{
	kill_anon_super(sb);
}
#else
static inline struct dentry *binderc_start_creating(struct dentry *parent,
						    const char *name)
{
	struct dentry *dentry;

	inode_lock(d_inode(parent));
	dentry = lookup_one_len(name, parent, strlen(name));
	if (!IS_ERR(dentry) && d_really_is_positive(dentry)) {
		dput(dentry);
		dentry = ERR_PTR(-EEXIST);
	}
	if (IS_ERR(dentry))
		inode_unlock(d_inode(parent));
	return dentry;
}

static inline void binderc_make_persistent(struct dentry *dentry,
					   struct inode *inode)
{
	d_instantiate(dentry, inode);
	dget(dentry);
}

static inline void binderc_done_creating(struct dentry *dentry)
{
	inode_unlock(d_inode(dentry->d_parent));
	dput(dentry);
}

static inline void binderc_kill_fs_super(struct super_block *sb)
{
	kill_litter_super(sb);
}
#endif

#if BINDERC_KERNEL_AT_LEAST(6, 3)
#define BINDERC_RENAME_IDMAP_PARAM struct mnt_idmap *idmap,
#define BINDERC_RENAME_IDMAP_ARG idmap,
#elif BINDERC_KERNEL_AT_LEAST(5, 12)
#define BINDERC_RENAME_IDMAP_PARAM struct user_namespace *idmap,
#define BINDERC_RENAME_IDMAP_ARG idmap,
#else
#define BINDERC_RENAME_IDMAP_PARAM
#define BINDERC_RENAME_IDMAP_ARG
#endif

#if !BINDERC_KERNEL_AT_LEAST(6, 6)
static inline void simple_inode_init_ts(struct inode *inode)
{
	inode->i_atime = current_time(inode);
	inode->i_mtime = inode->i_atime;
	inode->i_ctime = inode->i_atime;
}
#elif !BINDERC_KERNEL_AT_LEAST(6, 7)
static inline void simple_inode_init_ts(struct inode *inode)
{
	inode->i_atime = inode_set_ctime_current(inode);
	inode->i_mtime = inode->i_atime;
}
#endif

/*
 * Giving receive-buffer pages back under memory pressure (alloc.c).
 *
 * Shrinkers: register_shrinker() up to 6.6 (with a name since 6.0),
 * shrinker_alloc()/shrinker_register()/shrinker_free() since 6.7.
 * binderc_shrinker_register(s, count, scan, name) returns 0 or -ENOMEM;
 * binderc_shrinker_unregister(s) undoes it.
 */
#include <linux/shrinker.h>

typedef unsigned long (*binderc_shrink_fn)(struct shrinker *shrinker,
					   struct shrink_control *sc);

struct binderc_shrinker {
#if BINDERC_KERNEL_AT_LEAST(6, 7)
	struct shrinker *shrinker;
#else
	struct shrinker shrinker;
#endif
};

static inline int binderc_shrinker_register(struct binderc_shrinker *s,
					    binderc_shrink_fn count,
					    binderc_shrink_fn scan,
					    const char *name)
{
#if BINDERC_KERNEL_AT_LEAST(6, 7)
	s->shrinker = shrinker_alloc(0, "%s", name);
	if (!s->shrinker)
		return -ENOMEM;
	s->shrinker->count_objects = count;
	s->shrinker->scan_objects = scan;
	s->shrinker->seeks = DEFAULT_SEEKS;
	shrinker_register(s->shrinker);
	return 0;
#else
	s->shrinker.count_objects = count;
	s->shrinker.scan_objects = scan;
	s->shrinker.seeks = DEFAULT_SEEKS;
#if BINDERC_KERNEL_AT_LEAST(6, 0)
	return register_shrinker(&s->shrinker, "%s", name);
#else
	return register_shrinker(&s->shrinker);
#endif
#endif
}

static inline void binderc_shrinker_unregister(struct binderc_shrinker *s)
{
#if BINDERC_KERNEL_AT_LEAST(6, 7)
	shrinker_free(s->shrinker);
#else
	unregister_shrinker(&s->shrinker);
#endif
}

/*
 * Unmapping one page of a user mapping, with mmap_lock held at least for
 * reading: zap_page_range() up to 6.2, zap_page_range_single() (exported
 * since 6.3), zap_vma_range() in 7.3 (checked against the 6.12 and 7.3
 * trees; taken here as new in 7.0).
 */
static inline void binderc_zap_page(struct vm_area_struct *vma,
				    unsigned long addr)
{
#if BINDERC_KERNEL_AT_LEAST(7, 0)
	zap_vma_range(vma, addr, PAGE_SIZE);
#elif BINDERC_KERNEL_AT_LEAST(6, 3)
	zap_page_range_single(vma, addr, PAGE_SIZE, NULL);
#else
	zap_page_range(vma, addr, PAGE_SIZE);
#endif
}

/*
 * Setting another policy and real-time priority on a thread (rtprio.c):
 * sched_setattr_nocheck() is exported (GPL) in 6.1, 6.12 and 7.3, but
 * 5.10 exports only sched_set_fifo(), sched_set_fifo_low() and
 * sched_set_normal(), none of which takes a priority.  There the feature
 * is refused: binderc_sched_setattr() fails with -EOPNOTSUPP and nodes
 * asking for it are rejected with that error.  It may sleep (it takes
 * the cpuset lock on newer kernels): never call it under a spinlock.
 */
#define BINDERC_KERNEL_HAS_RT_INHERIT BINDERC_KERNEL_AT_LEAST(6, 1)
#if BINDERC_KERNEL_HAS_RT_INHERIT
#include <uapi/linux/sched/types.h>
#endif

static inline int binderc_sched_setattr(struct task_struct *p, int policy,
					int rt_prio, bool reset_on_fork)
{
#if BINDERC_KERNEL_HAS_RT_INHERIT
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = policy,
		.sched_priority = rt_prio,
		/* Fair policies take their nice value from here: keep it. */
		.sched_nice = task_nice(p),
		.sched_flags = reset_on_fork ? SCHED_FLAG_RESET_ON_FORK : 0,
	};

	return sched_setattr_nocheck(p, &attr);
#else
	return -EOPNOTSUPP;
#endif
}

#endif /* BINDERC_COMPAT_H */
