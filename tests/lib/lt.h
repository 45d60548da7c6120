/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the guest tests of libbinder-c: child processes, a test
 * context manager ("registry" of named objects at handle 0), a test
 * service and a callback class.
 */
#ifndef BINDERC_LT_H
#define BINDERC_LT_H

#include <stdio.h>
#include <sys/types.h>

#include <binderc/binderc.h>

#include "harness.h" /* th_wait(), th_kill() for lt_spawn's children */

/* Inside child processes: report and fail without Criterion. */
#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "[%d] %s:%d: check failed: %s\n", (int)getpid(), __FILE__, \
				__LINE__, #cond);                                                \
			return 1;                                                                \
		}                                                                                \
	} while (0)
#define CHECK_OK(expr)                                                                               \
	do {                                                                                         \
		int _r = (expr);                                                                     \
		if (_r < 0) {                                                                        \
			fprintf(stderr, "[%d] %s:%d: %s = %d\n", (int)getpid(), __FILE__, __LINE__, #expr, \
				_r);                                                                 \
			return 1;                                                                    \
		}                                                                                    \
	} while (0)

/* Service codes. */
enum {
	SVC_ADD = 1,	 /* int32 a, int32 b -> int32 a+b */
	SVC_WHO,	 /* -> int32 pid, int32 euid of the caller */
	SVC_PINGPONG,	 /* int32 n, binder peer -> int32 depth reached */
	SVC_REGISTER_CB, /* binder cb: later calls cb NOTIFY(42) from a plain thread */
	SVC_SEQ,	 /* oneway int32 i */
	SVC_GET_SEQ,	 /* -> int32 count, int32 in-order count */
	SVC_WRITE_FD,	 /* fd, String8 text: writes text into fd */
	SVC_GET_FD,	 /* -> fd of a pipe holding "from-service" */
	SVC_DEFER,	 /* int32 v -> int32 2v, replied later from another thread */
	SVC_CREATE,	 /* -> binder of a new test.IObj */
	SVC_STATS,	 /* -> int32 created, int32 destroyed test.IObj */
	SVC_FLAGS,	 /* raw LT_SECRET -> uint32 the call's flags as seen, raw LT_SECRET */
	CB_NOTIFY = 1,	 /* callback: int32 v */
};
#define SVC_DESC "binderc.test.IService"
#define CB_DESC "binderc.test.ICallback"
#define OBJ_DESC "binderc.test.IObj"
/* What a BINDERC_FLAG_CLEAR_BUF call carries (a multiple of 4 bytes). */
#define LT_SECRET "binderc.test: a secret, 32 bytes"
#define LT_SECRET_LEN 32

/*
 * The transport the suite runs over.  Kernel (the default): the device
 * $BINDER_DEVICE, a registry process as context manager.  RPC binder
 * (tests/common/th_rpc.h: the host's test_lib_rpc, or
 * BINDERC_TEST_TRANSPORT=rpc): no device at all; lt_open() gives a NULL
 * process, lt_publish() serves the object as the root of an RPC server on
 * an abstract unix socket named after the test and the object, and
 * lt_lookup() connects a session to it (with an incoming connection, for
 * callbacks from the service's own threads).  Tests of what only the
 * kernel does (freezing, the driver's own failures) skip over RPC.
 */
bool lt_rpc(void);

/* Run fn(arg) in a child process (th_fork: dies with the parent); wait for
 * it with th_wait(pid, -1), end it with th_kill(pid).  */
pid_t lt_spawn(int (*fn)(void *), void *arg);
/* In a child: tell the parent (blocked in lt_spawn) that we are ready;
 * children that never call it make lt_spawn wait for their exit. */
void lt_ready(void);

/* Start the registry (context manager) child; waits until it serves. */
pid_t lt_registry_start(void);

/* Open the device under test and start the pool. */
int lt_open(bc_process **ret, bool pool);
/* Publish / look up (waits up to 10 s) objects in the registry. */
int lt_publish(bc_process *p, const char *name, bc_binder *b);
int lt_lookup(bc_process *p, const char *name, bc_binder **ret);

/* Run the test service as "svc" (never returns unless it fails).
 * mode 0: thread pool; 1: polling mode on one thread (over RPC: a polled
 * RPC server, bc_rpc_server_listen_polled, in a poll() loop of its own). */
int lt_service_main(void *mode);

/* A callback object for clients: counts NOTIFY and answers PINGPONG. */
bc_binder *lt_callback_new(void);
/* Wait until @n notifications arrived (timeout in ms); returns count. */
int lt_callback_wait(int n, int timeout_ms);

/* Helpers for clients. */
int lt_call_add(bc_binder *svc, int32_t a, int32_t b, int32_t *ret);
int lt_call_pingpong(bc_binder *target, int32_t n, bc_binder *self, int32_t *ret);

#endif
