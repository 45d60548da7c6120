/* SPDX-License-Identifier: MIT */
/*
 * uapi/binder_netlink.h - binder's transaction reports over generic
 * netlink (Linux 6.18: one family, one multicast group, one command) for
 * everything of this tree that runs in user space.
 *
 * Why a copy: systems before 6.18 have no <linux/android/binder_netlink.h>,
 * and the driver's driver/binder_netlink_uapi.h is GPL-2.0-only while user
 * space is MIT.  Names and numbers are mainline's, so code written against
 * the kernel's header reads the same here; scripts/check-style ('uapi')
 * compares every value with the driver's copy.
 *
 * It defines the kernel header's guard, so a later #include of that
 * header is a no-op; included after it, it refuses to build.
 */
#ifndef BINDERC_UAPI_BINDER_NETLINK_H
#define BINDERC_UAPI_BINDER_NETLINK_H

#ifdef _UAPI_LINUX_ANDROID_BINDER_NETLINK_H
#error "<linux/android/binder_netlink.h> was included before <uapi/binder_netlink.h>"
#endif
#define _UAPI_LINUX_ANDROID_BINDER_NETLINK_H

/* The family mainline registers (binderc's driver also offers "binderc"). */
#define BINDER_FAMILY_NAME "binder"
#define BINDER_FAMILY_VERSION 1

/* A report's attributes: u32 values, but the context name (a string) and
 * is_reply (present or not). */
enum {
	BINDER_A_REPORT_ERROR = 1, /* the BR_ code the sender was given */
	BINDER_A_REPORT_CONTEXT,
	BINDER_A_REPORT_FROM_PID,
	BINDER_A_REPORT_FROM_TID,
	BINDER_A_REPORT_TO_PID, /* left out while no target is known */
	BINDER_A_REPORT_TO_TID, /* left out unless a thread was picked */
	BINDER_A_REPORT_IS_REPLY,
	BINDER_A_REPORT_FLAGS, /* TF_ flags */
	BINDER_A_REPORT_CODE,
	BINDER_A_REPORT_DATA_SIZE,

	__BINDER_A_REPORT_MAX,
	BINDER_A_REPORT_MAX = (__BINDER_A_REPORT_MAX - 1)
};

/* Reports are only multicast; there is nothing to ask. */
enum {
	BINDER_CMD_REPORT = 1,

	__BINDER_CMD_MAX,
	BINDER_CMD_MAX = (__BINDER_CMD_MAX - 1)
};

#define BINDER_MCGRP_REPORT "report"

#endif
