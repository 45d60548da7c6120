// SPDX-License-Identifier: MIT
/*
 * binderc.ko loads and unloads cleanly, repeatedly, and cannot be unloaded
 * while a file is open on it.  Runs once per guest (not per device): it
 * takes binderc down and brings it back with the devices run-guest gave it.
 * guest-init checks the kernel log afterwards.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/android/binder.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MODULE_PATH "/lib/binderc/binderc.ko"

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
	}
	load("devices=binderc");
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
	int fd = open(MODULE_PATH, O_RDONLY | O_CLOEXEC);

	cr_assert(fd >= 0);
	/* An empty name in the list, and a duplicate, are both refused. */
	cr_assert_eq(syscall(SYS_finit_module, fd, "devices=binderc,,x", 0), -1);
	cr_assert_eq(syscall(SYS_finit_module, fd, "devices=binderc,binderc", 0), -1);
	cr_assert_eq(loaded(), 0);
	close(fd);
	load("devices=binderc");
}
