/* SPDX-License-Identifier: MIT */
/* libbinder-c/report_internal.h - report.c's parser, for the unit tests. */
#ifndef BINDERC_REPORT_INTERNAL_H
#define BINDERC_REPORT_INTERNAL_H

#include <linux/netlink.h>

#include <binderc/report.h>

/*
 * Fill *r from one generic netlink message of @family whose nlmsg_len the
 * caller checked against what it received (NLMSG_OK).  0, or -EPROTO if
 * it is no report (another command, no error or sender attribute).
 * Attributes that overrun the message end the walk; unknown ones are
 * skipped; the context is cut to fit and always NUL-terminated.
 */
int bc__report_parse(const struct nlmsghdr *h, const char *family, struct bc_report *r);

#endif
