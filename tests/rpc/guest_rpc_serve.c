/* SPDX-License-Identifier: MIT */
/*
 * `binder rpc serve` in a guest, on $BINDER_DEVICE: a service registered
 * with the service manager, served over RPC binder by the tool, called
 * by this process (libbinder-c's RPC client) and by `binder rpc call`,
 * over a unix socket and, where the guest has vsock's loopback transport,
 * over vsock: the interface token crossing from RPC binder's form into
 * the kernel's, the reply's bytes back, and the service's view of the
 * caller (the tool's process, over the device).
 *
 * Needs the guest (a binder device, servicemanager, the tool beside this
 * binary); the host half is tests/rpc/test_rpc_tool.c.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/vm_sockets.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/rpc.h>

#include "harness.h"

#define ECHO_DESC "org.binderc.test.IRpcEcho"
#define ECHO_NAME "rpc.echo"
#define POLICY "/tmp/rpc-serve-test.conf"

static char bindir[512];
static const char *device;
static pid_t sm_pid, svc_pid, serve_pid;

static void init_paths(void)
{
	ssize_t n = readlink("/proc/self/exe", bindir, sizeof(bindir) - 1);

	cr_assert_gt(n, 0);
	bindir[n] = '\0';
	*strrchr(bindir, '/') = '\0';
	device = th_device();
}

/* The service manager, ready when it says so (sd_notify). */
static void sm_start(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct pollfd pf;
	char path[600], buf[64];
	FILE *f = fopen(POLICY, "w");
	ssize_t n;
	int s;

	cr_assert_not_null(f);
	cr_assert_eq(fclose(f), 0); /* empty: the built-in defaults */
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/rpc-serve-notify.%d", (int)getpid());
	unlink(sa.sun_path);
	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(s, 0);
	cr_assert_eq(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	snprintf(path, sizeof(path), "%s/servicemanager", bindir);
	sm_pid = th_fork();
	cr_assert_geq(sm_pid, 0);
	if (sm_pid == 0) {
		setenv("NOTIFY_SOCKET", sa.sun_path, 1);
		execl(path, "servicemanager", "-d", device, "-c", POLICY, "-q", (char *)NULL);
		_exit(127);
	}
	pf = (struct pollfd){ .fd = s, .events = POLLIN };
	cr_assert_eq(poll(&pf, 1, TH_HANG_MS), 1, "servicemanager did not get ready");
	n = recv(s, buf, sizeof(buf) - 1, 0);
	cr_assert_gt(n, 0);
	close(s);
	unlink(sa.sun_path);
}

/* code 1: token, String16 s -> "echo " + s; int32 calling pid. */
static int echo_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	char *s = NULL, out[256];
	int r;

	(void)self;
	(void)ud;
	if (code != 1)
		return -EBADMSG;
	r = bc_parcel_read_string16(in, &s, NULL);
	if (r == 0 && !s)
		r = -EBADMSG;
	if (r == 0) {
		snprintf(out, sizeof(out), "echo %s", s);
		r = bc_parcel_write_string16(reply, out);
	}
	if (r == 0)
		r = bc_parcel_write_int32(reply, (int32_t)bc_txn_get_calling_pid(txn));
	free(s);
	return r;
}

/* A child process serving ECHO_NAME on the device. */
static void svc_start(void)
{
	int pfd[2], r = -1;

	cr_assert_eq(pipe(pfd), 0);
	svc_pid = th_fork();
	cr_assert_geq(svc_pid, 0);
	if (svc_pid == 0) {
		bc_process *p = NULL;
		bc_class *cls = NULL;
		bc_binder *b = NULL;
		bc_sm *sm = NULL;

		close(pfd[0]);
		r = bc_process_open(device, &p);
		if (r == 0)
			r = bc_class_new(ECHO_DESC, echo_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
		if (r == 0)
			r = bc_binder_new(cls, NULL, &b);
		if (r == 0)
			r = bc_process_start_thread_pool(p);
		if (r == 0)
			r = bc_sm_new(p, BINDERC_SM_DIALECT_DEFAULT, &sm);
		if (r == 0)
			r = bc_sm_add(sm, ECHO_NAME, b, 0, 0);
		if (write(pfd[1], &r, sizeof(r)) != sizeof(r))
			_exit(98);
		for (;;)
			pause();
	}
	close(pfd[1]);
	{
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };

		cr_assert_eq(poll(&pf, 1, TH_HANG_MS), 1, "the service did not start");
		cr_assert_eq(read(pfd[0], &r, sizeof(r)), (ssize_t)sizeof(r));
	}
	close(pfd[0]);
	cr_assert_eq(r, 0, "the service's set-up: %d", r);
}

/* `binder rpc serve ECHO_NAME --listen @addr [--allow-cid @cid]`, ready
 * once it says it serves (its first line). */
static void serve_start(const char *addr, const char *cid)
{
	char path[600], line[256];
	size_t got = 0;
	int pfd[2];
	int64_t end = th_now_ms() + TH_HANG_MS;

	cr_assert_eq(pipe(pfd), 0);
	snprintf(path, sizeof(path), "%s/binder", bindir);
	serve_pid = th_fork();
	cr_assert_geq(serve_pid, 0);
	if (serve_pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		execl(path, "binder", "-d", device, "rpc", "serve", ECHO_NAME, "--listen", addr, "--max-threads", "2",
		      cid ? "--allow-cid" : (char *)NULL, cid, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	while (got < sizeof(line) - 1 && !memchr(line, '\n', got)) {
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
		int64_t left = end - th_now_ms();
		ssize_t n;

		cr_assert_gt(left, 0, "binder rpc serve said nothing");
		if (poll(&pf, 1, (int)left) != 1)
			continue;
		n = read(pfd[0], line + got, sizeof(line) - 1 - got);
		cr_assert_gt(n, 0, "binder rpc serve ended");
		got += (size_t)n;
	}
	line[got] = '\0';
	close(pfd[0]);
	cr_assert(strstr(line, "Serving " ECHO_NAME " [" ECHO_DESC "]"), "%s", line);
}

static void teardown(void)
{
	th_kill(serve_pid);
	th_kill(svc_pid);
	th_kill(sm_pid);
	serve_pid = svc_pid = sm_pid = 0;
	unlink(POLICY);
}

/* The echo service at @addr, called through libbinder-c and the tool. */
static void echo_through(const char *addr)
{
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	bc_parcel *data = NULL, *reply = NULL;
	char *desc = NULL, *got = NULL;
	int32_t pid = 0;

	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_not_null(root);
	cr_assert_eq(bc_binder_ping(root), 0);
	cr_assert_eq(bc_binder_get_interface(root, &desc), 0);
	cr_assert_str_eq(desc, ECHO_DESC);
	free(desc);
	/* the token in RPC form here; the service enforces it in kernel form */
	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_interface_token(data, ECHO_DESC), 0);
	cr_assert_eq(bc_parcel_write_string16(data, "over rpc"), 0);
	cr_assert_eq(bc_binder_transact(root, 1, data, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_string16(reply, &got, NULL), 0);
	cr_assert_str_eq(got, "echo over rpc");
	/* the service's caller is the tool, over the device */
	cr_assert_eq(bc_parcel_read_int32(reply, &pid), 0);
	cr_assert_eq(pid, (int32_t)serve_pid);
	free(got);
	bc_parcel_unref(reply);
	bc_parcel_unref(data);
	/* a wrong token is the service's refusal, passed back */
	cr_assert_eq(bc_binder_new_parcel(root, &data), 0);
	cr_assert_eq(bc_parcel_write_interface_token(data, "org.example.Other"), 0);
	cr_assert_eq(bc_parcel_write_string16(data, "x"), 0);
	cr_assert_lt(bc_binder_transact(root, 1, data, NULL, 0, NULL), 0);
	bc_parcel_unref(data);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	/* and from the shell */
	{
		char path[600], cmd[800], out[4096];
		FILE *p;
		size_t n;

		snprintf(path, sizeof(path), "%s/binder", bindir);
		snprintf(cmd, sizeof(cmd), "%s rpc call %s 1 s16 shell 2>&1", path, addr);
		p = popen(cmd, "r");
		cr_assert_not_null(p);
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		cr_assert_eq(pclose(p), 0, "%s", out);
		cr_assert(strstr(out, "echo shell"), "%s", out);
	}
}

Test(rpc_serve, echo_over_rpc, .fini = teardown, .timeout = TH_TEST_TIMEOUT_S)
{
	char addr[96];

	init_paths();
	sm_start();
	svc_start();
	snprintf(addr, sizeof(addr), "unix-abstract:binderc-rpc-serve-%d", (int)getpid());
	serve_start(addr, NULL);
	echo_through(addr);
}

/*
 * Whether this guest has a vsock transport that reaches itself (CID 1,
 * VMADDR_CID_LOCAL: the loopback transport, which run-guest loads on the
 * stock kernel).  Only the absence of a transport is a reason to skip.
 */
static bool have_vsock_local(void)
{
	struct sockaddr_vm vm = { .svm_family = AF_VSOCK, .svm_cid = VMADDR_CID_LOCAL, .svm_port = VMADDR_PORT_ANY };
	int s = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok = s >= 0 && bind(s, (struct sockaddr *)&vm, sizeof(vm)) == 0;
	int e = errno;

	if (s >= 0)
		close(s);
	errno = e; /* the reason, for the skip */
	return ok;
}

/* The same over vsock (issue 33's third transport), within the guest. */
Test(rpc_serve, echo_over_vsock, .fini = teardown, .timeout = TH_TEST_TIMEOUT_S)
{
	const char *k = getenv("BINDERC_GUEST_KERNEL");
	char addr[96];

	if (!have_vsock_local()) {
		/* run-guest packs the loopback transport for the stock kernel */
		cr_assert(!k || strcmp(k, "stock") != 0, "no vsock loopback on the stock kernel: %s", strerror(errno));
		cr_skip_test("no vsock transport to CID 1 in this guest (%s): vsock_loopback is packed for the stock "
			     "kernel only",
			     strerror(errno));
	}
	init_paths();
	sm_start();
	svc_start();
	/* a port of this process's own: two devices' runs never overlap */
	snprintf(addr, sizeof(addr), "vsock:local:%d", 20000 + (int)getpid() % 10000);
	/* serving the host's CID (2) only: this guest's own (1) is refused
	 * before the set-up, so the connect fails */
	serve_start(addr, "2");
	{
		bc_rpc_session *s = NULL;

		cr_assert_lt(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0,
			     "a CID not allowed was served");
		cr_assert_null(s);
	}
	th_kill(serve_pid);
	serve_pid = 0;
	/* and allowed */
	serve_start(addr, "1");
	echo_through(addr);
}
