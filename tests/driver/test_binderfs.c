/* SPDX-License-Identifier: MIT */
/*
 * binderfs: the filesystem of binder devices, against mainline's.
 *
 * Which filesystem type belongs to the driver under test:
 *  - binderc: /sys/module/binderc/parameters/filesystem ("binder" when the
 *    kernel has none of its own, e.g. Debian's 6.1; "binderc" beside the
 *    debug kernel's mainline binderfs);
 *  - mainline: "binder", if /proc/filesystems lists it and binderc did not
 *    take the name.  Debian's stock kernels build mainline without binderfs:
 *    there every test here is skipped for mainline.
 *
 * Each test mounts its own instance on a fresh directory under /tmp and
 * unmounts it; nothing depends on the devices= devices except for the
 * comparison of a fresh mount's contents (differences.h).  Stress figures
 * go to stderr.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uapi/binder.h> /* before binderfs.h, whose binder.h it replaces */
#include <linux/android/binderfs.h>

#include "bt.h"

#define DEBUGFS "/sys/kernel/debug"

/* ---- helpers ------------------------------------------------------------- */

static bool read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return false;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	close(fd);
	return true;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

static bool filesystems_has(const char *type)
{
	char buf[8192], want[64];

	snprintf(want, sizeof(want), "\t%s\n", type);
	return read_file("/proc/filesystems", buf, sizeof(buf)) && strstr(buf, want);
}

/* The binderfs type of the driver under test, or NULL if it has none. */
static const char *fs_type(void)
{
	static char type[32];
	char buf[64] = "";

	read_file("/sys/module/binderc/parameters/filesystem", buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	if (bt_driver() == BT_BINDERC) {
		if (!*buf)
			return NULL;
		snprintf(type, sizeof(type), "%s", buf);
		return type;
	}
	if (strcmp(buf, "binder") != 0 && filesystems_has("binder"))
		return "binder";
	return NULL;
}

static const char *need_fs(void)
{
	const char *t = fs_type();

	if (!t) {
		if (bt_driver() == BT_BINDERC)
			cr_assert_fail("binderc registered no binderfs type");
		cr_skip_test("%s has no binderfs on this kernel", th_driver_name());
	}
	return t;
}

/* The module whose refcount a mount holds. */
static int module_refcnt(void)
{
	char path[128], buf[32];

	snprintf(path, sizeof(path), "/sys/module/%s/refcnt",
		 bt_driver() == BT_BINDERC ? "binderc" : "binder_linux");
	if (!read_file(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

/*
 * Wait until the module's refcount is back at @want or below (a previous
 * test's helper may still have been closing its files when @want was read);
 * returns @want then, else the last value.
 */
static int refcnt_settles(int want)
{
	int64_t end = th_now_ms() + BT_TIMEOUT_MS;
	int n;

	while ((n = module_refcnt()) > want && th_now_ms() < end)
		usleep(10000);
	return n <= want ? want : n;
}

struct mnt {
	char dir[64];
};

static int do_mount(struct mnt *m, const char *opts)
{
	strcpy(m->dir, "/tmp/binderfs.XXXXXX");
	if (!mkdtemp(m->dir))
		return -errno;
	if (mount("binder", m->dir, fs_type(), 0, opts)) {
		int e = errno;

		rmdir(m->dir);
		return -e;
	}
	return 0;
}

static void mount_or_fail(struct mnt *m, const char *opts)
{
	int ret = do_mount(m, opts);

	cr_assert_eq(ret, 0, "mount -t %s -o %s: %s", fs_type(), opts ? opts : "",
		     strerror(-ret));
}

static void unmount(struct mnt *m)
{
	cr_expect_eq(umount2(m->dir, 0), 0, "umount %s: %s", m->dir, strerror(errno));
	rmdir(m->dir);
}

static const char *path_in(const struct mnt *m, const char *name)
{
	static char bufs[4][512];
	static int i;
	char *p = bufs[i++ % 4];

	snprintf(p, sizeof(bufs[0]), "%s/%s", m->dir, name);
	return p;
}

/* BINDER_CTL_ADD on the mount's binder-control: 0 or -errno. */
static int ctl_add(const struct mnt *m, const char *name, struct binderfs_device *out)
{
	struct binderfs_device d;
	int fd = open(path_in(m, "binder-control"), O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	memset(&d, 0, sizeof(d));
	memcpy(d.name, name, strnlen(name, sizeof(d.name)));
	ret = ioctl(fd, BINDER_CTL_ADD, &d) ? -errno : 0;
	close(fd);
	if (out)
		*out = d;
	return ret;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/*
 * Devices a fresh mount starts with: mainline's devices= names, none on
 * binderc (differences.h).  Tests that count or limit devices add these.
 */
static int defaults(void)
{
	static int n = -1;
	struct mnt m;

	if (n < 0) {
		cr_assert_eq(do_mount(&m, NULL), 0, "mount: %s", strerror(errno));
		n = count_entries(m.dir) - 2;
		umount2(m.dir, 0);
		rmdir(m.dir);
	}
	return n;
}

/* mount options: @prefix, then max= the fresh devices + @delta */
static const char *max_opt(const char *prefix, int delta)
{
	static char bufs[4][64];
	static int i;
	char *p = bufs[i++ % 4];

	snprintf(p, sizeof(bufs[0]), "%smax=%d", prefix, defaults() + delta);
	return p;
}

static int version_of(const char *path)
{
	struct binder_version v = { 0 };
	int fd = open(path, O_RDWR | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, BINDER_VERSION, &v) ? -errno : v.protocol_version;
	close(fd);
	return ret;
}

/* ---- conformance ------------------------------------------------------- */

TestSuite(binderfs, .timeout = TH_TEST_TIMEOUT_S);

Test(binderfs, fresh_mount_holds_control_and_features)
{
	char names[512] = "", *n, *save = NULL;
	int expect_defaults = 0, defaults = 0, entries;
	struct stat st;
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	cr_assert_eq(stat(path_in(&m, "binder-control"), &st), 0);
	cr_expect(S_ISCHR(st.st_mode), "binder-control is a character device");
	cr_expect_eq(st.st_mode & 07777, 0600, "binder-control mode %o", st.st_mode & 07777);
	cr_expect_eq(st.st_uid, 0);
	cr_expect_eq(st.st_gid, 0);
	cr_assert_eq(stat(m.dir, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0755, "root directory mode %o", st.st_mode & 07777);
	cr_assert_eq(stat(path_in(&m, "features"), &st), 0);
	cr_expect(S_ISDIR(st.st_mode));
	cr_expect_eq(access(path_in(&m, "binder_logs"), F_OK), -1, "binder_logs without stats=global");

	/* mainline fills a fresh mount with its devices= names */
	read_file(bt_driver() == BT_BINDERC ? "/sys/module/binderc/parameters/devices"
					    : "/sys/module/binder_linux/parameters/devices",
		  names, sizeof(names));
	names[strcspn(names, "\n")] = '\0';
	for (n = strtok_r(names, ",", &save); n; n = strtok_r(NULL, ",", &save)) {
		expect_defaults++;
		defaults += access(path_in(&m, n), F_OK) == 0;
	}
	entries = count_entries(m.dir);
	cr_expect_eq(entries, 2 + defaults, "entries %d: binder-control, features, %d defaults",
		     entries, defaults);
	cr_expect_eq(expect_defaults && defaults == expect_defaults,
		     bt_expected("a fresh mount holds the devices= devices", 1),
		     "%d of %d devices= names in a fresh mount", defaults, expect_defaults);
	unmount(&m);
}

Test(binderfs, ctl_add_creates_a_working_device)
{
	struct binderfs_device d;
	struct stat st;
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	cr_assert_eq(ctl_add(&m, "dev0", &d), 0);
	cr_expect_str_eq(d.name, "dev0");
	cr_assert_eq(stat(path_in(&m, "dev0"), &st), 0);
	cr_expect(S_ISCHR(st.st_mode));
	cr_expect_eq(st.st_mode & 07777, 0600, "device mode %o", st.st_mode & 07777);
	cr_expect_eq(st.st_uid, 0);
	cr_expect_eq(st.st_gid, 0);
	cr_expect_eq(major(st.st_rdev), d.major, "major %u vs %u", major(st.st_rdev), d.major);
	cr_expect_eq(minor(st.st_rdev), d.minor, "minor %u vs %u", minor(st.st_rdev), d.minor);
	cr_expect_eq(version_of(path_in(&m, "dev0")), BINDER_CURRENT_PROTOCOL_VERSION);
	/* a second device gets other numbers */
	struct binderfs_device d2;

	cr_assert_eq(ctl_add(&m, "dev1", &d2), 0);
	cr_expect(d2.major == d.major && d2.minor != d.minor, "dev1 %u:%u, dev0 %u:%u", d2.major,
		  d2.minor, d.major, d.minor);
	/* the control device answers nothing else */
	int fd = open(path_in(&m, "binder-control"), O_RDWR | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	cr_expect_eq(bt_ioctl(fd, BINDER_VERSION, &(struct binder_version){ 0 }), -EINVAL);
	cr_expect_eq(bt_ioctl(fd, BINDER_CTL_ADD, NULL), -EFAULT);
	close(fd);
	unmount(&m);
}

Test(binderfs, names_are_validated)
{
	struct binderfs_device d;
	char name[BINDERFS_MAX_NAME + 2];
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	cr_expect_eq(ctl_add(&m, "", NULL), -EACCES, "empty name");
	cr_expect_eq(ctl_add(&m, ".", NULL), -EACCES, "\".\"");
	cr_expect_eq(ctl_add(&m, "..", NULL), -EACCES, "\"..\"");
	cr_expect_eq(ctl_add(&m, "a/b", NULL), -EACCES, "a '/'");
	cr_expect_eq(ctl_add(&m, "binder-control", NULL), -EEXIST);
	cr_expect_eq(ctl_add(&m, "features", NULL), -EEXIST);
	cr_assert_eq(ctl_add(&m, "twice", NULL), 0);
	cr_expect_eq(ctl_add(&m, "twice", NULL), -EEXIST);
	/* the longest name, and one byte more: cut to the longest */
	memset(name, 'x', BINDERFS_MAX_NAME);
	name[BINDERFS_MAX_NAME] = '\0';
	cr_expect_eq(ctl_add(&m, name, NULL), 0, "a %d-byte name", BINDERFS_MAX_NAME);
	cr_expect_eq(access(path_in(&m, name), F_OK), 0);
	name[BINDERFS_MAX_NAME - 1] = 'y';
	memset(&d, 'y', sizeof(d.name)); /* no NUL at all */
	int fd = open(path_in(&m, "binder-control"), O_RDWR | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	cr_expect_eq(bt_ioctl(fd, BINDER_CTL_ADD, &d), 0, "unterminated name");
	close(fd);
	memset(name, 'y', BINDERFS_MAX_NAME);
	cr_expect_eq(access(path_in(&m, name), F_OK), 0, "unterminated name cut to %d bytes",
		     BINDERFS_MAX_NAME);
	/* names of failed adds left nothing behind */
	cr_expect_eq(count_entries(m.dir), 2 + defaults() + 3, "control, features, 3 devices");
	unmount(&m);
}

Test(binderfs, unlink_removes_a_device_but_not_control)
{
	struct mnt m;
	int fd;

	need_fs();
	mount_or_fail(&m, NULL);
	cr_assert_eq(ctl_add(&m, "gone", NULL), 0);
	fd = open(path_in(&m, "gone"), O_RDWR | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_expect_eq(unlink(path_in(&m, "gone")), 0, "unlink: %s", strerror(errno));
	cr_expect_eq(access(path_in(&m, "gone"), F_OK), -1);
	/* an open file of a removed device still works */
	struct binder_version v = { 0 };

	cr_expect_eq(bt_ioctl(fd, BINDER_VERSION, &v), 0);
	close(fd);
	cr_expect_eq(ctl_add(&m, "gone", NULL), 0, "the name is free again");
	cr_expect_eq(version_of(path_in(&m, "gone")), BINDER_CURRENT_PROTOCOL_VERSION);

	cr_expect_eq(unlink(path_in(&m, "binder-control")), -1);
	cr_expect_eq(errno, EPERM, "unlink binder-control: %s", strerror(errno));
	cr_expect_eq(rename(path_in(&m, "binder-control"), path_in(&m, "other")), -1);
	cr_expect_eq(errno, EPERM, "rename binder-control: %s", strerror(errno));
	cr_expect_eq(rename(path_in(&m, "gone"), path_in(&m, "binder-control")), -1);
	cr_expect_eq(errno, EPERM, "rename over binder-control: %s", strerror(errno));
	cr_expect_eq(rename(path_in(&m, "gone"), path_in(&m, "moved")), 0, "rename a device: %s",
		     strerror(errno));
	cr_expect_eq(version_of(path_in(&m, "moved")), BINDER_CURRENT_PROTOCOL_VERSION);
	cr_expect_eq(mknod(path_in(&m, "made"), S_IFCHR | 0600, makedev(1, 3)), -1, "mknod");
	cr_expect_eq(mkdir(path_in(&m, "dir"), 0755), -1, "mkdir");
	cr_expect_eq(open(path_in(&m, "file"), O_CREAT | O_RDWR, 0600), -1, "creat");
	cr_expect_eq(version_of(path_in(&m, "binder-control")), -EINVAL, "binder-control is no device");
	unmount(&m);
}

static bool mountinfo_has(const struct mnt *m, const char *opt)
{
	char buf[65536], *line, *save = NULL;

	if (!read_file("/proc/self/mountinfo", buf, sizeof(buf)))
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strstr(line, m->dir))
			return strstr(line, opt) != NULL;
	return false;
}

Test(binderfs, max_limits_devices_and_remount_changes_it)
{
	struct mnt m;

	need_fs();
	cr_expect_eq(do_mount(&m, "max=1048577"), -EINVAL, "max above 2^20");
	cr_expect_eq(do_mount(&m, "bogus=1"), -EINVAL, "unknown option");
	/* room for two devices besides the ones a fresh mount holds */
	mount_or_fail(&m, max_opt("", 2));
	cr_expect(mountinfo_has(&m, max_opt("", 2)), "mountinfo shows %s", max_opt("", 2));
	cr_expect_eq(ctl_add(&m, "a", NULL), 0);
	cr_expect_eq(ctl_add(&m, "b", NULL), 0);
	cr_expect_eq(ctl_add(&m, "c", NULL), -ENOSPC, "a device beyond max=");
	cr_expect_eq(unlink(path_in(&m, "b")), 0);
	cr_expect_eq(ctl_add(&m, "c", NULL), 0, "room again after an unlink");
	cr_expect_eq(ctl_add(&m, "d", NULL), -ENOSPC);
	cr_expect_eq(mount(NULL, m.dir, NULL, MS_REMOUNT, max_opt("", 3)), 0, "remount: %s",
		     strerror(errno));
	cr_expect(mountinfo_has(&m, max_opt("", 3)));
	cr_expect_eq(ctl_add(&m, "d", NULL), 0, "one more after the remount");
	cr_expect_eq(ctl_add(&m, "e", NULL), -ENOSPC);
	cr_expect_eq(mount(NULL, m.dir, NULL, MS_REMOUNT, "max=1"), 0, "remount below the count");
	cr_expect_eq(ctl_add(&m, "e", NULL), -ENOSPC);
	cr_expect_eq(count_entries(m.dir), 2 + defaults() + 3, "existing devices stay");
	/* a remount without max= lifts the limit */
	cr_expect_eq(mount(NULL, m.dir, NULL, MS_REMOUNT, ""), 0);
	cr_expect_eq(ctl_add(&m, "e", NULL), 0);
	cr_expect_eq(mount(NULL, m.dir, NULL, MS_REMOUNT, "stats=global"), -1);
	cr_expect_eq(errno, EINVAL, "stats= cannot be added on remount: %s", strerror(errno));
	unmount(&m);

	mount_or_fail(&m, max_opt("stats=global,", 4));
	cr_expect(mountinfo_has(&m, "stats=global"));
	cr_expect_eq(mount(NULL, m.dir, NULL, MS_REMOUNT, max_opt("", 4)), -1);
	cr_expect_eq(errno, EINVAL, "stats= cannot be dropped on remount: %s", strerror(errno));
	cr_expect_eq(mount(NULL, m.dir, NULL, MS_REMOUNT, max_opt("stats=global,", 5)), 0);
	cr_expect(mountinfo_has(&m, max_opt("", 5)));
	/* a fresh mount needs room for the devices it starts with */
	if (defaults())
		cr_expect_eq(do_mount(&(struct mnt){ 0 }, max_opt("", -1)), -ENOSPC);
	unmount(&m);
}

Test(binderfs, features_read_one)
{
	static const char *const known[] = { "oneway_spam_detection", "extended_error" };
	char path[600], buf[16];
	struct dirent *e;
	struct mnt m;
	DIR *d;
	int n = 0;

	need_fs();
	mount_or_fail(&m, NULL);
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		snprintf(path, sizeof(path), "%s/features/%s", m.dir, known[i]);
		cr_expect(read_file(path, buf, sizeof(buf)), "%s exists", known[i]);
		cr_expect_str_eq(buf, "1\n", "%s", known[i]);
	}
	d = opendir(path_in(&m, "features"));
	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/features/%s", m.dir, e->d_name);
		cr_expect_eq(stat(path, &st), 0);
		cr_expect_eq(st.st_mode & 07777, 0444, "%s mode", e->d_name);
		cr_expect(read_file(path, buf, sizeof(buf)) && !strcmp(buf, "1\n"), "%s reads 1",
			  e->d_name);
		fprintf(stderr, "binderfs %s: feature %s\n", th_driver_name(), e->d_name);
		n++;
	}
	closedir(d);
	cr_expect_geq(n, 2);
	/* freeze notifications: mainline from 6.12 (BR_FROZEN_BINDER), ours always */
	if (bt_driver() == BT_BINDERC || !th_kernel_before(6, 12)) {
		snprintf(path, sizeof(path), "%s/features/freeze_notification", m.dir);
		cr_expect(read_file(path, buf, sizeof(buf)) && !strcmp(buf, "1\n"),
			  "freeze_notification advertised");
	}
	/* transaction reports over netlink: mainline from 6.18, ours always */
	if (bt_driver() == BT_BINDERC || !th_kernel_before(6, 18)) {
		snprintf(path, sizeof(path), "%s/features/transaction_report", m.dir);
		cr_expect(read_file(path, buf, sizeof(buf)) && !strcmp(buf, "1\n"),
			  "transaction_report advertised");
	}
	unmount(&m);
}

Test(binderfs, binder_logs_with_stats_global)
{
	static const char *const files[] = { "state", "stats", "transactions", "transaction_log",
					     "failed_transaction_log" };
	const char *dbg = bt_driver() == BT_BINDERC ? DEBUGFS "/binderc" : DEBUGFS "/binder";
	char path[600], want[64], *a, *b;
	struct mnt m;
	int fd;

	need_fs();
	a = malloc(1 << 20);
	b = malloc(1 << 20);
	cr_assert(a && b);
	mount_or_fail(&m, "stats=global");
	cr_assert_eq(ctl_add(&m, "logged", NULL), 0);
	fd = open(path_in(&m, "logged"), O_RDWR | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(bt_ioctl(fd, BINDER_VERSION, &(struct binder_version){ 0 }), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/binder_logs/%s", m.dir, files[i]);
		cr_expect(read_file(path, a, 1 << 20), "binder_logs/%s", files[i]);
		snprintf(path, sizeof(path), "%s/%s", dbg, files[i]);
		if (read_file(path, b, 1 << 20) && strcmp(files[i], "stats"))
			cr_expect_str_eq(a, b, "binder_logs/%s is debugfs's", files[i]);
	}
	snprintf(path, sizeof(path), "%s/binder_logs/proc/%d", m.dir, (int)getpid());
	cr_expect(read_file(path, a, 1 << 20), "binder_logs/proc/PID for an open device");
	snprintf(want, sizeof(want), "proc %d\ncontext logged\n", (int)getpid());
	cr_expect(strstr(a, want), "proc file names the device's context: %.200s", a);
	snprintf(path, sizeof(path), "%s/binder_logs/state", m.dir);
	read_file(path, a, 1 << 20);
	cr_expect(strstr(a, want), "state shows the proc");
	close(fd);
	snprintf(path, sizeof(path), "%s/binder_logs/proc/%d", m.dir, (int)getpid());
	cr_expect_eq(access(path, F_OK), -1, "proc file gone after close");
	free(a);
	free(b);
	unmount(&m);
}

Test(binderfs, transaction_through_a_binderfs_device)
{
	struct bt_conn owner, client;
	struct bt_child cm;
	uint32_t handle = 0;
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	cr_assert_eq(ctl_add(&m, "ctx", NULL), 0);
	cr_assert_eq(bt_cm_start_on(&cm, path_in(&m, "ctx")), 0, "context manager");
	cr_assert_eq(bt_open_at(&owner, path_in(&m, "ctx"), BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_open_at(&client, path_in(&m, "ctx"), BT_VM_SIZE_DEFAULT), 0);
	cr_expect_eq(bt_ping(&client, 0), BR_REPLY, "ping the context manager");
	struct flat_binder_object o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x1000, 0x2000);

	cr_expect_eq(bt_sm_add(&owner, 0, &o), BR_REPLY, "register a node");
	cr_expect_eq(bt_sm_get(&client, 0, &handle), 0, "look it up");
	cr_expect_neq(handle, 0);
	struct bt_buf w = { .len = 0 };

	bt_put_ref(&w, BC_RELEASE, handle);
	cr_expect_eq(bt_write(&client, w.data, w.len), 0);
	bt_cm_stop(&cm);
	bt_close(&client);
	bt_close(&owner);
	unmount(&m);
}

/* ---- user namespaces ------------------------------------------------------ */


/*
 * (helper) as uid 1000: a user namespace and a mount namespace of its own,
 * mount binderfs, add a device, use it.  Sends 0 (ready) and then, in order:
 * stats=global mount result, mount result, ctl_add result, owner uid seen
 * inside, owner uid seen outside is left to the parent, version result.
 */
static int userns_main(void *arg, int rd, int wr)
{
	const char *dir = arg;
	struct mnt m;
	struct stat st;
	char map[32];
	int ret;

	(void)rd;
	bt_require(setgroups(0, NULL) == 0 && setresgid(1000, 1000, 1000) == 0 &&
			   setresuid(1000, 1000, 1000) == 0,
		   "drop to uid 1000");
	/* the uid change made /proc/self root's; the maps are written there */
	bt_require(prctl(PR_SET_DUMPABLE, 1) == 0, "dumpable");
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
		bt_send_u64(wr, (uint64_t)errno);
		return 1;
	}
	bt_send_u64(wr, 0);
	snprintf(map, sizeof(map), "0 %d 1", 1000);
	bt_require(write_str("/proc/self/setgroups", "deny") == 0, "setgroups deny");
	bt_require(write_str("/proc/self/uid_map", map) == 0, "uid_map");
	bt_require(write_str("/proc/self/gid_map", map) == 0, "gid_map");
	bt_require(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0, "private /");
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	ret = mount("ctx", m.dir, fs_type(), 0, "stats=global") ? -errno : 0;
	if (!ret)
		umount2(m.dir, MNT_DETACH);
	bt_send_u64(wr, (uint64_t)(int64_t)ret);
	ret = mount("ctx", m.dir, fs_type(), 0, "max=4") ? -errno : 0;
	bt_send_u64(wr, (uint64_t)(int64_t)ret);
	if (ret)
		return 0;
	ret = ctl_add(&m, "inside", NULL);
	bt_send_u64(wr, (uint64_t)(int64_t)ret);
	ret = stat(path_in(&m, "inside"), &st) ? -errno : (int)st.st_uid;
	bt_send_u64(wr, (uint64_t)(int64_t)ret);
	bt_send_u64(wr, (uint64_t)(int64_t)version_of(path_in(&m, "inside")));
	/* wait for the parent to look from outside, then leave */
	uint64_t v;

	bt_recv_u64(rd, &v, BT_TIMEOUT_MS);
	return 0;
}

Test(binderfs, unprivileged_user_namespace_mount)
{
	char dir[64] = "/tmp/binderfs-userns.XXXXXX", path[600];
	uint64_t v[5];
	struct bt_child ch;
	struct stat st;
	int ret;

	char clone[16] = "-", max_ns[16] = "-";

	need_fs();
	cr_assert_not_null(mkdtemp(dir));
	chmod(dir, 0777);
	/* Debian's switch for unprivileged user namespaces: on, in this guest */
	bool flipped = read_file("/proc/sys/kernel/unprivileged_userns_clone", clone,
				 sizeof(clone)) && clone[0] == '0' &&
		       write_str("/proc/sys/kernel/unprivileged_userns_clone", "1") == 0;

	ret = bt_spawn_ready(&ch, userns_main, dir, BT_TIMEOUT_MS);
	if (flipped) /* the child has its namespace (or failed): switch back */
		write_str("/proc/sys/kernel/unprivileged_userns_clone", "0");
	if (ret == -EPERM || ret == -EINVAL || ret == -ENOSPC) {
		read_file("/proc/sys/kernel/unprivileged_userns_clone", clone, sizeof(clone));
		read_file("/proc/sys/user/max_user_namespaces", max_ns, sizeof(max_ns));
		clone[strcspn(clone, "\n")] = max_ns[strcspn(max_ns, "\n")] = '\0';
		cr_skip_test("no unprivileged user namespaces here: %s "
			     "(unprivileged_userns_clone %s, max_user_namespaces %s)",
			     strerror(-ret), clone, max_ns);
	}
	cr_assert_eq(ret, 0, "helper: %s", strerror(-ret));
	for (int i = 0; i < 5; i++) {
		cr_assert_eq(bt_recv_u64(ch.from_child, &v[i], BT_TIMEOUT_MS), 0, "step %d", i);
		if (i == 1 && v[1])
			break;
	}
	cr_expect_eq((int64_t)v[0], -EPERM, "stats=global needs CAP_SYS_ADMIN in the initial namespace");
	cr_assert_eq((int64_t)v[1], 0, "mount in a user namespace: %s", strerror(-(int)v[1]));
	cr_expect_eq((int64_t)v[2], 0, "BINDER_CTL_ADD as the namespace's root");
	cr_expect_eq((int64_t)v[3], 0, "the node belongs to the namespace's root (uid 0 inside)");
	cr_expect_eq((int64_t)v[4], BINDER_CURRENT_PROTOCOL_VERSION, "the device works");
	/* from outside: owned by uid 1000, the namespace's root */
	snprintf(path, sizeof(path), "/proc/%d/root%s/inside", (int)ch.pid, dir);
	cr_expect_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	cr_expect_eq(st.st_uid, 1000, "owner seen from outside");
	cr_expect_eq(st.st_gid, 1000);
	cr_expect_eq(st.st_mode & 07777, 0600);
	snprintf(path, sizeof(path), "/proc/%d/root%s/binder-control", (int)ch.pid, dir);
	cr_expect_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_uid, 1000, "binder-control owned by the namespace's root");
	bt_send_u64(ch.to_child, 1);
	cr_expect_eq(bt_join(&ch, BT_TIMEOUT_MS), 0);
	rmdir(dir);
}

/* (helper) as uid 1001, with no namespace of its own: open the nodes. */
static int stranger_main(void *arg, int rd, int wr)
{
	const struct mnt *m = arg;
	int fd;

	(void)rd;
	bt_require(setgroups(0, NULL) == 0 && setresgid(1001, 1001, 1001) == 0 &&
			   setresuid(1001, 1001, 1001) == 0,
		   "drop to uid 1001");
	bt_send_u64(wr, 0);
	bt_send_u64(wr, (uint64_t)(int64_t)version_of(path_in(m, "private")));
	fd = open(path_in(m, "binder-control"), O_RDWR | O_CLOEXEC);
	bt_send_u64(wr, (uint64_t)(int64_t)(fd < 0 ? -errno : 0));
	return 0;
}

Test(binderfs, another_user_cannot_open_nodes)
{
	struct bt_child ch;
	uint64_t v;
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	cr_assert_eq(ctl_add(&m, "private", NULL), 0);
	cr_assert_eq(bt_spawn_ready(&ch, stranger_main, &m, BT_TIMEOUT_MS), 0);
	cr_assert_eq(bt_recv_u64(ch.from_child, &v, BT_TIMEOUT_MS), 0);
	cr_expect_eq((int64_t)v, -EACCES, "uid 1001 opens a 0600 root device");
	cr_assert_eq(bt_recv_u64(ch.from_child, &v, BT_TIMEOUT_MS), 0);
	cr_expect_eq((int64_t)v, -EACCES, "uid 1001 opens binder-control");
	cr_expect_eq(bt_join(&ch, BT_TIMEOUT_MS), 0);
	unmount(&m);
}

/* ---- isolation -------------------------------------------------------------- */

Test(binderfs, two_mounts_are_two_contexts)
{
	struct bt_conn owner, ca, cb;
	struct bt_child cma, cmb;
	struct mnt a, b;
	uint32_t h = 0, hb = 0;
	int64_t t0 = th_now_ms();

	need_fs();
	mount_or_fail(&a, NULL);
	mount_or_fail(&b, NULL);
	cr_assert_eq(ctl_add(&a, "ctx", NULL), 0);
	cr_assert_eq(ctl_add(&b, "ctx", NULL), 0);
	cr_assert_eq(bt_cm_start_on(&cma, path_in(&a, "ctx")), 0, "manager on a");
	cr_assert_eq(bt_cm_start_on(&cmb, path_in(&b, "ctx")), 0,
		     "manager on b, while a has one");
	cr_assert_eq(bt_open_at(&owner, path_in(&a, "ctx"), BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_open_at(&ca, path_in(&a, "ctx"), BT_VM_SIZE_DEFAULT), 0);
	cr_assert_eq(bt_open_at(&cb, path_in(&b, "ctx"), BT_VM_SIZE_DEFAULT), 0);

	struct flat_binder_object o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x1000, 0x2000);

	cr_expect_eq(bt_sm_add(&owner, 3, &o), BR_REPLY, "register in a");
	cr_expect_eq(bt_sm_get(&ca, 3, &h), 0, "found in a");
	cr_expect_neq(h, 0);
	cr_expect_eq(bt_sm_get(&cb, 3, &hb), -ENOENT, "not found in b");
	/* a's handle means nothing in b */
	cr_expect_eq(bt_ping(&cb, h), BR_FAILED_REPLY, "handle %u of a used in b", h);
	cr_expect_eq(bt_ping(&ca, 0), BR_REPLY);
	cr_expect_eq(bt_ping(&cb, 0), BR_REPLY);

	/* a's processes die; b does not notice */
	bt_cm_stop(&cma);
	bt_close(&owner);
	cr_expect_neq(bt_ping(&ca, 0), BR_REPLY, "a's manager is gone");
	cr_expect_eq(bt_ping(&cb, 0), BR_REPLY, "b's manager still answers");
	struct bt_conn ownerb;

	cr_assert_eq(bt_open_at(&ownerb, path_in(&b, "ctx"), BT_VM_SIZE_DEFAULT), 0);
	o = bt_fbo_binder(BINDER_TYPE_BINDER, 0x3000, 0x4000);
	cr_expect_eq(bt_sm_add(&ownerb, 4, &o), BR_REPLY, "b still registers");
	cr_expect_eq(bt_sm_get(&cb, 4, &hb), 0, "and finds");
	cr_expect_neq(hb, 0);
	bt_close(&ownerb);
	/* a fresh manager for a, while b's keeps running */
	cr_assert_eq(bt_cm_start_on(&cma, path_in(&a, "ctx")), 0, "a new manager on a");
	cr_expect_eq(bt_ping(&ca, 0), BR_REPLY);
	fprintf(stderr, "binderfs %s isolation: 2 mounts, 2 managers, 1 killed, %lld ms\n",
		th_driver_name(), (long long)(th_now_ms() - t0));
	bt_cm_stop(&cma);
	bt_cm_stop(&cmb);
	bt_close(&ca);
	bt_close(&cb);
	unmount(&a);
	unmount(&b);
}

/* ---- stress --------------------------------------------------------------- */

#define MANY 1000

Test(binderfs, stress_a_thousand_devices)
{
	char name[32];
	int64_t t0, t1, t2;
	int base = module_refcnt();
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	t0 = th_now_ms();
	for (int i = 0; i < MANY; i++) {
		snprintf(name, sizeof(name), "dev%d", i);
		cr_assert_eq(ctl_add(&m, name, NULL), 0, "device %d", i);
	}
	t1 = th_now_ms();
	cr_expect_eq(count_entries(m.dir), MANY + 2 + defaults());
	for (int i = 0; i < MANY; i++) {
		snprintf(name, sizeof(name), "dev%d", i);
		cr_assert_eq(version_of(path_in(&m, name)), BINDER_CURRENT_PROTOCOL_VERSION,
			     "device %d", i);
	}
	t2 = th_now_ms();
	for (int i = 0; i < MANY; i += 2) {
		snprintf(name, sizeof(name), "dev%d", i);
		cr_assert_eq(unlink(path_in(&m, name)), 0);
	}
	cr_expect_eq(count_entries(m.dir), MANY / 2 + 2 + defaults());
	fprintf(stderr,
		"binderfs %s stress: %d devices created in %lld ms, each opened in %lld ms, "
		"%d unlinked in %lld ms, the rest with the mount\n",
		th_driver_name(), MANY, (long long)(t1 - t0), (long long)(t2 - t1), MANY / 2,
		(long long)(th_now_ms() - t2));
	unmount(&m);
	cr_expect_eq(refcnt_settles(base), base, "module refcount back after umount");
}

#define BUSY_THREADS 8
#define BUSY_DEVICES 4

struct busy {
	int fd;
	const char *path;        /* a device with a manager: also ping it */
	atomic_bool *stop;
	atomic_int *started;     /* counts threads past their open */
	long ops, errors;
};

static void *busy_main(void *arg)
{
	struct busy *b = arg;
	struct bt_conn c;
	bool pinging = b->path && bt_open_at(&c, b->path, BT_VM_SIZE_DEFAULT) == 0;

	atomic_fetch_add(b->started, 1);
	while (!atomic_load(b->stop)) {
		struct binder_version v = { 0 };
		uint32_t max = 4;

		if (bt_ioctl(b->fd, BINDER_VERSION, &v) ||
		    bt_ioctl(b->fd, BINDER_SET_MAX_THREADS, &max))
			b->errors++;
		if (pinging && bt_ping(&c, 0) != BR_REPLY)
			b->errors++;
		b->ops += pinging ? 3 : 2;
	}
	if (pinging)
		bt_close(&c);
	return NULL;
}

Test(binderfs, stress_detach_while_busy)
{
	struct busy busy[BUSY_THREADS];
	pthread_t th[BUSY_THREADS];
	atomic_bool stop = false;
	atomic_int started = 0;
	char name[16], mgr_path[512];
	int base = module_refcnt();
	struct bt_child cm;
	long ops = 0, errors = 0;
	int64_t t0, t1;
	struct mnt m;

	need_fs();
	mount_or_fail(&m, NULL);
	for (int i = 0; i < BUSY_DEVICES; i++) {
		snprintf(name, sizeof(name), "busy%d", i);
		cr_assert_eq(ctl_add(&m, name, NULL), 0);
	}
	snprintf(mgr_path, sizeof(mgr_path), "%s", path_in(&m, "busy0"));
	cr_assert_eq(bt_cm_start_on(&cm, mgr_path), 0);
	for (int i = 0; i < BUSY_THREADS; i++) {
		snprintf(name, sizeof(name), "busy%d", i % BUSY_DEVICES);
		busy[i] = (struct busy){ .stop = &stop, .started = &started };
		busy[i].fd = open(path_in(&m, name), O_RDWR | O_CLOEXEC);
		cr_assert_geq(busy[i].fd, 0);
		busy[i].path = i % BUSY_DEVICES == 0 ? mgr_path : NULL;
	}
	/* the pinging threads open the device themselves, before the detach */
	for (int i = 0; i < BUSY_THREADS; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, busy_main, &busy[i]), 0);
	/* every thread is past its open (no fixed delay: a slow guest may
	 * need longer); a hang-catcher, after which the test goes on anyway */
	for (int64_t end = th_now_ms() + TH_HANG_MS;
	     atomic_load(&started) < BUSY_THREADS && th_nap_until(end);)
		;
	t0 = th_now_ms();
	cr_assert_eq(umount2(m.dir, MNT_DETACH), 0, "umount2(MNT_DETACH): %s", strerror(errno));
	cr_expect_eq(access(path_in(&m, "busy1"), F_OK), -1, "the mount is gone from the tree");
	/* unlinks after the detach are not possible: the files keep working.
	 * A second of load, not a verdict: fewer ops on a slow guest */
	usleep(1000000);
	atomic_store(&stop, true);
	for (int i = 0; i < BUSY_THREADS; i++) {
		pthread_join(th[i], NULL);
		ops += busy[i].ops;
		errors += busy[i].errors;
	}
	t1 = th_now_ms();
	cr_expect_gt(module_refcnt(), base, "the detached mount still pins the module");
	bt_cm_stop(&cm);
	for (int i = 0; i < BUSY_THREADS; i++)
		close(busy[i].fd);
	cr_expect_eq(errors, 0, "ioctls failed on a detached mount");
	cr_expect_eq(refcnt_settles(base), base, "module refcount back after the last close");
	fprintf(stderr,
		"binderfs %s stress: MNT_DETACH under %d threads on %d devices (1 with a manager): "
		"%ld ioctls and pings in %lld ms after the detach, %ld errors\n",
		th_driver_name(), BUSY_THREADS, BUSY_DEVICES, ops, (long long)(t1 - t0), errors);
	rmdir(m.dir);
}

#define CHURN_PROCS 4
#define CHURN_ROUNDS 40

/* (helper) mount, add, open, remove, unmount, over and over: sends ops */
static int churn_main(void *arg, int rd, int wr)
{
	uint64_t ops = 0;

	(void)arg;
	(void)rd;
	bt_send_u64(wr, 0);
	for (int r = 0; r < CHURN_ROUNDS; r++) {
		struct mnt m;
		int fd;

		bt_require(do_mount(&m, r % 2 ? max_opt("", 3) : NULL) == 0, "mount");
		bt_require(ctl_add(&m, "a", NULL) == 0 && ctl_add(&m, "b", NULL) == 0 &&
				   ctl_add(&m, "c", NULL) == 0,
			   "add");
		bt_require(version_of(path_in(&m, "b")) == BINDER_CURRENT_PROTOCOL_VERSION, "use");
		fd = open(path_in(&m, "a"), O_RDWR | O_CLOEXEC);
		bt_require(fd >= 0, "open");
		bt_require(unlink(path_in(&m, "a")) == 0 && unlink(path_in(&m, "c")) == 0, "unlink");
		bt_require(ctl_add(&m, "a", NULL) == 0, "add again");
		if (r % 2) {
			bt_require(umount2(m.dir, MNT_DETACH) == 0, "detach");
			bt_require(ioctl(fd, BINDER_VERSION, &(struct binder_version){ 0 }) == 0,
				   "use after detach");
			close(fd);
		} else {
			close(fd);
			bt_require(umount2(m.dir, 0) == 0, "umount");
		}
		rmdir(m.dir);
		ops += 10;
	}
	bt_send_u64(wr, ops);
	return 0;
}

Test(binderfs, stress_concurrent_mounts)
{
	struct bt_child ch[CHURN_PROCS];
	uint64_t ops = 0, v = 0;
	int base = module_refcnt();
	int64_t t0;

	need_fs();
	defaults(); /* known before the helpers fork */
	t0 = th_now_ms();
	for (int i = 0; i < CHURN_PROCS; i++)
		cr_assert_eq(bt_spawn_ready(&ch[i], churn_main, NULL, BT_TIMEOUT_MS), 0);
	for (int i = 0; i < CHURN_PROCS; i++) {
		v = 0;
		cr_expect_eq(bt_recv_u64(ch[i].from_child, &v, 120000), 0, "churner %d", i);
		ops += v;
		cr_expect_eq(bt_join(&ch[i], BT_TIMEOUT_MS), 0, "churner %d", i);
	}
	fprintf(stderr,
		"binderfs %s stress: %d processes x %d rounds of mount/add/open/unlink/umount: "
		"%llu operations in %lld ms\n",
		th_driver_name(), CHURN_PROCS, CHURN_ROUNDS, (unsigned long long)ops,
		(long long)(th_now_ms() - t0));
	cr_expect_eq(ops, (uint64_t)CHURN_PROCS * CHURN_ROUNDS * 10);
	cr_expect_eq(refcnt_settles(base), base, "module refcount back");
}

/* ---- the binder tool -------------------------------------------------------- */

static int run_tool(char *out, size_t size, char *const argv[])
{
	int p[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	cr_assert_eq(pipe(p), 0);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (len + 1 < size && (n = read(p[0], out + len, size - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

Test(binderfs, binder_tool_mkdev)
{
	char out[4096], tool[] = "build/guest/bin/binder";
	struct stat st;
	struct mnt m;

	need_fs();
	cr_assert_eq(access(tool, X_OK), 0, "%s (run from the checkout)", tool);
	mount_or_fail(&m, NULL);
	char *argv[] = { tool, "mkdev", m.dir, "mybinder", "hwbinder", "vndbinder", NULL };

	cr_expect_eq(run_tool(out, sizeof(out), argv), 0, "%s", out);
	for (int i = 3; i < 6; i++) {
		char want[600];

		cr_expect_eq(stat(path_in(&m, argv[i]), &st), 0, "%s made", argv[i]);
		snprintf(want, sizeof(want), "created %s/%s (device %u:%u)", m.dir, argv[i],
			 major(st.st_rdev), minor(st.st_rdev));
		cr_expect(strstr(out, want), "output has \"%s\": %s", want, out);
	}
	char *again[] = { tool, "mkdev", m.dir, "hwbinder", NULL };

	cr_expect_eq(run_tool(out, sizeof(out), again), 1, "%s", out);
	cr_expect(strstr(out, "a device of that name exists"), "%s", out);
	char *bad[] = { tool, "mkdev", "/tmp", "x", NULL };

	cr_expect_eq(run_tool(out, sizeof(out), bad), 3, "not a binderfs mount: %s", out);
	unmount(&m);
}
