// SPDX-License-Identifier: MIT
/*
 * The first guest suite: the device answers BINDER_VERSION with protocol 8
 * and rejects what it does not know, on whichever device BINDER_DEVICE
 * names (run-suite runs it on /dev/binder and /dev/binderc).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <uapi/binder.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "harness.h"

static int open_device(void)
{
	int fd = open(th_device(), O_RDWR | O_CLOEXEC);

	cr_assert(fd >= 0, "open %s: %s", th_device(), strerror(errno));
	return fd;
}

Test(version, is_protocol_8)
{
	struct binder_version v = { .protocol_version = -1 };
	int fd = open_device();

	cr_assert_eq(ioctl(fd, BINDER_VERSION, &v), 0, "%s", strerror(errno));
	cr_assert_eq(v.protocol_version, BINDER_CURRENT_PROTOCOL_VERSION);
	cr_assert_eq(v.protocol_version, 8);
	close(fd);
}

Test(version, null_pointer_is_einval)
{
	int fd = open_device();

	/* Mainline maps a failed put_user to -EINVAL, not -EFAULT. */
	cr_assert_eq(ioctl(fd, BINDER_VERSION, NULL), -1);
	cr_assert_eq(errno, EINVAL);
	close(fd);
}

Test(version, unknown_ioctl_is_einval)
{
	int fd = open_device();
	int arg = 0;

	cr_assert_eq(ioctl(fd, _IOW('b', 99, int), &arg), -1);
	cr_assert_eq(errno, EINVAL);
	/* Defined but unimplemented by mainline: BINDER_SET_IDLE_PRIORITY. */
	cr_assert_eq(ioctl(fd, BINDER_SET_IDLE_PRIORITY, &arg), -1);
	cr_assert_eq(errno, EINVAL);
	close(fd);
}

Test(version, open_many_and_close)
{
	int fds[64];

	for (int i = 0; i < 64; i++)
		fds[i] = open_device();
	for (int i = 0; i < 64; i++)
		cr_assert_eq(close(fds[i]), 0);
}
