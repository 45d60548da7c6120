/* SPDX-License-Identifier: MIT */
/*
 * srv: a configurable node server run in a helper process, shared by the
 * multi-process, bad-input and CVE tests.
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

#endif
