// SPDX-License-Identifier: MIT
/*
 * Guest test helpers for signature interfaces: a server child process whose
 * object is the context manager (handle 0) of the device under test
 * ($BINDER_DEVICE), or over RPC binder (tests/common/th_rpc.h) the root
 * of an RPC server; and failure reporting inside children.
 */
#ifndef IFACE_GUEST_H
#define IFACE_GUEST_H

#include <stdio.h>
#include <sys/types.h>

#include <binderc/binderc.h>
#include <binderc/iface.h>

#include "harness.h" /* th_kill() ends a server */

/* Inside child processes: report and exit non-zero. */
#define G_CHECK(cond)                                                                               \
	do {                                                                                        \
		if (!(cond)) {                                                                      \
			fprintf(stderr, "[%d] %s:%d: check failed: %s\n", (int)getpid(), __FILE__, \
				__LINE__, #cond);                                                   \
			_exit(1);                                                                   \
		}                                                                                   \
	} while (0)
#define G_OK(expr)                                                                                   \
	do {                                                                                         \
		int g_r_ = (expr);                                                                   \
		if (g_r_ < 0) {                                                                      \
			fprintf(stderr, "[%d] %s:%d: %s = %d\n", (int)getpid(), __FILE__, __LINE__, #expr, \
				g_r_);                                                               \
			_exit(1);                                                                    \
		}                                                                                    \
	} while (0)

/*
 * Fork a server: in the child, @make(@arg, proc) returns the object to
 * serve; it becomes the context manager and a thread pool serves it
 * (over RPC: @proc is NULL, and the object is the server's root).
 * Returns once the child serves (or died: then -1); th_kill() ends it.
 */
pid_t g_server_start(bc_binder *(*make)(void *arg, bc_process *proc), void *arg);
/* Open the device under test with a thread pool, and get handle 0 (over
 * RPC: *@ret_proc is NULL, and the server's root comes by a session). */
int g_client(bc_process **ret_proc, bc_binder **ret_server);

#endif
