// SPDX-License-Identifier: MIT
/*
 * binderc.ko loads and unloads cleanly, repeatedly, and cannot be unloaded
 * while a file is open on it; its device nodes get the mode= and group= it
 * was loaded with.  Runs once per guest (not per device): each test takes
 * binderc down and its .fini brings it back with the parameters the guest
 * loaded it with (read from /sys/module/binderc/parameters, kept in a file
 * since every test runs in a process of its own, forked by the runner).
 * guest-init checks the kernel log afterwards.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <uapi/binder.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_PATH "/lib/binderc/binderc.ko"
#define PARAMS_DIR  "/sys/module/binderc/parameters"

static void load(const char *params)
{
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);

	cr_assert(fd >= 0, "open %s: %s", MODULE_PATH, strerror(errno));
	cr_assert_eq(syscall(SYS_finit_module, fd, params, 0), 0,
		     "finit_module: %s", strerror(errno));
	close(fd);
}

static int unload(void)
{
	return syscall(SYS_delete_module, "binderc", O_NONBLOCK);
}

/* finit_module with params: 0 or -errno, for loads meant to fail */
static int try_load(const char *params)
{
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC), ret;

	cr_assert(fd >= 0, "open %s: %s", MODULE_PATH, strerror(errno));
	ret = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return ret;
}

/* One parameter of the loaded module, without the newline. */
static void param(const char *name, char *buf, size_t len)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), PARAMS_DIR "/%s", name);
	f = fopen(path, "re");
	cr_assert(f, "%s: %s", path, strerror(errno));
	cr_assert(fgets(buf, (int)len, f), "%s: empty", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

/* The loaded module's parameters, as a finit_module argument. */
static void current_params(char *buf, size_t len)
{
	char devices[256], mode[16], group[16];

	param("devices", devices, sizeof(devices));
	param("mode", mode, sizeof(mode));
	param("group", group, sizeof(group));
	snprintf(buf, len, "devices=%s mode=%s group=%s", devices, mode, group);
}

static int version_of(const char *path)
{
	struct binder_version v = { 0 };
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BINDER_VERSION, &v) < 0)
		v.protocol_version = -errno;
	close(fd);
	return v.protocol_version;
}

static int loaded(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "re");
	int found = 0;

	cr_assert(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "binderc ", 8))
			found = 1;
	fclose(f);
	return found;
}

static char saved[512];

/* .init: what the guest loaded, saved before any test unloads it (the
 * first test's copy; a later test may find binderc already changed). */
static void save_params(void)
{
	char path[64];
	FILE *f;

	/* one file per run: the runner is every test's parent */
	snprintf(path, sizeof(path), "/tmp/test_module.params.%d", (int)getppid());
	f = fopen(path, "re");
	if (f) {
		cr_assert(fgets(saved, sizeof(saved), f), "%s: empty", path);
		fclose(f);
		return;
	}
	cr_assert(loaded(), "binderc is not loaded at the first test");
	current_params(saved, sizeof(saved));
	f = fopen(path, "we");
	cr_assert(f && fputs(saved, f) >= 0 && fclose(f) == 0, "%s: %s", path, strerror(errno));
}

/* .fini: binderc loaded again with what the guest gave it, whatever the
 * test left (also after a failed assert). */
static void restore_params(void)
{
	char now[512];

	if (loaded()) {
		current_params(now, sizeof(now));
		if (!strcmp(now, saved))
			return;
		cr_assert_eq(unload(), 0, "unload to restore: %s", strerror(errno));
	}
	load(saved);
}

TestSuite(module, .init = save_params, .fini = restore_params);

Test(module, load_unload_50_times, .timeout = 600)
{
	if (loaded())
		cr_assert_eq(unload(), 0, "initial unload: %s", strerror(errno));
	for (int i = 0; i < 50; i++) {
		load("devices=binderc,binderc-a,binderc-b");
		cr_assert_eq(version_of("/dev/binderc"), 8, "round %d", i);
		cr_assert_eq(version_of("/dev/binderc-b"), 8, "round %d", i);
		cr_assert_eq(unload(), 0, "round %d: %s", i, strerror(errno));
		cr_assert_eq(access("/dev/binderc", F_OK), -1);
		cr_assert_eq(access("/sys/class/binderc", F_OK), -1, "round %d: class left", i);
	}
}

Test(module, busy_while_open)
{
	int fd = open("/dev/binderc", O_RDWR | O_CLOEXEC);

	cr_assert(fd >= 0, "open: %s", strerror(errno));
	cr_assert_eq(unload(), -1);
	cr_assert_eq(errno, EWOULDBLOCK);
	close(fd);
	cr_assert(loaded());
}

Test(module, bad_device_names_refused)
{
	cr_assert_eq(unload(), 0, "%s", strerror(errno));
	/* An empty name in the list, and a duplicate, are both refused as bad
	 * parameters (a duplicate is not -EEXIST, which modprobe would take
	 * for "already loaded"). */
	cr_assert_eq(try_load("devices=binderc,,x"), -EINVAL);
	cr_assert_eq(try_load("devices=binderc,binderc"), -EINVAL);
	cr_assert_eq(loaded(), 0);
	cr_assert_eq(access("/dev/binderc", F_OK), -1, "node left");
	cr_assert_eq(access("/sys/class/binderc", F_OK), -1, "class left");
}

/* A device node as devtmpfs made it: a char device, mode, owner, group. */
static void assert_node(const char *name, mode_t mode, gid_t gid)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/dev/%s", name);
	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	cr_assert(S_ISCHR(st.st_mode), "%s is not a char device", path);
	cr_assert_eq(st.st_mode & 07777, mode, "%s: mode %04o, want %04o", path,
		     st.st_mode & 07777, mode);
	cr_assert_eq(st.st_uid, 0, "%s: owner %u", path, st.st_uid);
	cr_assert_eq(st.st_gid, gid, "%s: group %u, want %u", path, st.st_gid, gid);
	/* a device of binderc's own class, not a misc device */
	snprintf(path, sizeof(path), "/sys/class/binderc/%s", name);
	cr_assert_eq(access(path, F_OK), 0, "%s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "/dev/%s", name);
	cr_assert_eq(version_of(path), 8, "%s", path);
}

static void assert_param(const char *name, const char *want)
{
	char v[64];

	param(name, v, sizeof(v));
	cr_assert_str_eq(v, want, "parameter %s", name);
}

/* Reload with params (devices binderc and binderc-x): both nodes and the
 * parameters read back must say mode and gid. */
static void reload_and_check(const char *params, mode_t mode, gid_t gid)
{
	char want[16];

	if (loaded())
		cr_assert_eq(unload(), 0, "%s", strerror(errno));
	load(params);
	assert_node("binderc", mode, gid);
	assert_node("binderc-x", mode, gid);
	snprintf(want, sizeof(want), "%04o", mode);
	assert_param("mode", want);
	snprintf(want, sizeof(want), "%u", gid);
	assert_param("group", want);
	assert_param("devices", "binderc,binderc-x");
}

Test(module, default_mode_is_0600_root)
{
	reload_and_check("devices=binderc,binderc-x", 0600, 0);
}

Test(module, mode_and_group_params)
{
	reload_and_check("devices=binderc,binderc-x mode=0660 group=2000", 0660, 2000);
	/* any subset of 0666 */
	reload_and_check("devices=binderc,binderc-x mode=0444", 0444, 0);
}

Test(module, bad_mode_or_group_refused)
{
	/* execute, sticky, setuid bits; not octal; no such gid */
	static const char *const bad[] = {
		"mode=0777", "mode=01666", "mode=0700", "mode=04660", "mode=0668",
		"group=4294967295",
	};
	char params[128];

	cr_assert_eq(unload(), 0, "%s", strerror(errno));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(params, sizeof(params), "devices=binderc %s", bad[i]);
		cr_assert_eq(try_load(params), -EINVAL, "%s", params);
		/* and nothing left behind */
		cr_assert_eq(loaded(), 0, "%s", params);
		cr_assert_eq(access("/dev/binderc", F_OK), -1, "%s: node left", params);
		cr_assert_eq(access("/sys/class/binderc", F_OK), -1, "%s: class left", params);
	}
}


/*
 * report_family= names the generic netlink family of the transaction
 * reports: binder or binderc, nothing else; it reads back as the family
 * registered.  Auto (the guest's load) takes "binder" when free before
 * 6.18, and "binderc" from 6.18 on (that kernel's binder needs "binder").
 */
Test(module, report_family_param)
{
	char fam[32];

	param("report_family", fam, sizeof(fam));
	cr_assert(!strcmp(fam, "binder") || !strcmp(fam, "binderc"), "report_family %s", fam);
	cr_assert_eq(unload(), 0, "%s", strerror(errno));
	cr_assert_eq(try_load("devices=binderc-x report_family=nonsense"), -EINVAL);
	cr_assert_eq(loaded(), 0);
	cr_assert_eq(access("/dev/binderc-x", F_OK), -1, "node left");
	/* its own name is always free while it is not loaded */
	load("devices=binderc-x report_family=binderc");
	param("report_family", fam, sizeof(fam));
	cr_assert_str_eq(fam, "binderc");
	cr_assert_eq(unload(), 0, "%s", strerror(errno));
	/* and released at unload: the next load can take it again */
	load("devices=binderc-x report_family=binderc");
	cr_assert_eq(unload(), 0, "%s", strerror(errno));
}
