// SPDX-License-Identifier: MIT
/*
 * binderc-bench: results.  A point is one (workload, parameter, contender)
 * cell; the blocks measured for it are folded in as they arrive, and at the
 * end every point is written as one JSON record and, for people, as rows of
 * the tables bench/report.py also draws from those records.
 */
#ifndef BINDERC_BENCH_POINT_H
#define BINDERC_BENCH_POINT_H

#include "bench.h"

#include <stdio.h>

#define POINT_MAXREP 32

struct point {
	const char *workload;
	char param[16];
	char contender[32];
	bool pending;            /* not measurable here (helper missing) */
	char err[BENCH_ERRLEN];  /* non-empty: failed, with this reason */
	uint64_t *samples;       /* ns per round trip, every block's */
	size_t n;
	double rep[POINT_MAXREP]; /* per-block median (us) or throughput */
	int nrep;
	struct lat_summary lat[POINT_MAXREP]; /* pairs: per block */
	struct point *next;
};

/* Every point, in the order they were first measured. */
extern struct point *points;

/* The point of (@wl, @param, @cont), created empty when new. */
struct point *point_get(const char *wl, const char *param, const char *cont);
/* Fold one block's header and samples into @p. */
void point_add(struct point *p, const struct rhdr *h, const uint64_t *samples);
/* Sort @p's samples (once) and compute what the outputs print. */
void point_stats(struct point *p, double *median, double *p90, double *p99, double *max, double *mean,
		 double *min);
bool point_ok(const struct point *p);
/* The mean of the per-block values (throughput rows). */
double point_rep_mean(const struct point *p);
/* Pairs: the blocks' latency summaries together (means; worst and best
 * over all blocks). */
struct lat_summary point_lat(const struct point *p);

/* One JSON object per point and the run's meta/end records, each line
 * prefixed with @prefix ("BENCH " in guest logs, "" for --json). */
void point_emit(FILE *f, const char *prefix, const struct point *p);
void json_str(FILE *f, const char *s);

/* The tables of bench/report.py, as Markdown, from the points: ratios
 * against the contender labelled @ref and the floor @floor. */
void table_print(FILE *f, const char *ref, const char *floor);

int cmp_u64(const void *a, const void *b);
/* The @p quantile of @n sorted values. */
uint64_t pct(const uint64_t *sorted, size_t n, double p);

#endif
