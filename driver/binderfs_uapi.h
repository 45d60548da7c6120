/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: binderfs's user interface, as mainline's
 * include/uapi/linux/android/binderfs.h defines it (same names, values and
 * layout).  Kept here for the reason binder_uapi.h is: the kernel's header
 * includes its own <linux/android/binder.h>, which must never meet ours.
 */
#ifndef BINDERC_BINDERFS_UAPI_H
#define BINDERC_BINDERFS_UAPI_H

#ifdef _UAPI_LINUX_BINDERFS_H
#error "<linux/android/binderfs.h> was included before binderfs_uapi.h"
#endif
#define _UAPI_LINUX_BINDERFS_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define BINDERFS_MAX_NAME 255

/* BINDER_CTL_ADD: name in, major and minor of the new device out. */
struct binderfs_device {
	char name[BINDERFS_MAX_NAME + 1];
	__u32 major;
	__u32 minor;
};

#define BINDER_CTL_ADD _IOWR('b', 1, struct binderfs_device)

#endif /* BINDERC_BINDERFS_UAPI_H */
