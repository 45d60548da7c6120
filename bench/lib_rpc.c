// SPDX-License-Identifier: MIT
/*
 * binderc-bench-lib rpc: the RPC row of the "rpc" workload.  The same
 * round trip as the lbc row (bc_binder_new_parcel + bc_binder_transact,
 * PAYLOAD bytes in, an empty reply), but over an RPC binder session on a
 * unix socketpair instead of a binder device: no module, no registry.
 * Its server is a child process serving a bc_class root on one end; the
 * client sets up the session on the other.  binderc-bench measures the
 * socket contender's ping-pong of the same sizes beside it (the issue's
 * goal: RPC within 1.5x of the raw socket).
 */
#include "bench.h"
#include "lib_helper.h"

#include <binderc/binderc.h>
#include <binderc/rpc.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The server's child: serve the session on @fd until the client goes. */
static void serve_rpc(int fd)
{
	bc_rpc_server *srv = NULL;
	bc_binder *root = NULL;
	bc_class *cls = NULL;

	if (bc_class_new("org.binderc.bench.IRaw", lib_on_transact, NULL, 0, &cls) < 0 ||
	    bc_binder_new(cls, NULL, &root) < 0 || bc_rpc_server_new(root, &srv) < 0)
		_exit(1);
	bc_rpc_server_serve_fd(srv, fd);
	_exit(0);
}

int lib_rpc_run(long iters, long warm, size_t payload, struct rhdr *h, uint64_t *s)
{
	bc_rpc_session *ses = NULL;
	bc_binder *root = NULL;
	pid_t pid;
	int sv[2], r;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return bench_fail(-errno, "socketpair: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return bench_fail(-errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(sv[0]);
		serve_rpc(sv[1]);
	}
	close(sv[1]);
	r = bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_DEFAULT, 0, &ses);
	if (r < 0) {
		kill(pid, SIGKILL);
		return bench_fail(r, "bc_rpc_session_connect_fd: %s", strerror(-r));
	}
	r = bc_rpc_session_get_root(ses, &root);
	if (r == 0 && !root)
		r = -ENOENT;
	if (r == 0)
		r = lib_call_loop(root, iters, warm, payload, h, s);
	else
		bench_fail(r, "bc_rpc_session_get_root: %s", strerror(-r));
	bc_binder_unref(root);
	bc_rpc_session_unref(ses);
	/* the server ends when the session does (an exit of its own lets a
	 * profiler under it write its results); one that lingers is killed */
	for (int i = 0; i < 200; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return r;
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return r;
}
