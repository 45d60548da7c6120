/* SPDX-License-Identifier: MIT */
/*
 * bt: a small helper library for raw-ioctl binder driver tests.
 *
 * Everything here talks to the device named by $BINDER_DEVICE (default
 * /dev/binder, th_device()) with plain ioctl(2): no libbinder, no servicemanager.  The
 * same binaries run against the mainline driver (the oracle) and against
 * binderc; $BINDERC_TEST_DRIVER says which one is under test.
 *
 * Conventions:
 *  - Functions returning int give 0 or -errno.
 *  - Every wait is bounded (BT_TIMEOUT_MS unless told otherwise).
 *  - Code running in forked helper processes must not use Criterion
 *    asserts; it uses bt_require(), which exits the helper instead.
 */
#ifndef BINDERC_TESTS_DRIVER_BT_H
#define BINDERC_TESTS_DRIVER_BT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uapi/binder.h>
#include <uapi/binder_names.h>

#include "harness.h" /* the device, driver and kernel under test, th_now_ms() */

#define BT_TIMEOUT_MS     TH_TIMEOUT_MS /* the harness's default bound */
/* libbinder's mapping: 1 MiB minus two pages. */
#define BT_VM_SIZE_LIBBINDER ((size_t)(1024 * 1024) - 2 * 4096)
#define BT_VM_SIZE_DEFAULT   ((size_t)128 * 1024)

/* Transaction codes understood by the test context manager (bt_cm_*). */
#define BT_PING_TRANSACTION 0x5f504e47u /* '_PNG' */
#define BT_SM_ADD   1u  /* u32 slot, flat_binder_object at offset 8 */
#define BT_SM_GET   2u  /* u32 slot -> reply: flat_binder_object or u32 ~0 */
#define BT_SM_DEL   3u  /* u32 slot -> releases the stored handle */
#define BT_SM_WHO   4u  /* reply: s32 sender_pid, u32 sender_euid */
#define BT_SM_ECHO  5u  /* reply: the same bytes (objects not copied) */
#define BT_SM_SLOTS 8

/* Which driver is under test (th_is_binderc() as an enum, for the
 * differences table). */
enum bt_driver { BT_MAINLINE, BT_BINDERC };
enum bt_driver bt_driver(void);

/* Failure reporting usable in both the Criterion test and in helpers. */
void bt_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define bt_require(cond, ...) \
	do { if (!(cond)) bt_fail_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)
extern int bt_in_helper; /* set in forked helper processes */

/* One open of the device, one mapping, and a per-thread BR queue. */
struct bt_conn {
	int fd;
	void *map;
	size_t map_size;
	/* parsed-ahead read buffer */
	uint8_t rbuf[512];
	size_t rlen, rpos;
	/* auto-ack BR_INCREFS/BR_ACQUIRE with the _DONE commands */
	bool autoack;
	/* called for a BR_TRANSACTION that arrives while waiting for a reply
	 * (nested call); it must reply. NULL: treated as a failure. */
	void (*nested)(struct bt_conn *c, const struct binder_transaction_data *tr, void *arg);
	void *nested_arg;
	/* log of every BR returned by bt_next (NOOP excluded) */
	uint32_t log[64];
	unsigned nlog;
};

int bt_open_dev(struct bt_conn *c, int oflags);              /* open only */
int bt_open(struct bt_conn *c, size_t map_size);             /* O_NONBLOCK, mmap, autoack */
/* The same on another device (another binder context of the driver). */
int bt_open_dev_at(struct bt_conn *c, const char *path, int oflags);
int bt_open_at(struct bt_conn *c, const char *path, size_t map_size);
void bt_thread_conn(struct bt_conn *thr, const struct bt_conn *proc); /* same fd, own queue */
void bt_close(struct bt_conn *c);

/* raw ioctls: 0 or -errno */
int bt_ioctl(int fd, unsigned long req, void *arg);
int bt_write_read(int fd, const void *w, size_t wsize, binder_size_t *wc,
		  void *r, size_t rsize, binder_size_t *rc);
int bt_write(struct bt_conn *c, const void *w, size_t wsize);  /* whole buffer or fail */
int bt_enter_looper(struct bt_conn *c);
/* BINDER_SET_CONTEXT_MGR (ext NULL) or _EXT, retried while -EBUSY (a
 * previous manager still being released) for up to timeout_ms. */
int bt_become_ctxmgr(struct bt_conn *c, const struct flat_binder_object *ext, int timeout_ms);
int bt_get_ee(struct bt_conn *c, struct binder_extended_error *ee);

/* Command buffer builder. */
struct bt_buf {
	uint8_t data[1024];
	size_t len;
};
void bt_put(struct bt_buf *b, const void *p, size_t n);
void bt_put32(struct bt_buf *b, uint32_t v);
void bt_put64(struct bt_buf *b, uint64_t v);
void bt_put_ref(struct bt_buf *b, uint32_t cmd, uint32_t handle);
void bt_put_free(struct bt_buf *b, binder_uintptr_t buffer);
void bt_put_death(struct bt_buf *b, uint32_t cmd, uint32_t handle, binder_uintptr_t cookie);
void bt_put_ptr_cookie(struct bt_buf *b, uint32_t cmd, binder_uintptr_t ptr, binder_uintptr_t cookie);
void bt_put_tr(struct bt_buf *b, uint32_t cmd, const struct binder_transaction_data *tr);
void bt_put_tr_sg(struct bt_buf *b, uint32_t cmd, const struct binder_transaction_data *tr,
		  binder_size_t buffers_size);

struct binder_transaction_data bt_tr(uint32_t handle, uint32_t code, uint32_t flags,
				     const void *data, size_t data_size,
				     const binder_size_t *offs, size_t offs_bytes);

/* One BR return, parsed. */
struct bt_br {
	uint32_t cmd;
	union {
		struct binder_transaction_data tr;
		struct binder_transaction_data_secctx trs;
		struct binder_ptr_cookie pc;
		binder_uintptr_t cookie;
		int32_t error;
		uint8_t raw[80];
	};
};
size_t bt_br_payload(uint32_t cmd);
const char *bt_br_name(uint32_t cmd);
const char *bt_bc_name(uint32_t cmd);

/* Next BR (BR_NOOP skipped); reads with poll when the queue is empty.
 * 0, -ETIMEDOUT, or the ioctl's -errno. */
int bt_next(struct bt_conn *c, struct bt_br *br, int timeout_ms);
/* True if nothing is pending: a non-blocking read returns -EAGAIN with
 * read_consumed == 0 and the local queue is empty. */
bool bt_read_empty(struct bt_conn *c);

/* Outcome of a transaction. */
struct bt_result {
	uint32_t final;          /* BR_REPLY, BR_FAILED_REPLY, BR_DEAD_REPLY, ... 0 on timeout */
	bool complete;           /* BR_TRANSACTION_COMPLETE seen */
	struct binder_transaction_data reply;
	uint32_t seen[32];       /* every BR seen while waiting (NOOP excluded) */
	unsigned nseen;
	struct bt_br refs[16];   /* BR_INCREFS..BR_DECREFS seen, in order */
	unsigned nrefs;
};
/* Issue BC_TRANSACTION and return at once; bt_wait_result() reads the outcome. */
int bt_send(struct bt_conn *c, const struct binder_transaction_data *tr);
/* Sync call (BC_TRANSACTION or _SG); waits for the final BR. Frees nothing. */
int bt_call(struct bt_conn *c, const struct binder_transaction_data *tr, struct bt_result *r);
int bt_call_sg(struct bt_conn *c, const struct binder_transaction_data *tr,
	       binder_size_t buffers_size, struct bt_result *r);
/* Oneway: waits for BR_TRANSACTION_COMPLETE or an error BR. */
int bt_oneway(struct bt_conn *c, const struct binder_transaction_data *tr, struct bt_result *r);
/* Wait for the outcome of a write that was already issued. */
int bt_wait_result(struct bt_conn *c, struct bt_result *r, bool sync, int timeout_ms);
/* Simple ping of a handle: returns the final BR (and frees the reply). */
uint32_t bt_ping(struct bt_conn *c, uint32_t handle);

/* Free a received buffer. */
int bt_free(struct bt_conn *c, binder_uintptr_t buffer);
/* Reply to an incoming transaction: frees its buffer, then BC_REPLY. */
int bt_reply(struct bt_conn *c, const struct binder_transaction_data *in,
	     const void *data, size_t size, const binder_size_t *offs, size_t noffs);
int bt_reply_empty(struct bt_conn *c, const struct binder_transaction_data *in);
/* BC_REPLY alone, freeing nothing (the request was freed, or is kept). */
int bt_send_reply(struct bt_conn *c, const void *data, size_t size);

/* Wait for a specific BR, auto-handling node work; other BRs fail. */
int bt_expect(struct bt_conn *c, uint32_t cmd, struct bt_br *out, int timeout_ms);

/* flat_binder_object helpers */
struct flat_binder_object bt_fbo_binder(uint32_t type, binder_uintptr_t ptr, binder_uintptr_t cookie);
struct flat_binder_object bt_fbo_handle(uint32_t type, uint32_t handle);
struct binder_fd_object bt_fdo(int fd);

/* ---- helper processes ---------------------------------------------------- */
struct bt_child {
	pid_t pid;
	int to_child;    /* parent writes */
	int from_child;  /* parent reads */
};
/* Fork a helper. In the child: bt_in_helper = 1, PDEATHSIG=SIGKILL, all fds
 * but 0-2 and the two pipe ends closed, then fn(arg, rd, wr); exit status
 * is fn's return value. */
int bt_spawn(struct bt_child *ch, int (*fn)(void *arg, int rd, int wr), void *arg);
/* bt_spawn, then wait (bounded) for the helper's first u64 on the pipe: 0
 * means ready, anything else is the errno it failed with (the helper is
 * then killed). 0 or -errno. */
int bt_spawn_ready(struct bt_child *ch, int (*fn)(void *arg, int rd, int wr), void *arg,
		   int timeout_ms);
/* Wait for exit (bounded); returns exit status, 128+sig, or -ETIMEDOUT. */
int bt_join(struct bt_child *ch, int timeout_ms);
void bt_kill(struct bt_child *ch);   /* SIGKILL + reap */
/* pipe helpers: bounded */
int bt_send_u64(int fd, uint64_t v);
int bt_recv_u64(int fd, uint64_t *v, int timeout_ms);

/* ---- the test context manager ------------------------------------------- */
/* Forks a process that becomes context manager of the device (retrying
 * while a previous manager is still being released), answers PING with an
 * empty reply and implements the BT_SM_* slot registry. */
int bt_cm_start(struct bt_child *cm);
/* The same on another device (path; NULL: th_device()). */
int bt_cm_start_on(struct bt_child *cm, const char *path);
void bt_cm_stop(struct bt_child *cm);
/* Register/lookup through the test context manager. */
uint32_t bt_sm_add(struct bt_conn *c, uint32_t slot, const struct flat_binder_object *obj);
/* The same, keeping the whole result (the node work that rode along) in *r;
 * a reply buffer is freed. 0 or the call's -errno. */
int bt_sm_add_result(struct bt_conn *c, uint32_t slot, const struct flat_binder_object *obj,
		     struct bt_result *r);
/* Returns the handle, 0 with *final set on failure. The reply buffer is freed;
 * the caller gets a strong ref (BC_ACQUIRE issued) it must release. */
int bt_sm_get(struct bt_conn *c, uint32_t slot, uint32_t *handle);
uint32_t bt_sm_del(struct bt_conn *c, uint32_t slot);

/* ---- a generic server -------------------------------------------------- */
typedef void (*bt_handler_fn)(struct bt_conn *c, const struct binder_transaction_data *tr, void *arg);
/* Handle BRs until `n` transactions were dispatched or timeout. Node work
 * is acked; BR_DEAD_BINDER gets BC_DEAD_BINDER_DONE. Returns count handled. */
int bt_serve(struct bt_conn *c, bt_handler_fn fn, void *arg, int n, int timeout_ms);
/* Serve (as bt_serve) until fd rd is readable (a command from the parent,
 * or its end closed), for as long as that takes; the command is left
 * unread.  slice_ms bounds each sleep, against a lost wakeup only. */
void bt_serve_until(struct bt_conn *c, bt_handler_fn fn, void *arg, int rd, int slice_ms);

/* The differences table (differences.h): the value to expect for `key` in
 * the current test on the driver under test; mainline_value where no row. */
long bt_expected(const char *key, long mainline_value);

/* The bytes of call number @seq: each buffer's content names its call,
 * so a buffer handed out twice or moved shows up as the wrong pattern. */
void bt_pattern(uint8_t *p, size_t n, uint32_t seq);
bool bt_has_pattern(const uint8_t *p, size_t n, uint32_t seq);

#endif
