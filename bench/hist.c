// SPDX-License-Identifier: MIT
/* binderc-bench: log-linear latency histograms (see hist.h). */
#include "hist.h"

#include <math.h>

static unsigned bucket_of(uint64_t v)
{
	unsigned k;

	if (v < HIST_SUB)
		return (unsigned)v;
	k = 63u - (unsigned)__builtin_clzll(v); /* 2^k <= v, k >= 4 */
	return HIST_SUB + (k - 4) * HIST_SUB + (unsigned)((v >> (k - 4)) & (HIST_SUB - 1));
}

/* The smallest value of bucket @i and its width. */
static uint64_t bucket_low(unsigned i, uint64_t *width)
{
	unsigned k;

	if (i < HIST_SUB) {
		*width = 1;
		return i;
	}
	k = (i - HIST_SUB) / HIST_SUB + 4;
	*width = 1ull << (k - 4);
	return (1ull << k) + (uint64_t)((i - HIST_SUB) % HIST_SUB) * *width;
}

void hist_add(struct hist *h, uint64_t ns)
{
	if (!h->n || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->n++;
	h->b[bucket_of(ns)]++;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	if (!from->n)
		return;
	if (!into->n || from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	into->n += from->n;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->b[i] += from->b[i];
}

uint64_t hist_pct(const struct hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	rank = (uint64_t)ceil(p * (double)h->n);
	if (rank < 1)
		rank = 1;
	if (rank >= h->n) /* the last one is known exactly */
		return h->max_ns;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			uint64_t width, v = bucket_low(i, &width) + width / 2;

			return v < h->min_ns ? h->min_ns : v > h->max_ns ? h->max_ns : v;
		}
	}
	return h->max_ns;
}
