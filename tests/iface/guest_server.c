// SPDX-License-Identifier: MIT
/*
 * The server of the guest tests of signature interfaces (their main() is
 * the shared one, tests/common/main.c: the context manager is one per
 * device, so tests run one at a time); or, over RPC binder (th_rpc.h: the
 * host's test_iface_rpc), the root of an RPC server.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"
#include "th_rpc.h"

/* The test process, that names the server's socket over RPC. */
static pid_t test_pid;

/* Over RPC (th_rpc.h): the object is the root of an RPC server, made
 * with no process, served by threads of the library's own. */
static void serve_over_rpc(bc_binder *(*make)(void *arg, bc_process *proc), void *arg, int ready_fd)
{
	bc_rpc_server *srv;
	bc_binder *obj = make(arg, NULL);
	char addr[128];
	int fd;

	G_CHECK(obj != NULL);
	th_rpc_address(addr, sizeof(addr), test_pid, "server");
	G_OK(th_rpc_server(obj, addr, &srv, &fd));
	G_CHECK(write(ready_fd, "r", 1) == 1);
	close(ready_fd);
	G_OK(bc_rpc_server_join(srv, fd));
	_exit(0);
}

pid_t g_server_start(bc_binder *(*make)(void *arg, bc_process *proc), void *arg)
{
	pid_t pid;
	int pfd[2];
	char c = 0;

	if (pipe(pfd) < 0)
		return -1;
	test_pid = getpid();
	pid = th_fork();
	if (pid == 0 && th_rpc()) {
		close(pfd[0]);
		serve_over_rpc(make, arg, pfd[1]);
	}
	if (pid == 0) {
		bc_process *p;
		bc_binder *obj;
		int r = -EBUSY;

		close(pfd[0]);
		G_OK(bc_process_open(NULL, &p));
		obj = make(arg, p);
		G_CHECK(obj != NULL);
		/* the previous test's manager may still be going away */
		for (int64_t end = th_now_ms() + TH_HANG_MS; r == -EBUSY;) {
			r = bc_process_become_context_manager(p, obj);
			if (r == -EBUSY && !th_nap_until(end))
				break;
		}
		G_OK(r);
		G_OK(bc_process_start_thread_pool(p));
		G_CHECK(write(pfd[1], "r", 1) == 1);
		close(pfd[1]);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (pid > 0 && read(pfd[0], &c, 1) != 1) {
		close(pfd[0]);
		th_wait(pid, -1);
		return -1;
	}
	close(pfd[0]);
	return pid;
}

int g_client(bc_process **ret_proc, bc_binder **ret_server)
{
	bc_rpc_session *s;
	char addr[128];
	int r;

	*ret_proc = NULL;
	if (th_rpc()) {
		/* the proxy holds the session */
		th_rpc_address(addr, sizeof(addr), test_pid, "server");
		r = th_rpc_connect(addr, &s);
		if (r == 0)
			r = bc_rpc_session_get_root(s, ret_server);
		bc_rpc_session_unref(s);
		return r == 0 && !*ret_server ? -ENOENT : r;
	}
	r = bc_process_open(NULL, ret_proc);

	if (r < 0)
		return r;
	r = bc_process_start_thread_pool(*ret_proc);
	if (r == 0)
		r = bc_process_get_handle(*ret_proc, 0, ret_server);
	if (r < 0)
		*ret_proc = bc_process_unref(*ret_proc);
	return r;
}
