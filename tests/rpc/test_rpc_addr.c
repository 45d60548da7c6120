/* SPDX-License-Identifier: MIT */
/*
 * RPC binder addresses: the parser (good and bad addresses, and the
 * formatter's round trip), sessions over a unix path, an abstract unix
 * name, TCP on the loopback and a bootstrap socket, and the caller's
 * credentials a handler sees on each (SO_PEERCRED on unix sockets,
 * checked from a forked client too).  vsock is parsed only: this host
 * has no vsock transport to test against.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "rpct.h"

Test(rpc_addr, parse_good)
{
	struct sockaddr_storage ss;
	socklen_t len;
	const struct sockaddr_un *un = (const struct sockaddr_un *)&ss;
	const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;
	const struct sockaddr_vm *vm = (const struct sockaddr_vm *)&ss;

	cr_assert_eq(bc_rpc_address_parse("unix:/run/x.sock", 0, &ss, &len), 0);
	cr_assert_eq(ss.ss_family, AF_UNIX);
	cr_assert_str_eq(un->sun_path, "/run/x.sock");
	cr_assert_eq(len, offsetof(struct sockaddr_un, sun_path) + sizeof("/run/x.sock"));
	cr_assert_eq(bc_rpc_address_parse("unix:rel:with:colons", 0, &ss, &len), 0);
	cr_assert_str_eq(un->sun_path, "rel:with:colons");

	cr_assert_eq(bc_rpc_address_parse("unix-abstract:svc", 0, &ss, &len), 0);
	cr_assert_eq(ss.ss_family, AF_UNIX);
	cr_assert_eq(un->sun_path[0], '\0');
	cr_assert_eq(memcmp(un->sun_path + 1, "svc", 3), 0);
	/* exactly the name: no trailing NULs in the length */
	cr_assert_eq(len, offsetof(struct sockaddr_un, sun_path) + 4);

	cr_assert_eq(bc_rpc_address_parse("tcp:127.0.0.1:5000", BINDERC_RPC_PLAIN_TCP, &ss, &len), 0);
	cr_assert_eq(ss.ss_family, AF_INET);
	cr_assert_eq(len, sizeof(struct sockaddr_in));
	cr_assert_eq(ntohs(in->sin_port), 5000);
	cr_assert_eq(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);
	cr_assert_eq(bc_rpc_address_parse("tcp:localhost:0", BINDERC_RPC_PLAIN_TCP, &ss, &len), 0);
	cr_assert_eq(ntohl(in->sin_addr.s_addr), INADDR_LOOPBACK);
	cr_assert_eq(ntohs(in->sin_port), 0);
	cr_assert_eq(bc_rpc_address_parse("tcp:0.0.0.0:65535", BINDERC_RPC_PLAIN_TCP, &ss, &len), 0);
	cr_assert_eq(ntohs(in->sin_port), 65535);

	cr_assert_eq(bc_rpc_address_parse("tcp:[::1]:80", BINDERC_RPC_PLAIN_TCP, &ss, &len), 0);
	cr_assert_eq(ss.ss_family, AF_INET6);
	cr_assert_eq(len, sizeof(struct sockaddr_in6));
	cr_assert_eq(ntohs(in6->sin6_port), 80);
	cr_assert(IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr));

	cr_assert_eq(bc_rpc_address_parse("vsock:3:1234", 0, &ss, &len), 0);
	cr_assert_eq(ss.ss_family, AF_VSOCK);
	cr_assert_eq(len, sizeof(struct sockaddr_vm));
	cr_assert_eq(vm->svm_cid, 3);
	cr_assert_eq(vm->svm_port, 1234);
	cr_assert_eq(bc_rpc_address_parse("vsock:any:4294967295", 0, &ss, &len), 0);
	cr_assert_eq(vm->svm_cid, VMADDR_CID_ANY);
	cr_assert_eq(vm->svm_port, 4294967295u);
	cr_assert_eq(bc_rpc_address_parse("vsock:host:1", 0, &ss, &len), 0);
	cr_assert_eq(vm->svm_cid, VMADDR_CID_HOST);
	cr_assert_eq(bc_rpc_address_parse("vsock:local:1", 0, &ss, &len), 0);
	cr_assert_eq(vm->svm_cid, VMADDR_CID_LOCAL);
}

Test(rpc_addr, parse_bad)
{
	static const struct {
		const char *addr;
		unsigned flags;
		int err;
	} bad[] = {
		{ "", 0, -EINVAL },
		{ "/run/x.sock", 0, -EINVAL },
		{ "pipe:x", 0, -EAFNOSUPPORT },
		{ "UNIX:/x", 0, -EAFNOSUPPORT },
		{ "unix:", 0, -EINVAL },
		{ "unix-abstract:", 0, -EINVAL },
		{ "tcp:127.0.0.1:1", 0, -EPERM },
		{ "tcp:127.0.0.1", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:127.0.0.1:", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp::80", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:127.0.0.1:65536", BINDERC_RPC_PLAIN_TCP, -ERANGE },
		{ "tcp:127.0.0.1:99999999999999999999999", BINDERC_RPC_PLAIN_TCP, -ERANGE },
		{ "tcp:127.0.0.1:-1", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:127.0.0.1:+1", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:127.0.0.1: 1", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:127.0.0.1:1x", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:127.0.0.256:1", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:example.org:80", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:::1:80", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:[::1]80", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:[]:80", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "tcp:[127.0.0.1]:80", BINDERC_RPC_PLAIN_TCP, -EINVAL },
		{ "vsock:3", 0, -EINVAL },
		{ "vsock::1", 0, -EINVAL },
		{ "vsock:3:", 0, -EINVAL },
		{ "vsock:guest:1", 0, -EINVAL },
		{ "vsock:4294967296:1", 0, -ERANGE },
		{ "vsock:3:4294967296", 0, -ERANGE },
		{ "vsock:3:1:2", 0, -EINVAL },
	};
	struct sockaddr_storage ss;
	socklen_t len;
	char longp[200];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_eq(bc_rpc_address_parse(bad[i].addr, bad[i].flags, &ss, &len), bad[i].err, "%s",
			     bad[i].addr);
	/* a path must fit sun_path with its NUL; a name without one */
	memset(longp, 'a', sizeof(longp));
	memcpy(longp, "unix:", 5);
	longp[5 + sizeof(((struct sockaddr_un *)0)->sun_path)] = '\0';
	cr_assert_eq(bc_rpc_address_parse(longp, 0, &ss, &len), -ENAMETOOLONG);
	longp[5 + sizeof(((struct sockaddr_un *)0)->sun_path) - 1] = '\0';
	cr_assert_eq(bc_rpc_address_parse(longp, 0, &ss, &len), 0);
	cr_assert_eq(bc_rpc_address_parse(NULL, 0, &ss, &len), -EINVAL);
	cr_assert_eq(bc_rpc_address_parse("unix:/x", 0, NULL, &len), -EINVAL);
	cr_assert_eq(bc_rpc_address_parse("unix:/x", 0x80, &ss, &len), -EINVAL);
	/* the socket functions report the parser's errors */
	{
		int fd = -1;

		cr_assert_eq(bc_rpc_listen("tcp:127.0.0.1:0", 0, &fd), -EPERM);
		cr_assert_eq(bc_rpc_connect("bogus", 0, &fd), -EINVAL);
		cr_assert_eq(fd, -1);
	}
}

Test(rpc_addr, format_round_trip)
{
	static const char *const good[] = {
		"unix:/run/x.sock", "unix:rel", "unix-abstract:svc", "tcp:127.0.0.1:5000", "tcp:[::1]:80", "vsock:3:1234",
	};
	struct sockaddr_storage ss;
	socklen_t len;
	char buf[128];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		cr_assert_eq(bc_rpc_address_parse(good[i], BINDERC_RPC_PLAIN_TCP, &ss, &len), 0);
		cr_assert_eq(bc_rpc_address_format((struct sockaddr *)&ss, len, buf, sizeof(buf)), 0);
		cr_assert_str_eq(buf, good[i]);
	}
	cr_assert_eq(bc_rpc_address_parse("tcp:127.0.0.1:5000", BINDERC_RPC_PLAIN_TCP, &ss, &len), 0);
	cr_assert_eq(bc_rpc_address_format((struct sockaddr *)&ss, len, buf, 10), -ENOSPC);
	/* a socketpair's ends have no name */
	{
		int sv[2];

		cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		cr_assert_eq(bc_rpc_socket_address(sv[0], false, buf, sizeof(buf)), -EINVAL);
		close(sv[0]);
		close(sv[1]);
	}
}

/* ---- sessions over real addresses ------------------------------------------ */

/* A server thread taking one connection from a listening socket (or a
 * bootstrap socket) and serving it. */
struct acceptor {
	bc_rpc_server *srv;
	int lfd;
	bool bootstrap;
	int accept_result;
	int result;
	pthread_t thread;
};

static void *acceptor_main(void *arg)
{
	struct acceptor *a = arg;
	int fd = -1;

	a->accept_result = a->bootstrap ? bc_rpc_bootstrap_accept(a->lfd, &fd) : bc_rpc_accept(a->lfd, &fd);
	a->result = a->accept_result < 0 ? a->accept_result : bc_rpc_server_serve_fd(a->srv, fd);
	return NULL;
}

static void acceptor_start(struct acceptor *a, bc_binder *root, int lfd, bool bootstrap)
{
	memset(a, 0, sizeof(*a));
	cr_assert_eq(bc_rpc_server_new(root, &a->srv), 0);
	a->lfd = lfd;
	a->bootstrap = bootstrap;
	cr_assert_eq(pthread_create(&a->thread, NULL, acceptor_main, a), 0);
}

static int acceptor_join(struct acceptor *a)
{
	cr_assert_eq(pthread_join(a->thread, NULL), 0);
	bc_rpc_server_unref(a->srv);
	return a->result;
}

/* The root's RPCT_WHO: the caller identity its handler saw. */
static void who(bc_binder *root, int32_t *pid, int32_t *euid)
{
	bc_parcel *reply = NULL;

	cr_assert_eq(bc_binder_transact(root, RPCT_WHO, NULL, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, pid), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, euid), 0);
	bc_parcel_unref(reply);
}

/* Serve the adder at listening socket @lfd; connect to @addr, call, and
 * check the identity the handler saw; the server's end after the last
 * proxy goes. */
static void round_trip(int lfd, const char *addr, unsigned flags, int32_t want_pid, int32_t want_euid)
{
	struct rpct_adder a;
	struct acceptor acc;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int32_t v = 0, pid = 0, euid = 0;

	rpct_adder_new(&a);
	acceptor_start(&acc, a.self, lfd, false);
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, flags, &s), 0, "%s", addr);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_not_null(root);
	cr_assert_eq(rpct_add(root, 40, 2, &v), 0);
	cr_assert_eq(v, 42);
	who(root, &pid, &euid);
	cr_assert_eq(pid, want_pid, "%s: pid %d", addr, pid);
	cr_assert_eq(euid, want_euid, "%s: euid %d", addr, euid);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(acceptor_join(&acc), 0);
	cr_assert_eq(acc.accept_result, 0);
	bc_binder_unref(a.self);
	cr_assert_eq(atomic_load(&a.destroyed), 1);
}

/* A fresh directory for socket paths (removed by the caller). */
static void tmpdir(char *buf, size_t size)
{
	const char *base = getenv("TMPDIR");

	snprintf(buf, size, "%s/binderc-rpc-XXXXXX", base && *base ? base : "/tmp");
	cr_assert_not_null(mkdtemp(buf));
}

Test(rpc_addr, unix_path)
{
	char dir[256], path[300], addr[320], name[320];
	int lfd = -1, fd2 = -1;

	tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/adder.sock", dir);
	snprintf(addr, sizeof(addr), "unix:%s", path);
	cr_assert_eq(bc_rpc_listen(addr, 0, &lfd), 0);
	cr_assert(fcntl(lfd, F_GETFD) & FD_CLOEXEC);
	cr_assert_eq(bc_rpc_socket_address(lfd, false, name, sizeof(name)), 0);
	cr_assert_str_eq(name, addr);
	/* an existing path stays: it may be another server's */
	cr_assert_eq(bc_rpc_listen(addr, 0, &fd2), -EADDRINUSE);
	round_trip(lfd, addr, 0, (int32_t)getpid(), (int32_t)geteuid());
	close(lfd);
	/* nobody listens any more */
	{
		bc_rpc_session *s = NULL;

		cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), -ECONNREFUSED);
	}
	unlink(path);
	cr_assert_eq(bc_rpc_connect(addr, 0, &fd2), -ENOENT);
	rmdir(dir);
}

Test(rpc_addr, unix_abstract)
{
	char addr[64];
	int lfd = -1;

	snprintf(addr, sizeof(addr), "unix-abstract:binderc-test-%d", (int)getpid());
	cr_assert_eq(bc_rpc_listen(addr, 0, &lfd), 0);
	round_trip(lfd, addr, 0, (int32_t)getpid(), (int32_t)geteuid());
	close(lfd);
}

Test(rpc_addr, tcp_loopback)
{
	char addr[64];
	int lfd = -1;

	cr_assert_eq(bc_rpc_listen("tcp:127.0.0.1:0", BINDERC_RPC_PLAIN_TCP, &lfd), 0);
	/* port 0: the kernel chose one; the formatted name says which */
	cr_assert_eq(bc_rpc_socket_address(lfd, false, addr, sizeof(addr)), 0);
	cr_assert_eq(strncmp(addr, "tcp:127.0.0.1:", 14), 0);
	cr_assert_neq(strcmp(addr, "tcp:127.0.0.1:0"), 0);
	{
		bc_rpc_session *s = NULL;

		cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), -EPERM);
	}
	/* no identity over TCP: pid 0, nobody's euid */
	round_trip(lfd, addr, BINDERC_RPC_PLAIN_TCP, 0, -1);
	close(lfd);
}

Test(rpc_addr, bootstrap)
{
	struct rpct_adder a;
	struct acceptor acc;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int bs[2], fd = -1;
	int32_t v = 0, pid = 0, euid = 0;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, bs), 0);
	rpct_adder_new(&a);
	acceptor_start(&acc, a.self, bs[1], true);
	cr_assert_eq(bc_rpc_bootstrap_connect(bs[0], &fd), 0);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(rpct_add(root, 1, 2, &v), 0);
	cr_assert_eq(v, 3);
	who(root, &pid, &euid);
	cr_assert_eq(pid, (int32_t)getpid());
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(acceptor_join(&acc), 0);
	bc_binder_unref(a.self);
	close(bs[0]);
	close(bs[1]);
}

/* Bootstrap messages a server must refuse, and the end of the socket. */
Test(rpc_addr, bootstrap_bad)
{
	int bs[2], fd = 12345, p[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, bs), 0);
	/* bytes without an fd */
	cr_assert_eq(write(bs[0], "\0\0\0\0", 4), 4);
	cr_assert_eq(bc_rpc_bootstrap_accept(bs[1], &fd), -EBADMSG);
	/* an fd that is no socket */
	cr_assert_eq(pipe(p), 0);
	{
		union {
			struct cmsghdr align;
			char buf[CMSG_SPACE(2 * sizeof(int))];
		} ctl;
		int32_t zero = 0;
		struct iovec iov = { .iov_base = &zero, .iov_len = 4 };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf };
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_controllen = CMSG_SPACE(sizeof(int));
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &p[0], sizeof(int));
		cr_assert_eq(sendmsg(bs[0], &msg, 0), 4);
		cr_assert_eq(bc_rpc_bootstrap_accept(bs[1], &fd), -ENOTSOCK);
		/* two fds at once */
		msg.msg_controllen = CMSG_SPACE(2 * sizeof(int));
		c->cmsg_len = CMSG_LEN(2 * sizeof(int));
		memcpy(CMSG_DATA(c), p, 2 * sizeof(int));
		cr_assert_eq(sendmsg(bs[0], &msg, 0), 4);
		cr_assert_eq(bc_rpc_bootstrap_accept(bs[1], &fd), -EBADMSG);
	}
	close(p[0]);
	close(p[1]);
	cr_assert_eq(fd, 12345);
	/* the client's end closed */
	close(bs[0]);
	cr_assert_eq(bc_rpc_bootstrap_accept(bs[1], &fd), -EPIPE);
	close(bs[1]);
	cr_assert_eq(bc_rpc_bootstrap_connect(-1, &fd), -EINVAL);
}

/* Another process's call: the handler sees that process's pid (and,
 * when we may change it, its euid), not ours. */
Test(rpc_addr, peer_credentials)
{
	struct rpct_adder a;
	struct acceptor acc;
	char dir[256], addr[320];
	int lfd = -1, status = -1;
	/* a uid of nobody's, if we are root and may take it in the child */
	uid_t child_euid = geteuid() == 0 ? 65534 : geteuid();
	pid_t child;
	int64_t end;

	tmpdir(dir, sizeof(dir));
	/* the child may not be root: let it reach the socket */
	cr_assert_eq(chmod(dir, 0777), 0);
	snprintf(addr, sizeof(addr), "unix:%s/who.sock", dir);
	cr_assert_eq(bc_rpc_listen(addr, 0, &lfd), 0);
	cr_assert_eq(chmod(addr + 5, 0777), 0);
	rpct_adder_new(&a);
	acceptor_start(&acc, a.self, lfd, false);
	fflush(NULL);
	child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) {
		/* exit 0 if the server saw us; the code names what failed */
		bc_rpc_session *s = NULL;
		bc_binder *root = NULL;
		bc_parcel *reply = NULL;
		int32_t pid = 0, euid = 0;

		if (child_euid != geteuid() && seteuid(child_euid) < 0)
			_exit(10);
		if (bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s) < 0)
			_exit(11);
		if (bc_rpc_session_get_root(s, &root) < 0 || !root)
			_exit(12);
		if (bc_binder_transact(root, RPCT_WHO, NULL, &reply, 0, NULL) < 0 ||
		    bc_parcel_read_int32(reply, &pid) < 0 || bc_parcel_read_int32(reply, &euid) < 0)
			_exit(13);
		if (pid != (int32_t)getpid())
			_exit(14);
		if (euid != (int32_t)child_euid)
			_exit(15);
		bc_parcel_unref(reply);
		bc_binder_unref(root);
		bc_rpc_session_unref(s);
		_exit(0);
	}
	end = th_now_ms() + TH_HANG_MS;
	while (waitpid(child, &status, WNOHANG) == 0 && th_nap_until(end))
		;
	/* a child that never connected leaves the acceptor in accept():
	 * shutting the listener down wakes it */
	shutdown(lfd, SHUT_RDWR);
	acceptor_join(&acc);
	cr_assert(WIFEXITED(status), "child status %#x", status);
	cr_assert_eq(WEXITSTATUS(status), 0);
	/* the session ended when the child dropped the root */
	cr_assert_eq(acc.accept_result, 0);
	cr_assert_eq(acc.result, 0);
	close(lfd);
	unlink(addr + 5);
	rmdir(dir);
	bc_binder_unref(a.self);
}
