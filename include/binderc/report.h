/* SPDX-License-Identifier: MIT */
/*
 * binderc/report.h - listen to the kernel's binder transaction reports.
 *
 * Since Linux 6.18 the binder driver multicasts one generic netlink
 * message for every failed transaction or reply, and for every oneway call
 * that was queued to a frozen process or looks like spam (the family
 * "binder", group "report").  binderc sends the same reports, on "binder"
 * where that name is free and on "binderc" where the mainline driver holds
 * it.  A listener needs no privilege, only the initial network namespace.
 *
 *	bc_report_listener *l;
 *	struct bc_report r;
 *
 *	if (bc_report_listener_new(NULL, &l) == 0)
 *		while (bc_report_listener_read(l, &r, -1) != -EBADF)
 *			printf("%s\n", bc_report_error_name(r.error));
 *
 * The listener is a non-blocking socket (bc_report_listener_get_fd() for
 * poll); reports wait in its receive buffer, and only what overflows that
 * buffer is lost, which the next read says once with -ENOBUFS.
 */
#ifndef BINDERC_REPORT_H
#define BINDERC_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One report; every field as the kernel sent it. */
struct bc_report {
	uint32_t error;	     /* the BR_* code the sender got (BR_DEAD_REPLY, ...) */
	char family[16];     /* the family it came on: "binder" or "binderc" */
	char context[256];   /* the binder context: the device's name */
	int32_t from_pid;    /* the sender (process and thread) */
	int32_t from_tid;
	int32_t to_pid;	     /* the target; 0 when the report leaves it out */
	int32_t to_tid;	     /* (not known yet, or no thread chosen) */
	bool is_reply;	     /* a BC_REPLY, not a call */
	uint32_t flags;	     /* TF_* of the transaction (TF_ONE_WAY is 0x01) */
	uint32_t code;
	uint32_t data_size;
};

typedef struct bc_report_listener bc_report_listener;

/*
 * Join the report group of @family ("binder" or "binderc"), or with NULL
 * of each of the two that is registered.  0, -ENOENT if the family (none
 * of them) is registered, or another -errno.
 */
int bc_report_listener_new(const char *family, bc_report_listener **ret);
bc_report_listener *bc_report_listener_ref(bc_report_listener *l);
bc_report_listener *bc_report_listener_unref(bc_report_listener *l);

/* The socket, to poll for POLLIN; reading is bc_report_listener_read()'s. */
int bc_report_listener_get_fd(const bc_report_listener *l);
/* The families joined, 1 or 2, and their names. */
size_t bc_report_listener_get_n_families(const bc_report_listener *l);
const char *bc_report_listener_get_family(const bc_report_listener *l, size_t i);

/*
 * The next report into *r.  Waits up to @timeout_ms (0: not at all, -1:
 * for ever).  0, -EAGAIN when none came, -ENOBUFS when reports were lost
 * because the receive buffer was full (once; the next read goes on with
 * what the buffer held), -EINTR, or another -errno.  Messages that are
 * not reports are skipped.
 */
int bc_report_listener_read(bc_report_listener *l, struct bc_report *r, int timeout_ms);

/* "BR_FAILED_REPLY" for its code; NULL for a code that is no BR_*. */
const char *bc_report_error_name(uint32_t error);
/* What the report means, in words ("the target process is dead"). */
const char *bc_report_describe(const struct bc_report *r);

#ifdef __cplusplus
}
#endif

#endif
