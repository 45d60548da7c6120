// SPDX-License-Identifier: MIT
/*
 * binderc-bench: a latency histogram small enough to live in shared memory
 * per client (8 KiB), so that the pairs workload can merge every client's
 * round trips and give exact worst/best and percentiles of all of them
 * (within 1/16 of an octave), as binderThroughputTest reports them.
 */
#ifndef BINDERC_BENCH_HIST_H
#define BINDERC_BENCH_HIST_H

#include <stdint.h>

/* Values below 16 ns each have a bucket; above, 16 buckets per power of two. */
#define HIST_SUB 16
#define HIST_BUCKETS (HIST_SUB + (64 - 4) * HIST_SUB)

struct hist {
	uint64_t n, min_ns, max_ns;
	uint64_t b[HIST_BUCKETS];
};

void hist_add(struct hist *h, uint64_t ns);
void hist_merge(struct hist *into, const struct hist *from);
/* The @p quantile (0 < p <= 1) in ns: the middle of its bucket, clamped to
 * the exact min and max. */
uint64_t hist_pct(const struct hist *h, double p);

#endif
