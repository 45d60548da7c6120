// SPDX-License-Identifier: MIT
/*
 * The transaction-report parser of libbinder-c (report.c) on messages
 * built here: a whole report, one without a target, and the malformed ones
 * a kernel (or anyone able to send on the socket) might produce.  The
 * socket side needs a kernel with the family: tests/driver/test_report.c.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <uapi/binder.h>
#include <uapi/binder_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <binderc/report.h>

#include "report_internal.h"

/* A message being built: netlink and genl headers, then attributes. */
struct msg {
	union {
		struct nlmsghdr h;
		uint32_t align[1024];
	};
	size_t len;
};

static void msg_init(struct msg *m, uint8_t cmd)
{
	struct genlmsghdr *g;

	memset(m, 0, sizeof(*m));
	m->len = NLMSG_LENGTH(GENL_HDRLEN);
	g = NLMSG_DATA(&m->h);
	g->cmd = cmd;
	g->version = BINDER_FAMILY_VERSION;
	m->h.nlmsg_len = (uint32_t)m->len;
}

static void put_attr(struct msg *m, uint16_t type, const void *data, size_t n)
{
	struct nlattr *a = (struct nlattr *)((char *)&m->h + m->len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	if (n)
		memcpy((char *)a + NLA_HDRLEN, data, n);
	m->len += NLA_ALIGN(a->nla_len);
	m->h.nlmsg_len = (uint32_t)m->len;
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put_attr(m, type, &v, sizeof(v));
}


static void full_report(struct msg *m)
{
	msg_init(m, BINDER_CMD_REPORT);
	put_u32(m, BINDER_A_REPORT_ERROR, BR_FAILED_REPLY);
	put_attr(m, BINDER_A_REPORT_CONTEXT, "binderc", 8);
	put_u32(m, BINDER_A_REPORT_FROM_PID, 100);
	put_u32(m, BINDER_A_REPORT_FROM_TID, 101);
	put_u32(m, BINDER_A_REPORT_TO_PID, 200);
	put_u32(m, BINDER_A_REPORT_TO_TID, 201);
	put_attr(m, BINDER_A_REPORT_IS_REPLY, NULL, 0);
	put_u32(m, BINDER_A_REPORT_FLAGS, TF_ONE_WAY);
	put_u32(m, BINDER_A_REPORT_CODE, 0x5f504e47);
	put_u32(m, BINDER_A_REPORT_DATA_SIZE, 96);
}

Test(report_parse, every_field)
{
	struct msg m;
	struct bc_report r;

	full_report(&m);
	cr_assert_eq(bc__report_parse(&m.h, "binderc", &r), 0);
	cr_expect_str_eq(r.family, "binderc");
	cr_expect_eq(r.error, BR_FAILED_REPLY);
	cr_expect_str_eq(r.context, "binderc");
	cr_expect_eq(r.from_pid, 100);
	cr_expect_eq(r.from_tid, 101);
	cr_expect_eq(r.to_pid, 200);
	cr_expect_eq(r.to_tid, 201);
	cr_expect(r.is_reply);
	cr_expect_eq(r.flags, TF_ONE_WAY);
	cr_expect_eq(r.code, 0x5f504e47u);
	cr_expect_eq(r.data_size, 96);
	cr_expect_str_eq(bc_report_error_name(r.error), "BR_FAILED_REPLY");
}

Test(report_parse, target_left_out_reads_as_zero)
{
	struct msg m;
	struct bc_report r;

	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_ERROR, BR_DEAD_REPLY);
	put_u32(&m, BINDER_A_REPORT_FROM_PID, 7);
	cr_assert_eq(bc__report_parse(&m.h, "binder", &r), 0);
	cr_expect_eq(r.to_pid, 0);
	cr_expect_eq(r.to_tid, 0);
	cr_expect(!r.is_reply);
	cr_expect_str_eq(r.context, "");
	cr_expect(strstr(bc_report_describe(&r), "dead"), "%s", bc_report_describe(&r));
}

Test(report_parse, not_a_report)
{
	struct msg m;
	struct bc_report r;

	full_report(&m);
	((struct genlmsghdr *)NLMSG_DATA(&m.h))->cmd = 2;
	cr_expect_eq(bc__report_parse(&m.h, "binder", &r), -EPROTO, "another command");
	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_FROM_PID, 7);
	cr_expect_eq(bc__report_parse(&m.h, "binder", &r), -EPROTO, "no error");
	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_ERROR, BR_DEAD_REPLY);
	cr_expect_eq(bc__report_parse(&m.h, "binder", &r), -EPROTO, "no sender");
	m.h.nlmsg_len = NLMSG_LENGTH(0);
	cr_expect_eq(bc__report_parse(&m.h, "binder", &r), -EPROTO, "no genl header");
}

/* An attribute running past the message ends the walk there. */
Test(report_parse, overrunning_attribute_stops_the_walk)
{
	struct msg m;
	struct bc_report r;

	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_ERROR, BR_FAILED_REPLY);
	put_u32(&m, BINDER_A_REPORT_FROM_PID, 9);
	put_u32(&m, BINDER_A_REPORT_CODE, 5);
	/* claim more than the message holds */
	m.h.nlmsg_len -= 2;
	cr_assert_eq(bc__report_parse(&m.h, "binder", &r), 0);
	cr_expect_eq(r.code, 0, "the cut attribute is not read");
	/* a zero-length attribute header cannot loop */
	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_ERROR, BR_FAILED_REPLY);
	put_u32(&m, BINDER_A_REPORT_FROM_PID, 9);
	put_attr(&m, BINDER_A_REPORT_CODE, NULL, 0);
	((struct nlattr *)((char *)&m.h + m.len - NLA_HDRLEN))->nla_len = 0;
	cr_assert_eq(bc__report_parse(&m.h, "binder", &r), 0);
}

Test(report_parse, context_cut_and_terminated)
{
	static char longname[600];
	struct msg m;
	struct bc_report r;

	memset(longname, 'x', sizeof(longname));
	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_ERROR, BR_FAILED_REPLY);
	put_u32(&m, BINDER_A_REPORT_FROM_PID, 9);
	put_attr(&m, BINDER_A_REPORT_CONTEXT, longname, sizeof(longname)); /* no NUL at all */
	cr_assert_eq(bc__report_parse(&m.h, "binder", &r), 0);
	cr_expect_eq(strlen(r.context), sizeof(r.context) - 1);
}

Test(report_parse, short_u32_and_unknown_attributes)
{
	struct msg m;
	struct bc_report r;
	uint16_t two = 3;

	msg_init(&m, BINDER_CMD_REPORT);
	put_u32(&m, BINDER_A_REPORT_ERROR, BR_FROZEN_REPLY);
	put_u32(&m, BINDER_A_REPORT_FROM_PID, 9);
	put_attr(&m, BINDER_A_REPORT_CODE, &two, sizeof(two)); /* too short: ignored */
	put_u32(&m, 40, 1234);			  /* newer than the library */
	put_u32(&m, BINDER_A_REPORT_DATA_SIZE, 12);
	cr_assert_eq(bc__report_parse(&m.h, "binder", &r), 0);
	cr_expect_eq(r.code, 0);
	cr_expect_eq(r.data_size, 12);
	cr_expect(strstr(bc_report_describe(&r), "frozen"));
}

Test(report_parse, names_and_words)
{
	cr_expect_str_eq(bc_report_error_name(_IO('r', 20)), "BR_TRANSACTION_PENDING_FROZEN");
	cr_expect_str_eq(bc_report_error_name(BR_ONEWAY_SPAM_SUSPECT), "BR_ONEWAY_SPAM_SUSPECT");
	cr_expect_null(bc_report_error_name(0x12345678));
	cr_expect_str_eq(bc_report_describe(NULL), "");
}

Test(report_listener, bad_arguments)
{
	bc_report_listener *l = NULL;
	struct bc_report r;

	cr_expect_eq(bc_report_listener_new("nonsense", &l), -EINVAL);
	cr_expect_eq(bc_report_listener_new(NULL, NULL), -EINVAL);
	cr_expect_eq(bc_report_listener_read(NULL, &r, 0), -EINVAL);
	cr_expect_eq(bc_report_listener_get_fd(NULL), -EINVAL);
	cr_expect_null(bc_report_listener_get_family(NULL, 0));
	cr_expect_null(bc_report_listener_unref(NULL));
}
