/* SPDX-License-Identifier: MIT */
/* binderc-bench-lib's pieces: the libbinder-c call loop its rows share,
 * and the RPC row (lib_rpc.c). */
#ifndef BENCH_LIB_HELPER_H
#define BENCH_LIB_HELPER_H

#include <binderc/binderc.h>

#include "bench.h"

/* The rows' object: every call answered with an empty reply. */
int lib_on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata);
/* @warm untimed, then @iters timed round trips on @srv (bc_binder_new_parcel
 * with @payload bytes, bc_binder_transact), the times in @s: 0 or -errno. */
int lib_call_loop(bc_binder *srv, long iters, long warm, size_t payload, struct rhdr *h, uint64_t *s);
/* The rpc row: the same loop on the root of an RPC session over a unix
 * socketpair, served by a child process. */
int lib_rpc_run(long iters, long warm, size_t payload, struct rhdr *h, uint64_t *s);

#endif
