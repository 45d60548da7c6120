/* SPDX-License-Identifier: MIT */
/*
 * srv: a configurable node server run in a helper process, and the fixture
 * and set-up helpers shared by the multi-process, bad-input and CVE tests.
 *
 * The helper opens the device, enters the looper, publishes `nslots` nodes
 * (ptr SRV_PTR(i), cookie SRV_COOKIE(i)) in the test context manager's
 * slots first_slot.., tells the parent it is ready (u64 0 on the pipe),
 * and serves until the parent writes a command on the pipe (SRV_CMD_*) or
 * closes it.
 */
#ifndef BINDERC_TESTS_DRIVER_SRV_H
#define BINDERC_TESTS_DRIVER_SRV_H

#include "bt.h"

#define SRV_PTR(i)    ((binder_uintptr_t)0x10000 * ((i) + 1))
#define SRV_COOKIE(i) ((binder_uintptr_t)0xc0de0000 + (i))

/* codes the server understands */
#define C_ECHO     0x10u /* reply: the same bytes */
#define C_SEQ      0x11u /* oneway: u32 sequence number, checked in order */
#define C_RECURSE  0x12u /* u32 depth: call the peer (slot 4) with depth-1; reply u32 hops */
#define C_FDINFO   0x13u /* reply: struct srv_fdinfo for each fd found in the objects */
#define C_REPORT   0x14u /* reply: struct srv_report */
#define C_HANG     0x15u /* tell the parent (u64 C_HANG on the pipe), never reply */
#define C_SGINFO   0x16u /* reply: struct srv_sginfo */
#define C_NOFREE   0x17u /* reply, keeping the request buffer (never freed) */

#define SRV_CMD_EXIT  1u  /* exit(0) */
#define SRV_CMD_SERVE 2u  /* (wait_go servers) start serving */

struct srv_fdinfo {
	int32_t fd;        /* fd number in the receiver */
	int32_t cloexec;   /* FD_CLOEXEC set */
	uint64_t ino, dev; /* what it refers to */
	int32_t closed_after_free; /* FDA: closed by the kernel after BC_FREE_BUFFER */
	int32_t pad;
};

struct srv_report {
	uint32_t received;   /* transactions seen */
	uint32_t seq_next;   /* next expected C_SEQ number */
	uint32_t seq_errors; /* out-of-order C_SEQ */
	uint32_t sender_pid_nonzero_oneway;
};

struct srv_sginfo {
	uint32_t nobj;
	uint32_t ok;          /* every check passed */
	uint64_t buf0_in_map; /* first PTR's buffer points into the receiver's buffer */
	char child[16];       /* bytes behind the fixed-up pointer in the first PTR */
};

struct srv_cfg {
	uint32_t first_slot, nslots;
	size_t map_size;      /* 0: BT_VM_SIZE_DEFAULT */
	bool wait_go;         /* publish, then wait for SRV_CMD_SERVE before reading */
	bool node_no_fds;     /* publish nodes without FLAT_BINDER_FLAG_ACCEPTS_FDS */
	uint32_t max_threads;
};

int srv_main(void *arg, int rd, int wr);
/* Start a server and wait until it is ready. */
int srv_start(struct bt_child *ch, struct srv_cfg *cfg);
void srv_stop(struct bt_child *ch);
/* Get the strong handle in `slot` (asserts). */
uint32_t get_handle(struct bt_conn *c, uint32_t slot);
/* C_REPORT on the server behind handle `h` (asserts). */
struct srv_report srv_get_report(struct bt_conn *c, uint32_t h);

/* ---- the fixture of the multi-process suites --------------------------- */
/* TestSuite(..., .init = fixture_setup, .fini = fixture_teardown): each test
 * gets its own context manager `cm`, the connection `c` and a server slot
 * `s1` that teardown stops if a test started it. */
extern struct bt_child cm, s1;
extern struct bt_conn c;
void fixture_setup(void);
void fixture_teardown(void);
/* Start s1 with cfg (NULL: one node in slot 0) and return the strong
 * handle to its node in cfg->first_slot. */
uint32_t start_server(struct srv_cfg *cfg);
/* This process and a fresh one can still call the manager. */
void assert_usable(void);
/* A call on c that must fail with BR_FAILED_REPLY and the extended error
 * param `param` (sg: as BC_TRANSACTION_SG with buffers_size). */
void call_fails(const struct binder_transaction_data *t, bool sg, binder_size_t buffers_size,
		int32_t param);

/* The rest also work in helper processes (they fail with bt_require). */
/* BINDER_GET_NODE_DEBUG_INFO: the first node of conn after `after`. */
struct binder_node_debug_info node_info(struct bt_conn *conn, binder_uintptr_t after);
/* Publish conn's own node (ptr, cookie) in the manager's `slot`; *r (if not
 * NULL) gets the whole result, with the node work that rode along. */
void publish(struct bt_conn *conn, struct bt_result *r, uint32_t slot, uint32_t type,
	     binder_uintptr_t ptr, binder_uintptr_t cookie);
/* Open q (default mapping), enter the looper and publish a node in `slot`:
 * a node owner of its own, in this process or a helper. */
void open_node_owner(struct bt_conn *q, uint32_t slot, binder_uintptr_t ptr,
		     binder_uintptr_t cookie);
/* Wait for the BR_REPLY to a call already sent on conn, and free it. */
void finish_call(struct bt_conn *conn);
/* A helper process (bt_spawn_ready(ch, stuck_caller_main, &cfg, ms)): looks up the
 * node in cfg.slot, sends it a call of cfg.size bytes, tells the parent
 * (bt_spawn_ready) and never reads again, until it is killed. */
struct stuck_caller {
	uint32_t slot, code;
	size_t size;
};
int stuck_caller_main(void *arg, int rd, int wr);

/* Scatter-gather layouts: a header word first (a parent at data offset 0
 * reads as "no parent" on mainline), then the objects; offs[] for them. */
struct sg_fda {
	uint64_t header;
	struct binder_buffer_object p;      /* the fd array's parent */
	struct binder_fd_array_object a;
};
void sg_fda_init(struct sg_fda *d, binder_size_t offs[2], const uint32_t *fds,
		 size_t fds_bytes, uint32_t num_fds);
struct sg_pair {
	uint64_t header;
	struct binder_buffer_object a, b;   /* a parent and its child */
};
void sg_pair_init(struct sg_pair *d, binder_size_t offs[2], const void *parent,
		  size_t parent_len, const void *child, size_t child_len,
		  binder_size_t parent_offset);

#endif
