/* SPDX-License-Identifier: MIT */
/*
 * RPC binder addresses: the one parser of "unix:/path",
 * "unix-abstract:name", "tcp:host:port" and "vsock:cid:port", and the
 * sockets made from them (listen, connect, accept), plus Android's
 * bootstrap socket (a connection handed over a unix socket as an fd).
 *
 * Plain TCP carries every call readable and unauthenticated to whoever
 * reaches the port, so it is refused unless asked for by flag, and then
 * still announced on stderr: a library warning once per socket is the
 * cheapest way to keep it from going unnoticed in a deployment.  A socket
 * that will carry TLS (BINDERC_RPC_TLS) needs neither.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "rpc_internal.h"

/* A decimal number of at most @max, the whole of [s, end): no sign, no
 * blanks, no empty string (strtoul would take all three). */
static int parse_uint(const char *s, const char *end, unsigned long max, unsigned long *ret)
{
	unsigned long v = 0;

	if (s == end)
		return -EINVAL;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (max - (unsigned long)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*ret = v;
	return 0;
}

static int parse_unix(const char *path, bool abstract, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_un *un = (struct sockaddr_un *)ss;
	size_t n = strlen(path);

	if (!n)
		return -EINVAL;
	/* a path needs its NUL; an abstract name its leading NUL instead */
	if (n >= sizeof(un->sun_path))
		return -ENAMETOOLONG;
	un->sun_family = AF_UNIX;
	if (abstract) {
		un->sun_path[0] = '\0';
		memcpy(un->sun_path + 1, path, n);
		/* the name is exactly these bytes: no trailing NULs counted */
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	} else {
		memcpy(un->sun_path, path, n + 1);
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
	}
	return 0;
}

/* "host:port": a dotted IPv4 address, "[v6]" or "localhost". */
static int parse_tcp(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
	const char *colon = strrchr(s, ':'), *host = s, *host_end;
	char buf[INET6_ADDRSTRLEN];
	unsigned long port;
	int r;

	if (!colon)
		return -EINVAL;
	r = parse_uint(colon + 1, colon + 1 + strlen(colon + 1), 65535, &port);
	if (r < 0)
		return r;
	host_end = colon;
	if (*host == '[') {
		if (host_end - host < 2 || host_end[-1] != ']')
			return -EINVAL;
		host++;
		host_end--;
	} else if (memchr(host, ':', (size_t)(host_end - host))) {
		return -EINVAL; /* an IPv6 address needs its brackets */
	}
	if ((size_t)(host_end - host) >= sizeof(buf) || host_end == host)
		return -EINVAL;
	memcpy(buf, host, (size_t)(host_end - host));
	buf[host_end - host] = '\0';
	if (*s != '[') {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;

		/* no resolver: an address must not depend on DNS */
		if (strcmp(buf, "localhost") == 0)
			strcpy(buf, "127.0.0.1");
		if (inet_pton(AF_INET, buf, &in->sin_addr) != 1)
			return -EINVAL;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)port);
		*len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

		if (inet_pton(AF_INET6, buf, &in6->sin6_addr) != 1)
			return -EINVAL;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*in6);
	}
	return 0;
}

/* "cid:port"; cid also "any", "local" or "host". */
static int parse_vsock(const char *s, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_vm *vm = (struct sockaddr_vm *)ss;
	const char *colon = strchr(s, ':');
	unsigned long cid, port;
	size_t n;
	int r;

	if (!colon)
		return -EINVAL;
	n = (size_t)(colon - s);
	if (n == 3 && memcmp(s, "any", 3) == 0)
		cid = VMADDR_CID_ANY;
	else if (n == 5 && memcmp(s, "local", 5) == 0)
		cid = VMADDR_CID_LOCAL;
	else if (n == 4 && memcmp(s, "host", 4) == 0)
		cid = VMADDR_CID_HOST;
	else if ((r = parse_uint(s, colon, UINT32_MAX, &cid)) < 0)
		return r;
	r = parse_uint(colon + 1, colon + 1 + strlen(colon + 1), UINT32_MAX, &port);
	if (r < 0)
		return r;
	vm->svm_family = AF_VSOCK;
	vm->svm_cid = (unsigned)cid;
	vm->svm_port = (unsigned)port;
	*len = sizeof(*vm);
	return 0;
}

int bc_rpc_address_parse(const char *addr, unsigned flags, struct sockaddr_storage *ret, socklen_t *ret_len)
{
	static const char unix_p[] = "unix:", abstract_p[] = "unix-abstract:", tcp_p[] = "tcp:", vsock_p[] = "vsock:";
	struct sockaddr_storage ss;
	socklen_t len = 0;
	int r;

	if (!addr || !ret || !ret_len || (flags & ~(BINDERC_RPC_PLAIN_TCP | BINDERC_RPC_TLS)))
		return -EINVAL;
	memset(&ss, 0, sizeof(ss));
	if (strncmp(addr, unix_p, sizeof(unix_p) - 1) == 0) {
		r = parse_unix(addr + sizeof(unix_p) - 1, false, &ss, &len);
	} else if (strncmp(addr, abstract_p, sizeof(abstract_p) - 1) == 0) {
		r = parse_unix(addr + sizeof(abstract_p) - 1, true, &ss, &len);
	} else if (strncmp(addr, tcp_p, sizeof(tcp_p) - 1) == 0) {
		r = parse_tcp(addr + sizeof(tcp_p) - 1, &ss, &len);
		/* checked after the syntax, so that a typo is reported as one */
		if (r == 0 && !(flags & (BINDERC_RPC_PLAIN_TCP | BINDERC_RPC_TLS)))
			r = -EPERM;
	} else if (strncmp(addr, vsock_p, sizeof(vsock_p) - 1) == 0) {
		r = parse_vsock(addr + sizeof(vsock_p) - 1, &ss, &len);
	} else {
		/* no scheme, or one not known here */
		r = strchr(addr, ':') ? -EAFNOSUPPORT : -EINVAL;
	}
	if (r < 0)
		return r;
	*ret = ss;
	*ret_len = len;
	return 0;
}

int bc_rpc_address_format(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN];
	int n;

	if (!sa || !buf || !size || len < (socklen_t)sizeof(sa_family_t))
		return -EINVAL;
	switch (sa->sa_family) {
	case AF_UNIX: {
		const struct sockaddr_un *un = (const struct sockaddr_un *)sa;
		size_t plen = (size_t)len - offsetof(struct sockaddr_un, sun_path);

		if ((size_t)len <= offsetof(struct sockaddr_un, sun_path) || plen > sizeof(un->sun_path))
			return -EINVAL; /* unnamed (a socketpair's), or not a sockaddr_un */
		if (un->sun_path[0] == '\0')
			n = snprintf(buf, size, "unix-abstract:%.*s", (int)(plen - 1), un->sun_path + 1);
		else
			n = snprintf(buf, size, "unix:%.*s", (int)strnlen(un->sun_path, plen), un->sun_path);
		break;
	}
	case AF_INET: {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		if (len < (socklen_t)sizeof(*in) || !inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host)))
			return -EINVAL;
		n = snprintf(buf, size, "tcp:%s:%u", host, ntohs(in->sin_port));
		break;
	}
	case AF_INET6: {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		if (len < (socklen_t)sizeof(*in6) || !inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host)))
			return -EINVAL;
		n = snprintf(buf, size, "tcp:[%s]:%u", host, ntohs(in6->sin6_port));
		break;
	}
	case AF_VSOCK: {
		const struct sockaddr_vm *vm = (const struct sockaddr_vm *)sa;

		if (len < (socklen_t)sizeof(*vm))
			return -EINVAL;
		n = snprintf(buf, size, "vsock:%u:%u", vm->svm_cid, vm->svm_port);
		break;
	}
	default:
		return -EAFNOSUPPORT;
	}
	if (n < 0)
		return -EINVAL;
	return (size_t)n < size ? 0 : -ENOSPC;
}

int bc_rpc_socket_address(int fd, bool peer, char *buf, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (fd < 0)
		return -EBADF;
	if ((peer ? getpeername(fd, (struct sockaddr *)&ss, &len) : getsockname(fd, (struct sockaddr *)&ss, &len)) < 0)
		return -errno;
	return bc_rpc_address_format((struct sockaddr *)&ss, len, buf, size);
}

static void warn_plain_tcp(const char *what, const char *addr)
{
	fprintf(stderr,
		"libbinder-c: warning: %s %s over plain TCP: no encryption, no authentication; anyone who reaches the "
		"port can call the objects served\n",
		what, addr);
}

static int new_socket(int family)
{
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

/* Requests and replies are small and latency-bound: no Nagle delay. */
static void tune(int fd, int family)
{
	int one = 1;

	if (family == AF_INET || family == AF_INET6)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

int bc_rpc_listen(const char *addr, unsigned flags, int *ret_fd)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, one = 1, r;

	if (!ret_fd)
		return -EINVAL;
	r = bc_rpc_address_parse(addr, flags, &ss, &len);
	if (r < 0)
		return r;
	fd = new_socket(ss.ss_family);
	if (fd < 0)
		return fd;
	/* a restarted server may reuse its port at once (TIME_WAIT) */
	if (ss.ss_family == AF_INET || ss.ss_family == AF_INET6)
		(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* A unix path that exists is not removed here: it may be another
	 * server's; the caller decides. */
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, SOMAXCONN) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if ((ss.ss_family == AF_INET || ss.ss_family == AF_INET6) && !(flags & BINDERC_RPC_TLS))
		warn_plain_tcp("listening on", addr);
	*ret_fd = fd;
	return 0;
}

/* A connect() cut by a signal goes on in the background: wait for it. */
static int finish_connect(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	socklen_t len = sizeof(int);
	int err = 0;

	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			return -errno;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return -errno;
	return -err;
}

int bc_rpc_connect(const char *addr, unsigned flags, int *ret_fd)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd, r;

	if (!ret_fd)
		return -EINVAL;
	r = bc_rpc_address_parse(addr, flags, &ss, &len);
	if (r < 0)
		return r;
	fd = new_socket(ss.ss_family);
	if (fd < 0)
		return fd;
	r = connect(fd, (struct sockaddr *)&ss, len) < 0 ? -errno : 0;
	if (r == -EINTR)
		r = finish_connect(fd);
	if (r < 0) {
		close(fd);
		return r;
	}
	tune(fd, ss.ss_family);
	if ((ss.ss_family == AF_INET || ss.ss_family == AF_INET6) && !(flags & BINDERC_RPC_TLS))
		warn_plain_tcp("connecting to", addr);
	*ret_fd = fd;
	return 0;
}

int bc_rpc_accept(int listen_fd, int *ret_fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int fd;

	if (listen_fd < 0 || !ret_fd)
		return -EINVAL;
	for (;;) {
		fd = accept4(listen_fd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd >= 0)
			break;
		/* a client that gave up before we took it is not our error */
		if (errno != EINTR && errno != ECONNABORTED)
			return -errno;
		len = sizeof(ss);
	}
	tune(fd, ss.ss_family);
	*ret_fd = fd;
	return 0;
}

/* A session at @addr, over TLS with @tls unless it is NULL. */
static int session_connect(const char *addr, uint32_t max_version, unsigned flags, bc_rpc_tls *tls,
			   bc_rpc_session **ret)
{
	unsigned sock_flags = (flags & BINDERC_RPC_PLAIN_TCP) | (tls ? BINDERC_RPC_TLS : 0);
	int fd, r;

	if (!ret)
		return -EINVAL;
	r = bc_rpc_connect(addr, sock_flags, &fd);
	if (r == 0 && tls)
		r = bc_rpc_session_connect_fd_tls(fd, max_version, flags & ~sock_flags, tls, ret);
	else if (r == 0)
		r = bc_rpc_session_connect_fd(fd, max_version, flags & ~sock_flags, ret);
	if (r < 0)
		return r;
	/* as Android's client: as many connections as the server serves */
	for (uint32_t i = 1; i < (*ret)->peer_threads && i < BINDERC_RPC_MAX_OUTGOING; i++)
		if (bc_rpc_session_join(*ret, addr, flags, false) < 0)
			break;
	return 0;
}

int bc_rpc_session_connect(const char *addr, uint32_t max_version, unsigned flags, bc_rpc_session **ret)
{
	return session_connect(addr, max_version, flags, NULL, ret);
}

int bc_rpc_session_connect_tls(const char *addr, uint32_t max_version, unsigned flags, bc_rpc_tls *tls,
			       bc_rpc_session **ret)
{
	return tls ? session_connect(addr, max_version, flags, tls, ret) : -EINVAL;
}

/* ---- bootstrap sockets (RpcSession::setupUnixDomainSocketBootstrapClient,
 * RpcServer::setupUnixDomainSocketBootstrapServer): each connection is
 * one end of a new socketpair, sent as the only fd of a 4-byte message of
 * zeros; the sender keeps the other end. */

int bc_rpc_bootstrap_connect(int bootstrap_fd, int *ret_fd)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	int32_t zero = 0;
	struct iovec iov = { .iov_base = &zero, .iov_len = sizeof(zero) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	int sv[2], r = 0;
	ssize_t n;

	if (bootstrap_fd < 0 || !ret_fd)
		return -EINVAL;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &sv[1], sizeof(int));
	do
		n = sendmsg(bootstrap_fd, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		r = errno == ECONNRESET ? -EPIPE : -errno;
	else if (n != (ssize_t)sizeof(zero))
		r = -EPIPE; /* a stream socket that took part of 4 bytes: gone */
	close(sv[1]); /* the peer has its copy now */
	if (r < 0) {
		close(sv[0]);
		return r;
	}
	*ret_fd = sv[0];
	return 0;
}

int bc_rpc_bootstrap_accept(int bootstrap_fd, int *ret_fd)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * 4)];
	} ctl;
	int32_t zero = 0;
	struct iovec iov = { .iov_base = &zero, .iov_len = sizeof(zero) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf) };
	int got[4], n_got = 0;
	ssize_t n;

	if (bootstrap_fd < 0 || !ret_fd)
		return -EINVAL;
	do
		n = recvmsg(bootstrap_fd, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == ECONNRESET ? -EPIPE : -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
		size_t k;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (n_got < 4)
				got[n_got++] = fd;
			else
				close(fd);
		}
	}
	if (n == 0 && n_got == 0)
		return -EPIPE; /* the client closed the bootstrap socket */
	/* exactly one fd, as Android's server requires; anything else is
	 * dropped whole, closing what came */
	if (n_got != 1 || (msg.msg_flags & MSG_CTRUNC)) {
		while (n_got)
			close(got[--n_got]);
		return -EBADMSG;
	}
	/* only a stream socket can carry a session (a pipe or a file would
	 * only fail later, less clearly) */
	{
		int type = 0;
		socklen_t len = sizeof(type);

		if (getsockopt(got[0], SOL_SOCKET, SO_TYPE, &type, &len) < 0 || type != SOCK_STREAM) {
			close(got[0]);
			return -ENOTSOCK;
		}
	}
	*ret_fd = got[0];
	return 0;
}
