/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: the transaction-report interface over generic netlink, as
 * Linux 6.18 defines it (Documentation/netlink/specs/binder.yaml,
 * include/uapi/linux/android/binder_netlink.h): the names and numbers
 * below match mainline's, so a listener written for mainline reads
 * binderc's reports unchanged.  Kernels before 6.18 have no such header.
 *
 * The kernel's header is guarded by _UAPI_LINUX_ANDROID_BINDER_NETLINK_H;
 * defining that guard here keeps a later #include of it from redefining
 * the enums, and a header that came first stops the build.
 */
#ifndef BINDERC_BINDER_NETLINK_UAPI_H
#define BINDERC_BINDER_NETLINK_UAPI_H

#ifdef _UAPI_LINUX_ANDROID_BINDER_NETLINK_H
#error "<linux/android/binder_netlink.h> was included before binder_netlink_uapi.h"
#endif
#define _UAPI_LINUX_ANDROID_BINDER_NETLINK_H

/* The family mainline registers; binderc falls back to "binderc". */
#define BINDER_FAMILY_NAME	"binder"
#define BINDER_FAMILY_VERSION	1

/* Attributes of one report (all u32 but context, a string, and is_reply). */
enum {
	BINDER_A_REPORT_ERROR = 1,	/* the BR_* code the sender got */
	BINDER_A_REPORT_CONTEXT,	/* the binder device's context name */
	BINDER_A_REPORT_FROM_PID,
	BINDER_A_REPORT_FROM_TID,
	BINDER_A_REPORT_TO_PID,		/* absent while the target is unknown */
	BINDER_A_REPORT_TO_TID,		/* absent unless a thread was chosen */
	BINDER_A_REPORT_IS_REPLY,	/* flag: present for a BC_REPLY */
	BINDER_A_REPORT_FLAGS,		/* the transaction's TF_* flags */
	BINDER_A_REPORT_CODE,
	BINDER_A_REPORT_DATA_SIZE,

	__BINDER_A_REPORT_MAX,
	BINDER_A_REPORT_MAX = (__BINDER_A_REPORT_MAX - 1)
};

/* The one command: a report, only ever sent to the multicast group. */
enum {
	BINDER_CMD_REPORT = 1,

	__BINDER_CMD_MAX,
	BINDER_CMD_MAX = (__BINDER_CMD_MAX - 1)
};

#define BINDER_MCGRP_REPORT	"report"

#endif /* BINDERC_BINDER_NETLINK_UAPI_H */
