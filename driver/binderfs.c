// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: binderfs, a filesystem of binder devices that behaves as
 * mainline's (drivers/android/binderfs.c), for kernels built without it.
 *
 * The type is "binder" when the kernel has no filesystem of that name (the
 * Debian kernels, which turn CONFIG_ANDROID_BINDERFS off), else "binderc";
 * the kernel log and /sys/module/binderc/parameters/filesystem say which.
 *
 * A fresh mount holds binder-control, features/ and, with stats=global,
 * binder_logs/.  BINDER_CTL_ADD on binder-control creates a device node
 * (0600, owned by the root of the mount's user namespace) that is a binder
 * context of its own: its own context manager and handles, as each
 * devices= device.  So two mounts never share a context.  Unlinking the
 * node removes the device once its open files are gone; binder-control can
 * be neither unlinked nor renamed over.  The nodes work only where
 * binderfs put them: their numbers (the major of the devices= devices,
 * minors from the same pool) have no character device behind them, so a
 * mknod() of the same numbers elsewhere opens nothing.
 *
 * Options: max=N caps the devices of the mount (BINDER_CTL_ADD then fails
 * with -ENOSPC); stats=global adds binder_logs/, the debugfs files of
 * debugfs.c (they show every context), and needs CAP_SYS_ADMIN in the
 * initial user namespace.  A remount sets max= anew (no max= means no
 * limit) and may not change stats=.  The filesystem may be mounted in a
 * user namespace; devices of such mounts may not take the last minors.
 *
 * Unlike mainline, a fresh mount holds no device besides binder-control:
 * binderc's devices= names are the devices= devices, and a container
 * creates the devices it wants (tests/driver/differences.h).
 *
 * Lifetimes: a device (struct binderc_fs_device) is freed when both its
 * inode and every proc opened on it are gone (binderc_context_put()); its
 * minor and its place in max= go with the inode.  The superblock pins the
 * module through the filesystem type, and every open node pins the mount,
 * so a detached mount lives until its last file is closed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/fsnotify.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "binderc.h"
#include "binderfs_uapi.h"

/* Inode numbers: the root, binder-control, then devices by minor. */
#define BINDERC_FS_ROOT_INO	1
#define BINDERC_FS_CONTROL_INO	2
#define BINDERC_FS_DEVICE_INO	3
#define BINDERC_FS_MAX_DEVICES	(1U << MINORBITS)

/* The protocol features of this driver: one file each in features/. */
static const char * const binderc_fs_features[] = {
	"oneway_spam_detection",
	"extended_error",
	"freeze_notification",
	"transaction_report",
};

enum { BINDERC_OPT_MAX, BINDERC_OPT_STATS };
enum { BINDERC_STATS_UNSET, BINDERC_STATS_GLOBAL };

static const struct constant_table binderc_fs_stats_modes[] = {
	{ "global", BINDERC_STATS_GLOBAL },
	{}
};

static const struct fs_parameter_spec binderc_fs_params[] = {
	fsparam_u32("max", BINDERC_OPT_MAX),
	fsparam_enum("stats", BINDERC_OPT_STATS, binderc_fs_stats_modes),
	{}
};

struct binderc_fs_opts {
	u32 max;
	int stats;
};

/**
 * struct binderc_fs_info - one mount (superblock) of binderfs
 * @opts:		the mount options; @opts.max binderc_fs_lock, stats
 *			immutable
 * @devices:		devices that still have an inode; binderc_fs_lock
 * @root_uid:		owner of the nodes; immutable
 * @root_gid:		group of the nodes; immutable
 * @control_minor:	binder-control's minor, -1 if none; immutable
 * @control:		binder-control's dentry; immutable once set
 * @proc_dir:		binder_logs/proc, or NULL; immutable once set
 */
struct binderc_fs_info {
	struct binderc_fs_opts opts;
	u32 devices;
	kuid_t root_uid;
	kgid_t root_gid;
	int control_minor;
	struct dentry *control;
	struct dentry *proc_dir;
};

/* A device of a mount, in its inode's i_private. */
struct binderc_fs_device {
	struct binderc_context context;
	int minor;
	char name[];
};

static DEFINE_MUTEX(binderc_fs_lock);
static struct file_system_type binderc_fs_type;

static int binderc_fs_name_set(const char *val, const struct kernel_param *kp)
{
	pr_err("filesystem= is read-only: it tells the type binderfs got\n");
	return -EPERM;
}

static int binderc_fs_name_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", binderc_fs_type.name);
}

static const struct kernel_param_ops binderc_fs_name_ops = {
	.set = binderc_fs_name_set,
	.get = binderc_fs_name_get,
};

module_param_cb(filesystem, &binderc_fs_name_ops, NULL, 0444);
MODULE_PARM_DESC(filesystem,
		 "read-only: the binderfs type, \"binder\", or \"binderc\" if the kernel has its own binderfs");

static struct binderc_fs_info *binderc_fs_info(struct super_block *sb)
{
	return sb->s_fs_info;
}

/* ---- entries ---------------------------------------------------------- */

static struct inode *binderc_fs_new_inode(struct super_block *sb,
					  umode_t mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = iunique(sb, BINDERC_FS_DEVICE_INO +
				   BINDERC_FS_MAX_DEVICES);
	inode->i_mode = mode;
	simple_inode_init_ts(inode);
	return inode;
}

/*
 * Link @inode as @name in @parent.  Returns the dentry (valid while it is
 * linked) or an ERR_PTR; on error @inode is put, which undoes a device.
 */
static struct dentry *binderc_fs_link(struct dentry *parent, const char *name,
				      struct inode *inode)
{
	struct dentry *dentry = binderc_start_creating(parent, name);

	if (IS_ERR(dentry)) {
		iput(inode);
		return dentry;
	}
	if (S_ISDIR(inode->i_mode))
		inc_nlink(d_inode(parent));
	binderc_make_persistent(dentry, inode);
	if (S_ISDIR(inode->i_mode))
		fsnotify_mkdir(d_inode(parent), dentry);
	else
		fsnotify_create(d_inode(parent), dentry);
	binderc_done_creating(dentry);
	return dentry;
}

static struct dentry *binderc_fs_add_file(struct dentry *parent,
					  const char *name,
					  const struct file_operations *fops,
					  void *data)
{
	struct inode *inode = binderc_fs_new_inode(parent->d_sb,
						   S_IFREG | 0444);

	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_fop = fops;
	inode->i_private = data;
	return binderc_fs_link(parent, name, inode);
}

static struct dentry *binderc_fs_add_dir(struct dentry *parent,
					 const char *name)
{
	struct inode *inode = binderc_fs_new_inode(parent->d_sb,
						   S_IFDIR | 0755);

	if (!inode)
		return ERR_PTR(-ENOMEM);
	inode->i_op = &simple_dir_inode_operations;
	inode->i_fop = &simple_dir_operations;
	set_nlink(inode, 2);
	return binderc_fs_link(parent, name, inode);
}

/* A character node of the mount, owned by the mount's root. */
static void binderc_fs_init_node(struct inode *inode, int minor)
{
	struct binderc_fs_info *info = binderc_fs_info(inode->i_sb);

	init_special_inode(inode, S_IFCHR | 0600, binderc_devt(minor));
	inode->i_uid = info->root_uid;
	inode->i_gid = info->root_gid;
}

/* ---- devices ---------------------------------------------------------- */

static void binderc_fs_device_release(struct binderc_context *ctx)
{
	kfree(container_of(ctx, struct binderc_fs_device, context));
}

/* Room for one more device in the mount, within max=. */
static int binderc_fs_count_flocked(struct binderc_fs_info *info)
{
	lockdep_assert_held(&binderc_fs_lock);
	if (info->devices >= info->opts.max)
		return -ENOSPC;
	info->devices++;
	return 0;
}

static void binderc_fs_uncount_flocked(struct binderc_fs_info *info)
{
	lockdep_assert_held(&binderc_fs_lock);
	info->devices--;
}

static void binderc_fs_uncount(struct binderc_fs_info *info)
{
	mutex_lock(&binderc_fs_lock);
	binderc_fs_uncount_flocked(info);
	mutex_unlock(&binderc_fs_lock);
}

/*
 * BINDER_CTL_ADD: create the device req->name and fill in its numbers
 * (copied out to @ureq before the node appears, as mainline does).
 */
static int binderc_fs_add_device(struct super_block *sb,
				 struct binderfs_device *req,
				 struct binderfs_device __user *ureq)
{
	struct binderc_fs_info *info = binderc_fs_info(sb);
	struct binderc_fs_device *dev;
	struct dentry *dentry;
	struct inode *inode;
	size_t len;
	int minor;

	req->name[BINDERFS_MAX_NAME] = '\0';
	len = strlen(req->name);

	mutex_lock(&binderc_fs_lock);
	minor = binderc_fs_count_flocked(info);
	mutex_unlock(&binderc_fs_lock);
	if (minor)
		return minor;

	minor = binderc_minor_alloc(sb->s_user_ns == &init_user_ns);
	if (minor < 0) {
		binderc_fs_uncount(info);
		return minor;
	}
	dev = kzalloc(struct_size(dev, name, len + 1), GFP_KERNEL_ACCOUNT);
	inode = dev ? new_inode(sb) : NULL;
	if (!inode) {
		kfree(dev);
		binderc_minor_free(minor);
		binderc_fs_uncount(info);
		return -ENOMEM;
	}
	memcpy(dev->name, req->name, len + 1);
	binderc_context_init(&dev->context, dev->name);
	dev->context.release = binderc_fs_device_release;
	dev->minor = minor;

	inode->i_ino = BINDERC_FS_DEVICE_INO + minor;
	simple_inode_init_ts(inode);
	binderc_fs_init_node(inode, minor);
	inode->i_fop = &binderc_fops;
	/* From here on, putting the inode undoes the device (evict_inode). */
	inode->i_private = dev;

	req->major = MAJOR(binderc_devt(minor));
	req->minor = minor;
	if (copy_to_user(ureq, req, sizeof(*req))) {
		iput(inode);
		return -EFAULT;
	}
	/* The lookup refuses "", ".", ".." and '/' and finds duplicates. */
	dentry = binderc_fs_link(sb->s_root, dev->name, inode);
	return PTR_ERR_OR_ZERO(dentry);
}

struct binderc_context *binderc_binderfs_context(struct inode *inode)
{
	struct binderc_fs_device *dev;

	if (inode->i_sb->s_type != &binderc_fs_type)
		return NULL;
	/* Only device nodes open with binderc_fops; each has its device. */
	dev = inode->i_private;
	return &dev->context;
}

static long binderc_fs_ctl_ioctl(struct file *file, unsigned int cmd,
				 unsigned long arg)
{
	struct binderfs_device __user *ureq = (void __user *)arg;
	struct binderfs_device req;

	if (cmd != BINDER_CTL_ADD)
		return -EINVAL;
	if (copy_from_user(&req, ureq, sizeof(req)))
		return -EFAULT;
	return binderc_fs_add_device(file_inode(file)->i_sb, &req, ureq);
}

static const struct file_operations binderc_fs_ctl_fops = {
	.owner = THIS_MODULE,
	.open = nonseekable_open,
	.unlocked_ioctl = binderc_fs_ctl_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static int binderc_fs_add_control(struct super_block *sb)
{
	struct binderc_fs_info *info = binderc_fs_info(sb);
	struct dentry *dentry;
	struct inode *inode;
	int minor;

	minor = binderc_minor_alloc(sb->s_user_ns == &init_user_ns);
	if (minor < 0)
		return minor;
	/* Freed with the superblock. */
	info->control_minor = minor;
	inode = new_inode(sb);
	if (!inode)
		return -ENOMEM;
	inode->i_ino = BINDERC_FS_CONTROL_INO;
	simple_inode_init_ts(inode);
	binderc_fs_init_node(inode, minor);
	inode->i_fop = &binderc_fs_ctl_fops;
	dentry = binderc_fs_link(sb->s_root, "binder-control", inode);
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	info->control = dentry;
	return 0;
}

/* ---- features/ and binder_logs/ ---------------------------------------- */

static int binderc_fs_feature_show(struct seq_file *m, void *unused)
{
	seq_puts(m, "1\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(binderc_fs_feature);

static int binderc_fs_add_features(struct super_block *sb)
{
	struct dentry *dir, *dentry;
	size_t i;

	dir = binderc_fs_add_dir(sb->s_root, "features");
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (i = 0; i < ARRAY_SIZE(binderc_fs_features); i++) {
		dentry = binderc_fs_add_file(dir, binderc_fs_features[i],
					     &binderc_fs_feature_fops, NULL);
		if (IS_ERR(dentry))
			return PTR_ERR(dentry);
	}
	return 0;
}

static int binderc_fs_add_logs(struct super_block *sb)
{
	const struct binderc_log_file *f;
	struct dentry *dir, *dentry;

	dir = binderc_fs_add_dir(sb->s_root, "binder_logs");
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	for (f = binderc_log_files; f->name; f++) {
		dentry = binderc_fs_add_file(dir, f->name, f->fops, NULL);
		if (IS_ERR(dentry))
			return PTR_ERR(dentry);
	}
	dentry = binderc_fs_add_dir(dir, "proc");
	if (IS_ERR(dentry))
		return PTR_ERR(dentry);
	binderc_fs_info(sb)->proc_dir = dentry;
	return 0;
}

/* binder_logs/proc/PID for the first proc of a pid, as in debugfs. */
void binderc_binderfs_add_proc(struct binderc_proc *proc, struct inode *inode)
{
	struct binderc_fs_info *info;
	struct binderc_proc *itr;
	struct dentry *dentry;
	char name[12];

	if (inode->i_sb->s_type != &binderc_fs_type)
		return;
	info = binderc_fs_info(inode->i_sb);
	if (!info->proc_dir)
		return;
	snprintf(name, sizeof(name), "%u", proc->pid);
	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(itr, &binderc_procs, proc_entry) {
		if (itr != proc && itr->pid == proc->pid &&
		    itr->binderfs_entry)
			goto out;
	}
	dentry = binderc_fs_add_file(info->proc_dir, name,
				     binderc_proc_log_fops,
				     (void *)(unsigned long)proc->pid);
	if (!IS_ERR(dentry))
		proc->binderfs_entry = dentry;
out:
	mutex_unlock(&binderc_procs_lock);
}

/* Called by release(): the open file still pins the mount. */
void binderc_binderfs_remove_proc(struct binderc_proc *proc)
{
	mutex_lock(&binderc_procs_lock);
	if (proc->binderfs_entry)
		simple_recursive_removal(proc->binderfs_entry, NULL);
	proc->binderfs_entry = NULL;
	mutex_unlock(&binderc_procs_lock);
}

/* ---- the superblock --------------------------------------------------- */

static void binderc_fs_evict_inode(struct inode *inode)
{
	struct binderc_fs_device *dev = inode->i_private;

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (!S_ISCHR(inode->i_mode) || !dev)
		return;
	binderc_fs_uncount(binderc_fs_info(inode->i_sb));
	binderc_minor_free(dev->minor);
	binderc_context_put(&dev->context);
}

static int binderc_fs_show_options(struct seq_file *m, struct dentry *root)
{
	struct binderc_fs_info *info = binderc_fs_info(root->d_sb);

	mutex_lock(&binderc_fs_lock);
	seq_printf(m, ",max=%u", info->opts.max);
	mutex_unlock(&binderc_fs_lock);
	if (info->opts.stats == BINDERC_STATS_GLOBAL)
		seq_puts(m, ",stats=global");
	return 0;
}

static const struct super_operations binderc_fs_super_ops = {
	.evict_inode = binderc_fs_evict_inode,
	.show_options = binderc_fs_show_options,
	.statfs = simple_statfs,
};

static int binderc_fs_unlink(struct inode *dir, struct dentry *dentry)
{
	if (dentry == binderc_fs_info(dir->i_sb)->control)
		return -EPERM;
	return simple_unlink(dir, dentry);
}

static int binderc_fs_rename(BINDERC_RENAME_IDMAP_PARAM
			     struct inode *old_dir, struct dentry *old_dentry,
			     struct inode *new_dir, struct dentry *new_dentry,
			     unsigned int flags)
{
	struct dentry *control = binderc_fs_info(old_dir->i_sb)->control;

	if (old_dentry == control || new_dentry == control)
		return -EPERM;
	return simple_rename(BINDERC_RENAME_IDMAP_ARG old_dir, old_dentry,
			     new_dir, new_dentry, flags);
}

static const struct inode_operations binderc_fs_root_iops = {
	.lookup = simple_lookup,
	.unlink = binderc_fs_unlink,
	.rename = binderc_fs_rename,
};

static int binderc_fs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct binderc_fs_opts *opts = fc->fs_private;
	struct binderc_fs_info *info;
	struct inode *root;
	int ret;

	/*
	 * A mount in a user namespace gets SB_I_NODEV, which would make its
	 * nodes unopenable.  Dropping it is safe: nothing can create a node
	 * here but binder-control, and it creates only binder devices.
	 */
	sb->s_iflags &= ~SB_I_NODEV;
	sb->s_iflags |= SB_I_NOEXEC;
	sb->s_magic = BINDERFS_SUPER_MAGIC;
	sb->s_op = &binderc_fs_super_ops;
	sb->s_time_gran = 1;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->control_minor = -1;
	info->opts = *opts;
	info->root_uid = make_kuid(sb->s_user_ns, 0);
	if (!uid_valid(info->root_uid))
		info->root_uid = GLOBAL_ROOT_UID;
	info->root_gid = make_kgid(sb->s_user_ns, 0);
	if (!gid_valid(info->root_gid))
		info->root_gid = GLOBAL_ROOT_GID;
	sb->s_fs_info = info;

	root = new_inode(sb);
	if (!root)
		return -ENOMEM;
	root->i_ino = BINDERC_FS_ROOT_INO;
	root->i_mode = S_IFDIR | 0755;
	simple_inode_init_ts(root);
	root->i_op = &binderc_fs_root_iops;
	root->i_fop = &simple_dir_operations;
	set_nlink(root, 2);
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;

	ret = binderc_fs_add_control(sb);
	if (!ret)
		ret = binderc_fs_add_features(sb);
	if (!ret && opts->stats == BINDERC_STATS_GLOBAL)
		ret = binderc_fs_add_logs(sb);
	return ret;
}

static void binderc_fs_kill_sb(struct super_block *sb)
{
	struct binderc_fs_info *info = binderc_fs_info(sb);

	/* Evicting the inodes still needs info. */
	binderc_kill_fs_super(sb);
	if (info && info->control_minor >= 0)
		binderc_minor_free(info->control_minor);
	kfree(info);
}

/* ---- mount options ---------------------------------------------------- */

static int binderc_fs_parse_param(struct fs_context *fc,
				  struct fs_parameter *param)
{
	struct binderc_fs_opts *opts = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	opt = fs_parse(fc, binderc_fs_params, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case BINDERC_OPT_MAX:
		if (result.uint_32 > BINDERC_FS_MAX_DEVICES)
			return invalfc(fc, "max=%u: at most %u devices",
				       result.uint_32, BINDERC_FS_MAX_DEVICES);
		opts->max = result.uint_32;
		return 0;
	case BINDERC_OPT_STATS:
		/* binder_logs/ shows the processes of every context. */
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		opts->stats = result.uint_32;
		return 0;
	}
	return invalfc(fc, "unknown option %s", param->key);
}

static int binderc_fs_reconfigure(struct fs_context *fc)
{
	struct binderc_fs_info *info = binderc_fs_info(fc->root->d_sb);
	struct binderc_fs_opts *opts = fc->fs_private;

	if (opts->stats != info->opts.stats)
		return invalfc(fc, "stats= cannot change on a remount");
	mutex_lock(&binderc_fs_lock);
	info->opts.max = opts->max;
	mutex_unlock(&binderc_fs_lock);
	return 0;
}

static int binderc_fs_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, binderc_fs_fill_super);
}

static void binderc_fs_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
}

static const struct fs_context_operations binderc_fs_context_ops = {
	.free = binderc_fs_free_fc,
	.parse_param = binderc_fs_parse_param,
	.get_tree = binderc_fs_get_tree,
	.reconfigure = binderc_fs_reconfigure,
};

static int binderc_fs_init_fs_context(struct fs_context *fc)
{
	struct binderc_fs_opts *opts = kzalloc(sizeof(*opts), GFP_KERNEL);

	if (!opts)
		return -ENOMEM;
	opts->max = BINDERC_FS_MAX_DEVICES;
	opts->stats = BINDERC_STATS_UNSET;
	fc->fs_private = opts;
	fc->ops = &binderc_fs_context_ops;
	return 0;
}

static struct file_system_type binderc_fs_type = {
	.owner = THIS_MODULE,
	.name = "binder",
	.init_fs_context = binderc_fs_init_fs_context,
	.parameters = binderc_fs_params,
	.kill_sb = binderc_fs_kill_sb,
	.fs_flags = FS_USERNS_MOUNT,
};

int binderc_binderfs_init(void)
{
	bool taken = false;
	int ret;

	ret = register_filesystem(&binderc_fs_type);
	if (ret == -EBUSY) {
		/* The kernel's own binderfs (binder_linux) has the name. */
		taken = true;
		binderc_fs_type.name = "binderc";
		ret = register_filesystem(&binderc_fs_type);
	}
	if (ret) {
		pr_err("cannot register filesystem type %s: %d\n",
		       binderc_fs_type.name, ret);
		return ret;
	}
	pr_info("binderfs is filesystem type \"%s\"%s\n", binderc_fs_type.name,
		taken ? " (the kernel has a \"binder\" of its own)" : "");
	return 0;
}

/* No mount remains: each superblock pins the module. */
void binderc_binderfs_exit(void)
{
	unregister_filesystem(&binderc_fs_type);
}
