// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the character devices named by the devices= parameter.
 *
 * Each name becomes /dev/NAME with a binder context of its own.  They are
 * not misc devices: a misc device's node always belongs to root's group, so
 * the only way to share one without udev would be a world-writable mode,
 * which lets any local user freeze, flood or impersonate-by-context anyone
 * else on the device.  With a class and device type of our own, devtmpfs
 * (and udev, through DEVMODE/DEVGID in the uevent) create the node with the
 * mode= and group= the administrator chose: by default 0600 root:root, as
 * mainline's misc devices are.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uidgid.h>

#include "binderc.h"

/* Every minor of one dynamic major, shared with binderfs instances. */
#define BINDERC_MINORS (1U << MINORBITS)

static unsigned int binderc_dev_mode = 0600;
static unsigned int binderc_dev_group;
static kgid_t binderc_dev_kgid;

static dev_t binderc_first_devt;
static DEFINE_IDA(binderc_minors);
static LIST_HEAD(binderc_devices);
static DEFINE_MUTEX(binderc_devices_lock);

/*
 * Only read and write bits: execute, setuid or sticky bits mean nothing on
 * a device node and are more likely a typo for something else.  Zero is
 * refused too, since devtmpfs would silently turn it into 0600.
 */
static int binderc_mode_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mode;
	int ret;

	ret = kstrtouint(val, 8, &mode);
	if (ret)
		return ret;
	if (!mode || (mode & ~0666)) {
		pr_err("mode=%s: only read and write bits (0666) may be set\n",
		       val);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = mode;
	return 0;
}

static int binderc_mode_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%04o\n", *(unsigned int *)kp->arg);
}

static const struct kernel_param_ops binderc_mode_ops = {
	.set = binderc_mode_set,
	.get = binderc_mode_get,
};

module_param_cb(mode, &binderc_mode_ops, &binderc_dev_mode, 0444);
MODULE_PARM_DESC(mode, "mode of the device nodes, octal (default 0600)");
module_param_named(group, binderc_dev_group, uint, 0444);
MODULE_PARM_DESC(group, "group id owning the device nodes (default 0)");

static char *binderc_devnode(BINDERC_DEVNODE_CONST struct device *dev,
			     umode_t *mode, kuid_t *uid, kgid_t *gid)
{
	if (mode)
		*mode = binderc_dev_mode;
	if (gid)
		*gid = binderc_dev_kgid;
	return NULL;
}

static const struct device_type binderc_device_type = {
	.name = "binder",
	.devnode = binderc_devnode,
};

static struct class binderc_class = {
	.name = "binderc",
};

struct binderc_device *binderc_device_from_inode(struct inode *inode)
{
	return container_of(inode->i_cdev, struct binderc_device, cdev);
}

/* The last reference to the device: its node and open files are gone. */
static void binderc_device_free(struct device *d)
{
	struct binderc_device *dev = container_of(d, struct binderc_device,
						  dev);

	ida_free(&binderc_minors, MINOR(d->devt));
	kfree(dev);
}

static bool binderc_name_ok(const char *name)
{
	size_t len = strlen(name);

	return len && len <= BINDERC_NAME_MAX && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

static struct binderc_device *binderc_find_device(const char *name)
{
	struct binderc_device *dev;

	lockdep_assert_held(&binderc_devices_lock);
	list_for_each_entry(dev, &binderc_devices, entry)
		if (!strcmp(dev->name, name))
			return dev;
	return NULL;
}

static int binderc_device_add(const char *name)
{
	struct binderc_device *dev;
	size_t len = strlen(name);
	int minor, ret;

	if (!binderc_name_ok(name))
		return -EINVAL;
	/* Two nodes of one name would make sysfs warn with a stack trace. */
	if (binderc_find_device(name))
		return -EEXIST;
	dev = kzalloc(struct_size(dev, name, len + 1), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	minor = ida_alloc_max(&binderc_minors, BINDERC_MINORS - 1, GFP_KERNEL);
	if (minor < 0) {
		kfree(dev);
		return minor;
	}
	memcpy(dev->name, name, len + 1);
	binderc_context_init(&dev->context, dev->name);

	device_initialize(&dev->dev);
	dev->dev.class = &binderc_class;
	dev->dev.type = &binderc_device_type;
	dev->dev.devt = MKDEV(MAJOR(binderc_first_devt), minor);
	dev->dev.release = binderc_device_free;
	cdev_init(&dev->cdev, &binderc_fops);
	dev->cdev.owner = THIS_MODULE;
	ret = dev_set_name(&dev->dev, "%s", dev->name);
	if (!ret)
		ret = cdev_device_add(&dev->cdev, &dev->dev);
	if (ret) {
		/* The release callback frees the minor and the memory. */
		put_device(&dev->dev);
		return ret;
	}
	list_add_tail(&dev->entry, &binderc_devices);
	return 0;
}

static void binderc_devices_remove_all(void)
{
	struct binderc_device *dev, *tmp;

	mutex_lock(&binderc_devices_lock);
	list_for_each_entry_safe(dev, tmp, &binderc_devices, entry) {
		list_del(&dev->entry);
		cdev_device_del(&dev->cdev, &dev->dev);
		put_device(&dev->dev);
	}
	mutex_unlock(&binderc_devices_lock);
}

/* Register one device per comma-separated name in @names; all or none. */
int binderc_chardev_init(const char *names)
{
	char *copy, *cursor, *name;
	int ret;

	binderc_dev_kgid = make_kgid(&init_user_ns, binderc_dev_group);
	if (!gid_valid(binderc_dev_kgid)) {
		pr_err("group=%u is not a valid group id\n", binderc_dev_group);
		return -EINVAL;
	}
	copy = kstrdup(names, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	ret = alloc_chrdev_region(&binderc_first_devt, 0, BINDERC_MINORS,
				  KBUILD_MODNAME);
	if (ret)
		goto out_free;
	ret = class_register(&binderc_class);
	if (ret)
		goto out_region;

	mutex_lock(&binderc_devices_lock);
	cursor = copy;
	while ((name = strsep(&cursor, ","))) {
		ret = binderc_device_add(name);
		/*
		 * A name given twice is a bad parameter: -EEXIST from init
		 * would read to modprobe as "already loaded" (and newer
		 * loaders turn it into -EBUSY), hiding the mistake.
		 */
		if (ret == -EEXIST) {
			pr_err("devices=: '%s' is given twice\n", name);
			ret = -EINVAL;
			break;
		}
		if (ret) {
			pr_err("cannot register device '%s': %d\n", name, ret);
			break;
		}
	}
	mutex_unlock(&binderc_devices_lock);
	if (!ret)
		goto out_free;

	binderc_devices_remove_all();
	class_unregister(&binderc_class);
out_region:
	unregister_chrdev_region(binderc_first_devt, BINDERC_MINORS);
out_free:
	kfree(copy);
	return ret;
}

/*
 * binderfs devices share the major and the minors.  A mount in a user
 * namespace other than the initial one may not take the last
 * BINDERC_MINORS_RESERVED minors, so that containers cannot use up every
 * device number of the host.
 */
#define BINDERC_MINORS_RESERVED 4

int binderc_minor_alloc(bool use_reserve)
{
	unsigned int max = BINDERC_MINORS - 1;

	if (!use_reserve)
		max -= BINDERC_MINORS_RESERVED;
	return ida_alloc_max(&binderc_minors, max, GFP_KERNEL);
}

void binderc_minor_free(int minor)
{
	ida_free(&binderc_minors, minor);
}

dev_t binderc_devt(int minor)
{
	return MKDEV(MAJOR(binderc_first_devt), minor);
}

/* No file is open (each open pins the module), so no proc remains. */
void binderc_chardev_exit(void)
{
	binderc_devices_remove_all();
	class_unregister(&binderc_class);
	unregister_chrdev_region(binderc_first_devt, BINDERC_MINORS);
}
