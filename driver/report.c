// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: transaction reports over generic netlink (Linux 6.18's
 * interface, binder_netlink_uapi.h).
 *
 * One message per failed transaction or reply, and per oneway call that
 * was queued to a frozen proc or looks like spam, goes to the multicast
 * group "report" of the family.  The family is mainline's name, "binder",
 * on kernels whose binder has no reports (before 6.18), unless another
 * module holds it; then, and on 6.18 and later (where the mainline driver
 * would fail to load beside a "binder" family of ours), binderc's own,
 * "binderc".  report_family= picks one; after loading it reads as the
 * family registered, for listeners to find.
 *
 * As in mainline the group has no permission flags, so any listener in
 * the initial network namespace may join, and reports go to that
 * namespace only.  A report is built and sent by the failing sender's
 * thread, in process context with no lock held: it may sleep in the
 * allocation, but it never waits for a listener (netlink drops what a full
 * socket buffer cannot take, and the listener sees ENOBUFS).  Without
 * listeners it costs one test.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "binderc.h"
#include "binder_netlink_uapi.h"

/* The family's own name, when "binder" is taken. */
#define BINDERC_FAMILY_NAME "binderc"

static char report_family[GENL_NAMSIZ];
module_param_string(report_family, report_family, sizeof(report_family),
		    0444);
MODULE_PARM_DESC(report_family,
		 "generic netlink family of the transaction reports: binder or binderc (default: binderc on 6.18 and later, else binder if free); reads as the one registered");

/* Index of the one multicast group in the family's mcgrps. */
enum { BINDERC_NLGRP_REPORT };

static const struct genl_multicast_group binderc_nl_groups[] = {
	[BINDERC_NLGRP_REPORT] = { .name = BINDER_MCGRP_REPORT },
};

/*
 * Two families of the same shape, one per name: a family that failed to
 * register is never touched again.  No operations: userspace only
 * listens.
 */
#define BINDERC_NL_FAMILY(fname) {				\
	.name = fname,						\
	.version = BINDER_FAMILY_VERSION,			\
	.netnsok = true,					\
	.parallel_ops = true,					\
	.module = THIS_MODULE,					\
	.mcgrps = binderc_nl_groups,				\
	.n_mcgrps = ARRAY_SIZE(binderc_nl_groups),		\
}

static struct genl_family binderc_nl_families[] = {
	BINDERC_NL_FAMILY(BINDER_FAMILY_NAME),
	BINDERC_NL_FAMILY(BINDERC_FAMILY_NAME),
};

/* The registered one; set by init before any device exists. */
static struct genl_family *binderc_nl_family;

static int binderc_report_register(struct genl_family *family)
{
	int ret = genl_register_family(family);

	if (!ret)
		binderc_nl_family = family;
	return ret;
}

int binderc_report_init(void)
{
	struct genl_family *mainline = &binderc_nl_families[0];
	struct genl_family *own = &binderc_nl_families[1];
	int ret;

	if (!report_family[0] && BINDERC_KERNEL_BINDER_HAS_REPORTS) {
		ret = binderc_report_register(own);
	} else if (!report_family[0] || !strcmp(report_family, mainline->name)) {
		ret = binderc_report_register(mainline);
		/* Taken (by the mainline driver): fall back, unless named. */
		if (ret == -EEXIST && !report_family[0])
			ret = binderc_report_register(own);
	} else if (!strcmp(report_family, own->name)) {
		ret = binderc_report_register(own);
	} else {
		pr_err("report_family=%s: must be %s or %s\n", report_family,
		       mainline->name, own->name);
		return -EINVAL;
	}
	if (ret) {
		pr_err("cannot register the generic netlink family for transaction reports: %d\n",
		       ret);
		return ret;
	}
	strscpy(report_family, binderc_nl_family->name, sizeof(report_family));
	pr_info("transaction reports on generic netlink family \"%s\"\n",
		report_family);
	return 0;
}

void binderc_report_exit(void)
{
	if (binderc_nl_family)
		genl_unregister_family(binderc_nl_family);
	binderc_nl_family = NULL;
}

/* The largest message @r makes: every attribute present. */
static size_t binderc_report_size(const struct binderc_report *r)
{
	return nla_total_size(sizeof(u32)) * 8 +	/* the u32s */
	       nla_total_size(strlen(r->context) + 1) +
	       nla_total_size(0);			/* is_reply */
}

static int binderc_report_fill(struct sk_buff *skb,
			       const struct binderc_report *r)
{
	if (nla_put_u32(skb, BINDER_A_REPORT_ERROR, r->error) ||
	    nla_put_string(skb, BINDER_A_REPORT_CONTEXT, r->context) ||
	    nla_put_u32(skb, BINDER_A_REPORT_FROM_PID, r->from_pid) ||
	    nla_put_u32(skb, BINDER_A_REPORT_FROM_TID, r->from_tid))
		return -EMSGSIZE;
	if (r->to_pid && nla_put_u32(skb, BINDER_A_REPORT_TO_PID, r->to_pid))
		return -EMSGSIZE;
	if (r->to_tid && nla_put_u32(skb, BINDER_A_REPORT_TO_TID, r->to_tid))
		return -EMSGSIZE;
	if (r->is_reply && nla_put_flag(skb, BINDER_A_REPORT_IS_REPLY))
		return -EMSGSIZE;
	if (nla_put_u32(skb, BINDER_A_REPORT_FLAGS, r->flags) ||
	    nla_put_u32(skb, BINDER_A_REPORT_CODE, r->code) ||
	    nla_put_u32(skb, BINDER_A_REPORT_DATA_SIZE, r->data_size))
		return -EMSGSIZE;
	return 0;
}

void binderc_report_send(const struct binderc_report *r)
{
	struct genl_family *family = binderc_nl_family;
	struct sk_buff *skb;
	void *hdr;

	/* GFP_KERNEL below: never with a spinlock held. */
	might_sleep();
	if (!family ||
	    !genl_has_listeners(family, &init_net, BINDERC_NLGRP_REPORT))
		return;
	skb = genlmsg_new(binderc_report_size(r), GFP_KERNEL);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, family, 0, BINDER_CMD_REPORT);
	if (!hdr) {
		nlmsg_free(skb);
		return;
	}
	if (binderc_report_fill(skb, r)) {
		genlmsg_cancel(skb, hdr);
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	/* Consumes skb; -ESRCH (listener gone) and -ENOBUFS are theirs. */
	genlmsg_multicast(family, skb, 0, BINDERC_NLGRP_REPORT, GFP_KERNEL);
}
