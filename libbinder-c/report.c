// SPDX-License-Identifier: MIT
/*
 * report.c - the transaction-report listener (<binderc/report.h>): a raw
 * NETLINK_GENERIC socket, no libnl.  The family's id and the group's id
 * are asked of the generic netlink controller (CTRL_CMD_GETFAMILY) once,
 * when the listener is made; a family registered later is not seen.
 */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uapi/binder.h>
#include <uapi/binder_names.h>
#include <uapi/binder_netlink.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <binderc/report.h>

#include "refcount.h"
#include "report_internal.h"

#define BC__FAMILIES 2
/* mainline's family, then the one binderc's driver registers beside it */
static const char *const known_families[BC__FAMILIES] = { BINDER_FAMILY_NAME, "binderc" };

struct bc_report_listener {
	atomic_int refs;
	int fd;
	size_t n;			/* families joined */
	uint16_t ids[BC__FAMILIES];	/* their generic netlink ids */
	const char *names[BC__FAMILIES];
	/* one datagram, consumed message by message */
	_Alignas(struct nlmsghdr) char buf[16384];
	size_t len, pos;
};

static int open_socket(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_GENERIC);

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	return fd;
}

/* Wait up to timeout_ms for fd to be readable: 0, -EAGAIN or -errno. */
static int wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, timeout_ms);

	if (r < 0)
		return -errno;
	return r ? 0 : -EAGAIN;
}

/* The attribute at p if it lies wholly before end, else NULL. */
static const struct nlattr *attr_first(const char *p, const char *end)
{
	const struct nlattr *a = (const struct nlattr *)p;

	if (end - p < NLA_HDRLEN || a->nla_len < NLA_HDRLEN || a->nla_len > end - p)
		return NULL;
	return a;
}

/* The attribute after a (checked) one, or NULL at the end. */
static const struct nlattr *attr_next(const struct nlattr *a, const char *end)
{
	size_t step = NLA_ALIGN(a->nla_len);

	if (step >= (size_t)(end - (const char *)a))
		return NULL;
	return attr_first((const char *)a + step, end);
}

#define attr_data(a) ((const char *)(a) + NLA_HDRLEN)
#define attr_len(a) ((size_t)(a)->nla_len - NLA_HDRLEN)
#define attr_type(a) ((a)->nla_type & NLA_TYPE_MASK)

/* The group id of "report" in a CTRL_ATTR_MCAST_GROUPS nest, or 0. */
static uint32_t find_group(const struct nlattr *groups)
{
	const char *end = (const char *)groups + groups->nla_len;

	for (const struct nlattr *g = attr_first(attr_data(groups), end); g; g = attr_next(g, end)) {
		const char *gend = (const char *)g + g->nla_len;
		const char *name = NULL;
		uint32_t id = 0;

		for (const struct nlattr *a = attr_first(attr_data(g), gend); a; a = attr_next(a, gend)) {
			if (attr_type(a) == CTRL_ATTR_MCAST_GRP_NAME && attr_len(a) > 0 &&
			    attr_data(a)[attr_len(a) - 1] == '\0')
				name = attr_data(a);
			else if (attr_type(a) == CTRL_ATTR_MCAST_GRP_ID && attr_len(a) == sizeof(uint32_t))
				memcpy(&id, attr_data(a), sizeof(id));
		}
		if (name && !strcmp(name, BINDER_MCGRP_REPORT))
			return id;
	}
	return 0;
}

/*
 * Ask the controller for @name: its id and the report group's id.  0,
 * -ENOENT if not registered, -EPROTO if it has no report group.
 */
static int resolve(int fd, const char *name, uint16_t *id, uint32_t *group)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		char attrs[NLA_HDRLEN + NLA_ALIGN(GENL_NAMSIZ)];
	} req = { 0 };
	struct nlattr *na = (struct nlattr *)req.attrs;
	size_t nlen = strlen(name) + 1;
	static uint32_t seq;
	_Alignas(struct nlmsghdr) char buf[8192];

	if (nlen > GENL_NAMSIZ)
		return -EINVAL;
	na->nla_type = CTRL_ATTR_FAMILY_NAME;
	na->nla_len = NLA_HDRLEN + nlen;
	memcpy(req.attrs + NLA_HDRLEN, name, nlen);
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(na->nla_len));
	req.n.nlmsg_type = GENL_ID_CTRL;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.n.nlmsg_seq = ++seq;
	req.g.cmd = CTRL_CMD_GETFAMILY;
	req.g.version = 1;
	if (send(fd, &req, req.n.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		ssize_t got;
		int r = wait_readable(fd, 5000);

		if (r < 0)
			return r == -EAGAIN ? -ETIMEDOUT : r;
		got = recv(fd, buf, sizeof(buf), 0);
		if (got < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)got);
		     h = NLMSG_NEXT(h, got)) {
			const char *end = (const char *)h + h->nlmsg_len;
			bool have_id = false;

			if (h->nlmsg_seq != req.n.nlmsg_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
					return -EPROTO;
				return e->error ? e->error : -EPROTO;
			}
			if (h->nlmsg_type != GENL_ID_CTRL || h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
				continue;
			*group = 0;
			for (const struct nlattr *a = attr_first((const char *)NLMSG_DATA(h) + GENL_HDRLEN, end); a;
			     a = attr_next(a, end)) {
				if (attr_type(a) == CTRL_ATTR_FAMILY_ID && attr_len(a) >= sizeof(uint16_t)) {
					memcpy(id, attr_data(a), sizeof(*id));
					have_id = true;
				} else if (attr_type(a) == CTRL_ATTR_MCAST_GROUPS) {
					*group = find_group(a);
				}
			}
			if (!have_id)
				return -EPROTO;
			return *group ? 0 : -EPROTO;
		}
	}
}

static void listener_free(bc_report_listener *l)
{
	if (l->fd >= 0)
		close(l->fd);
	free(l);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_report_listener, bc_report_listener, listener_free);

int bc_report_listener_new(const char *family, bc_report_listener **ret)
{
	bc_report_listener *l;
	int r = -ENOENT;

	if (!ret || (family && strcmp(family, known_families[0]) && strcmp(family, known_families[1])))
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	atomic_init(&l->refs, 1);
	l->fd = open_socket();
	if (l->fd < 0) {
		r = l->fd;
		free(l);
		return r;
	}
	for (size_t i = 0; i < BC__FAMILIES; i++) {
		const char *name = known_families[i];
		uint32_t group;
		uint16_t id;
		int e;

		if (family && strcmp(family, name))
			continue;
		e = resolve(l->fd, name, &id, &group);
		if (e == -ENOENT)
			continue;
		if (!e && setsockopt(l->fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &group, sizeof(group)) < 0)
			e = -errno;
		if (e) {
			r = e;
			goto fail;
		}
		l->ids[l->n] = id;
		l->names[l->n] = name;
		l->n++;
	}
	if (!l->n)
		goto fail;
	*ret = l;
	return 0;
fail:
	listener_free(l);
	return r;
}

int bc_report_listener_get_fd(const bc_report_listener *l)
{
	return l ? l->fd : -EINVAL;
}

size_t bc_report_listener_get_n_families(const bc_report_listener *l)
{
	return l ? l->n : 0;
}

const char *bc_report_listener_get_family(const bc_report_listener *l, size_t i)
{
	return l && i < l->n ? l->names[i] : NULL;
}

static uint32_t get_u32(const struct nlattr *a)
{
	uint32_t v = 0;

	if (attr_len(a) >= sizeof(v))
		memcpy(&v, attr_data(a), sizeof(v));
	return v;
}

int bc__report_parse(const struct nlmsghdr *h, const char *family, struct bc_report *r)
{
	const struct genlmsghdr *g = NLMSG_DATA(h);
	const char *end = (const char *)h + h->nlmsg_len;
	unsigned seen = 0;

	if (h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN) || g->cmd != BINDER_CMD_REPORT)
		return -EPROTO;
	memset(r, 0, sizeof(*r));
	strncpy(r->family, family, sizeof(r->family) - 1);
	for (const struct nlattr *a = attr_first((const char *)g + GENL_HDRLEN, end); a; a = attr_next(a, end)) {
		unsigned t = attr_type(a);

		if (t > BINDER_A_REPORT_MAX)
			continue; /* newer than this library: skipped */
		seen |= 1u << t;
		switch (t) {
		case BINDER_A_REPORT_ERROR: r->error = get_u32(a); break;
		case BINDER_A_REPORT_CONTEXT: {
			size_t n = strnlen(attr_data(a), attr_len(a));

			if (n >= sizeof(r->context))
				n = sizeof(r->context) - 1;
			memcpy(r->context, attr_data(a), n);
			r->context[n] = '\0';
			break;
		}
		case BINDER_A_REPORT_FROM_PID: r->from_pid = (int32_t)get_u32(a); break;
		case BINDER_A_REPORT_FROM_TID: r->from_tid = (int32_t)get_u32(a); break;
		case BINDER_A_REPORT_TO_PID: r->to_pid = (int32_t)get_u32(a); break;
		case BINDER_A_REPORT_TO_TID: r->to_tid = (int32_t)get_u32(a); break;
		case BINDER_A_REPORT_IS_REPLY: r->is_reply = true; break;
		case BINDER_A_REPORT_FLAGS: r->flags = get_u32(a); break;
		case BINDER_A_REPORT_CODE: r->code = get_u32(a); break;
		case BINDER_A_REPORT_DATA_SIZE: r->data_size = get_u32(a); break;
		}
	}
	/* The error and the sender are in every report. */
	if (!(seen & (1u << BINDER_A_REPORT_ERROR)) || !(seen & (1u << BINDER_A_REPORT_FROM_PID)))
		return -EPROTO;
	return 0;
}

int bc_report_listener_read(bc_report_listener *l, struct bc_report *r, int timeout_ms)
{
	if (!l || !r)
		return -EINVAL;
	for (;;) {
		while (l->pos < l->len) {
			struct nlmsghdr *h = (struct nlmsghdr *)(l->buf + l->pos);
			size_t left = l->len - l->pos;

			if (!NLMSG_OK(h, left)) {
				l->pos = l->len;
				break;
			}
			l->pos += NLMSG_ALIGN(h->nlmsg_len);
			for (size_t i = 0; i < l->n; i++)
				if (h->nlmsg_type == l->ids[i] && !bc__report_parse(h, l->names[i], r))
					return 0;
		}
		ssize_t got = recv(l->fd, l->buf, sizeof(l->buf), 0);

		if (got >= 0) {
			l->len = (size_t)got;
			l->pos = 0;
			continue;
		}
		if (errno == ENOBUFS)
			return -ENOBUFS;
		if (errno != EAGAIN)
			return -errno;
		int w = wait_readable(l->fd, timeout_ms);

		if (w < 0)
			return w;
	}
}

const char *bc_report_error_name(uint32_t error)
{
	return binder_br_name(error);
}

/*
 * The kernel names the target only once its lookup succeeded, so a report
 * without to_pid failed before: on the handle, the stack or the rules.
 */
const char *bc_report_describe(const struct bc_report *r)
{
	if (!r)
		return "";
	switch (r->error) {
	case BR_DEAD_REPLY:
		if (r->is_reply)
			return "the caller is gone: nobody waits for this reply";
		return "the target is dead (its process exited or closed the device)";
	case BR_FAILED_REPLY:
		if (r->is_reply && !r->to_pid)
			return "a reply with no call to answer on this thread";
		if (!r->to_pid)
			return "refused before reaching a target: no such handle, a call to oneself, "
			       "a protocol error or the security module";
		return "refused: invalid data or objects, no buffer space left in the target, or "
		       "a file or object that could not be passed";
	case BR_FROZEN_REPLY:
		return "the target process is frozen: a synchronous call cannot wait";
	case BR_TRANSACTION_PENDING_FROZEN:
		return "the target process is frozen: the oneway call is queued until it thaws";
	case BR_ONEWAY_SPAM_SUSPECT:
		return "the sender fills the target's oneway buffer space (suspected oneway spam)";
	case BR_ERROR:
		return "the driver failed the command";
	}
	return "an unknown outcome";
}
