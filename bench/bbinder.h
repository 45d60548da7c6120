// SPDX-License-Identifier: MIT
/* binderc-bench: raw-ioctl binder helpers (see ipc_binder.c). */
#ifndef BINDERC_BENCH_BBINDER_H
#define BINDERC_BENCH_BBINDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uapi/binder.h>

/* Transaction codes of the registry and of the benchmark servers. */
#define BENCH_REG_CODE     1u
#define BENCH_LOOKUP_CODE  2u
#define BENCH_CALL_CODE    0x10u
#define BENCH_ONEWAY_CODE  0x11u
#define BENCH_QUIT_CODE    0x12u
#define BENCH_PING_CODE    0x5f504e47u /* '_PNG' */

/* Receive mappings: large enough for the 1 MiB - 8 KiB payload; the oneway
 * server gets the 4 MiB maximum so that its async half holds many buffers. */
#define BENCH_MAP_SIZE        ((size_t)2 << 20)
#define BENCH_MAP_SIZE_ONEWAY ((size_t)4 << 20)

struct bb_conn {
	int fd;
	void *map;
	size_t map_size;
	binder_uintptr_t pending_free; /* reply buffer to free with the next command */
	unsigned long n_acks;
	bool stashed;                  /* a BR_TRANSACTION read ahead */
	struct binder_transaction_data stash;
	size_t wlen, rlen, rpos;
	uint8_t wbuf[4096];
	uint8_t rbuf[1024];
};

int bb_open(struct bb_conn *c, const char *dev, size_t map_size);
void bb_close(struct bb_conn *c);
void bb_put_cmd(struct bb_conn *c, uint32_t cmd, const void *arg, size_t n);
int bb_enter_looper(struct bb_conn *c);
/* A transaction to @handle; for a sync one *@reply (if not NULL) gets the
 * reply, whose buffer stays valid until the next command. */
int bb_transact(struct bb_conn *c, uint32_t handle, uint32_t code, uint32_t flags, const void *data,
		size_t size, const binder_size_t *offs, size_t noffs, struct binder_transaction_data *reply);
/* Wait for the next incoming transaction. */
int bb_wait_txn(struct bb_conn *c, struct binder_transaction_data *tr);
/* Free @in's buffer and reply; returns after BR_TRANSACTION_COMPLETE. */
int bb_reply(struct bb_conn *c, const struct binder_transaction_data *in, const void *data, size_t size,
	     const binder_size_t *offs, size_t noffs);
/* Queue BC_FREE_BUFFER for @tr's buffer (sent with the next command). */
void bb_free_now(struct bb_conn *c, const struct binder_transaction_data *tr);
/* Android's real-time inheritance bit of the node's flags (binderc reads
 * it, mainline ignores it). */
#define BB_FLAG_INHERIT_RT 0x800u
int bb_register(struct bb_conn *c, unsigned key, binder_uintptr_t ptr, uint32_t extra_flags);
int bb_lookup(struct bb_conn *c, unsigned key, uint32_t *handle, int timeout_ms);

#endif
