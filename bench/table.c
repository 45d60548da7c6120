// SPDX-License-Identifier: MIT
/*
 * binderc-bench: the tables for people (--table), the same rows and
 * columns as bench/report.py draws from the JSON records, so that a run on
 * one's own machine reads like bench/results/.  No Python needed.
 */
#include "point.h"

#include <stdlib.h>
#include <string.h>

/* Distinct values of a field, in first-seen order. */
struct names {
	const char *v[64];
	int n;
};

static void names_add(struct names *s, const char *v)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], v))
			return;
	if (s->n < 64)
		s->v[s->n++] = v;
}

/* Contenders left out with --only are not rows. */
static bool shown(const struct point *p)
{
	return !p->err[0] || !strstr(p->err, "(--only)");
}

static struct names contenders_of(const char *wl)
{
	struct names s = { .n = 0 };

	for (struct point *p = points; p; p = p->next)
		if (!strcmp(p->workload, wl) && shown(p))
			names_add(&s, p->contender);
	return s;
}

static struct names params_of(const char *wl)
{
	struct names s = { .n = 0 };

	for (struct point *p = points; p; p = p->next)
		if (!strcmp(p->workload, wl))
			names_add(&s, p->param);
	return s;
}

static struct point *find(const char *wl, const char *param, const char *cont)
{
	for (struct point *p = points; p; p = p->next)
		if (!strcmp(p->workload, wl) && !strcmp(p->param, param) && !strcmp(p->contender, cont))
			return p;
	return NULL;
}

static const char *label(const char *c)
{
	if (!strcmp(c, "binderc"))
		return "binderc (ours)";
	if (!strcmp(c, "binder"))
		return "binder (mainline)";
	return c;
}

static const char *payload_name(const char *param, char *buf, size_t size)
{
	unsigned long v = strtoul(param, NULL, 10);

	if (v >= 1024 * 1024 - 8192 && v < 1024 * 1024)
		bench_fmt(buf, size, "1 MiB - %lu KiB", (1024 * 1024 - v) / 1024);
	else if (v && v % 1024 == 0)
		bench_fmt(buf, size, "%lu KiB", v / 1024);
	else
		bench_fmt(buf, size, "%lu B", v);
	return buf;
}

/* Numbers as report.py prints them: thousands separators from 10,000. */
static const char *num(double v, int decimals, char *buf, size_t size)
{
	if (v >= 10000) {
		char raw[40], *o = buf;
		int len = snprintf(raw, sizeof(raw), "%.0f", v);

		for (int i = 0; i < len && (size_t)(o - buf) + 2 < size; i++) {
			if (i && (len - i) % 3 == 0)
				*o++ = ',';
			*o++ = raw[i];
		}
		*o = 0;
	} else {
		bench_fmt(buf, size, "%.*f", decimals, v);
	}
	return buf;
}

static const char *ratio(double a, const struct point *ref, double b, char *buf, size_t size)
{
	if (!point_ok(ref) || b == 0)
		return "-";
	bench_fmt(buf, size, "%.2f", a / b);
	return buf;
}

static const char *spread(const struct point *p, char *buf, size_t size)
{
	double lo, hi;
	char a[32], b[32];

	if (p->nrep < 2)
		return "-";
	lo = hi = p->rep[0];
	for (int i = 1; i < p->nrep; i++) {
		lo = p->rep[i] < lo ? p->rep[i] : lo;
		hi = p->rep[i] > hi ? p->rep[i] : hi;
	}
	bench_fmt(buf, size, "%s-%s", num(lo, 1, a, sizeof(a)), num(hi, 1, b, sizeof(b)));
	return buf;
}

static const char *status(const struct point *p, char *buf, size_t size)
{
	bench_fmt(buf, size, p->pending ? "pending (%s)" : "n/a (error: %s)", p->err);
	return buf;
}

static double median_of(struct point *p)
{
	double med, p90, p99, max, mean, min;

	if (!point_ok(p) || !p->n)
		return 0;
	point_stats(p, &med, &p90, &p99, &max, &mean, &min);
	return med;
}

static void latency_rows(FILE *f, const char *wl, const char *ref, const char *floor)
{
	struct names ps = params_of(wl), cs = contenders_of(wl);
	char b[8][64];

	for (int i = 0; i < ps.n; i++) {
		struct point *rp = find(wl, ps.v[i], ref), *fp = find(wl, ps.v[i], floor);
		double rm = rp ? median_of(rp) : 0, fm = fp ? median_of(fp) : 0;
		const char *name = !strcmp(wl, "latency") || !strcmp(wl, "rpc") ? payload_name(ps.v[i], b[7], sizeof(b[7]))
			: !strcmp(ps.v[i], "fd") ? "1 fd" : ps.v[i];

		for (int c = 0; c < cs.n; c++) {
			struct point *p = find(wl, ps.v[i], cs.v[c]);
			double med, p90, p99, max, mean, min;

			if (!p || !shown(p))
				continue;
			if (!point_ok(p) || !p->n) {
				fprintf(f, "| %s | %s | %s | | | | | | |\n", name, label(cs.v[c]), status(p, b[0], sizeof(b[0])));
				continue;
			}
			point_stats(p, &med, &p90, &p99, &max, &mean, &min);
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, label(cs.v[c]),
				num(med, 1, b[0], 64), spread(p, b[1], 64), num(p90, 1, b[2], 64), num(p99, 1, b[3], 64),
				num(max, 1, b[4], 64), ratio(med, rp, rm, b[5], 64), ratio(med, fp, fm, b[6], 64));
		}
	}
}

static int cmp_param(const void *a, const void *b)
{
	return atoi(*(const char *const *)a) - atoi(*(const char *const *)b);
}

static void pairs_rows(FILE *f, const char *ref, const char *floor)
{
	struct names ps = params_of("pairs"), cs = contenders_of("pairs");
	char b[8][64];

	qsort(ps.v, (size_t)ps.n, sizeof(ps.v[0]), cmp_param);
	for (int i = 0; i < ps.n; i++) {
		struct point *rp = find("pairs", ps.v[i], ref), *fp = find("pairs", ps.v[i], floor);

		for (int c = 0; c < cs.n; c++) {
			struct point *p = find("pairs", ps.v[i], cs.v[c]), *one = find("pairs", "1", cs.v[c]);
			double t;
			struct lat_summary l;

			if (!p || !shown(p))
				continue;
			if (!point_ok(p)) {
				fprintf(f, "| %s | %s | %s | | | | | | |\n", ps.v[i], label(cs.v[c]),
					status(p, b[0], sizeof(b[0])));
				continue;
			}
			t = point_rep_mean(p);
			l = point_lat(p);
			fprintf(f, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", ps.v[i], label(cs.v[c]),
				num(t, 0, b[0], 64), spread(p, b[1], 64), num(l.avg, 1, b[2], 64), num(l.p99, 1, b[3], 64),
				ratio(t, one, one ? point_rep_mean(one) : 0, b[4], 64),
				ratio(t, rp, rp ? point_rep_mean(rp) : 0, b[5], 64),
				ratio(t, fp, fp ? point_rep_mean(fp) : 0, b[6], 64));
		}
	}
}

/* The pairs again, as binderThroughputTest prints them (ms). */
static void throughput_test_rows(FILE *f)
{
	struct names ps = params_of("pairs"), cs = contenders_of("pairs");

	qsort(ps.v, (size_t)ps.n, sizeof(ps.v[0]), cmp_param);
	for (int i = 0; i < ps.n; i++)
		for (int c = 0; c < cs.n; c++) {
			struct point *p = find("pairs", ps.v[i], cs.v[c]);
			struct lat_summary l;
			char b[64];

			if (!p || !shown(p) || !point_ok(p))
				continue;
			l = point_lat(p);
			fprintf(f, "| %s | %s | %s | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f |\n", ps.v[i],
				label(cs.v[c]), num(point_rep_mean(p), 1, b, sizeof(b)), l.avg / 1e3, l.max / 1e3,
				l.min / 1e3, l.p50 / 1e3, l.p90 / 1e3, l.p95 / 1e3, l.p99 / 1e3);
		}
}

static void oneway_rows(FILE *f, const char *ref)
{
	struct names cs = contenders_of("oneway");
	struct point *rp = find("oneway", "0", ref);
	char b[4][64];

	for (int c = 0; c < cs.n; c++) {
		struct point *p = find("oneway", "0", cs.v[c]);

		if (!p || !shown(p))
			continue;
		if (!point_ok(p)) {
			fprintf(f, "| %s | %s | | |\n", label(cs.v[c]), status(p, b[0], sizeof(b[0])));
			continue;
		}
		fprintf(f, "| %s | %s | %s | %s |\n", label(cs.v[c]), num(point_rep_mean(p), 0, b[0], 64),
			spread(p, b[1], 64), ratio(point_rep_mean(p), rp, rp ? point_rep_mean(rp) : 0, b[2], 64));
	}
}

/* Memory rows: KiB of kernel memory a process, per state. */
static void memory_rows(FILE *f, const char *ref)
{
	struct names ps = params_of("memory"), cs = contenders_of("memory");
	char b[4][64];

	for (int i = 0; i < ps.n; i++) {
		struct point *rp = find("memory", ps.v[i], ref);

		for (int c = 0; c < cs.n; c++) {
			struct point *p = find("memory", ps.v[i], cs.v[c]);

			if (!p || !shown(p))
				continue;
			if (!point_ok(p)) {
				fprintf(f, "| %s | %s | %s | | |\n", ps.v[i], label(cs.v[c]), status(p, b[0], sizeof(b[0])));
				continue;
			}
			fprintf(f, "| %s | %s | %.1f | %s | %s |\n", ps.v[i], label(cs.v[c]), point_rep_mean(p),
				spread(p, b[1], 64),
				ratio(point_rep_mean(p), rp, rp ? point_rep_mean(rp) : 0, b[2], 64));
		}
	}
}

/* api rows: contenders "DEVICE/LAYER", the ratio against DEVICE/raw. */
static void api_rows(FILE *f)
{
	struct names cs = contenders_of("api");
	char b[6][64], raw[40];

	for (int c = 0; c < cs.n; c++) {
		const char *slash = strchr(cs.v[c], '/');
		struct point *p = find("api", "0", cs.v[c]), *rp;
		double med, p90, p99, max, mean, min;

		if (!slash || !p || !shown(p))
			continue;
		bench_fmt(raw, sizeof(raw), "%.*s/raw", (int)(slash - cs.v[c]), cs.v[c]);
		rp = find("api", "0", raw);
		if (!point_ok(p) || !p->n) {
			fprintf(f, "| %.*s | %s | %s | | | |\n", (int)(slash - cs.v[c]), cs.v[c], slash + 1,
				status(p, b[0], sizeof(b[0])));
			continue;
		}
		point_stats(p, &med, &p90, &p99, &max, &mean, &min);
		fprintf(f, "| %.*s | %s | %s | %s | %s | %s |\n", (int)(slash - cs.v[c]), cs.v[c], slash + 1,
			num(med, 1, b[0], 64), spread(p, b[1], 64), num(p99, 1, b[2], 64),
			ratio(med, rp, rp ? median_of(rp) : 0, b[3], 64));
	}
}

static bool has(const char *wl)
{
	for (struct point *p = points; p; p = p->next)
		if (!strcmp(p->workload, wl) && shown(p))
			return true;
	return false;
}

/* The latency and objects tables: medians and tails per parameter. */
static void latency_table(FILE *f, const char *wl, const char *title, const char *first, const char *ref,
			  const char *floor)
{
	if (!has(wl))
		return;
	fprintf(f, "### %s\n\n| %s | contender | median | spread | p90 | p99 | max | vs %s | vs %s |\n"
		   "|---|---|---|---|---|---|---|---|---|\n", title, first, ref, floor);
	latency_rows(f, wl, ref, floor);
	fprintf(f, "\n");
}

void table_print(FILE *f, const char *ref, const char *floor)
{
	fprintf(f, "Latency in us; \"spread\" is the range of the per-repeat medians. Ratios: contender / %s "
		   "on the median (lower is better) for latency, on throughput (higher is better) for "
		   "pairs and oneway.\n\n", ref);
	latency_table(f, "latency", "Round-trip latency (payload in the request, empty reply)", "payload", ref,
		      floor);
	if (has("pairs")) {
		fprintf(f, "### Throughput: N client/server pairs, 0-byte round trips\n\n"
			   "| pairs | contender | round trips/s | spread | avg us | p99 us | vs 1 pair | vs %s | vs %s |\n"
			   "|---|---|---|---|---|---|---|---|---|\n", ref, floor);
		pairs_rows(f, ref, floor);
		fprintf(f, "\n### The same pairs in binderThroughputTest's terms (every client's round trips "
			   "together; ms)\n\n"
			   "| pairs | contender | iterations/s | average | worst | best | 50%% | 90%% | 95%% | 99%% |\n"
			   "|---|---|---|---|---|---|---|---|---|---|\n");
		throughput_test_rows(f);
		fprintf(f, "\n");
	}
	if (has("oneway")) {
		fprintf(f, "### Oneway: messages into one server (0-byte payload)\n\n"
			   "| contender | messages/s | spread | vs %s |\n|---|---|---|---|\n", ref);
		oneway_rows(f, ref);
		fprintf(f, "\n");
	}
	latency_table(f, "rtprio", "A SCHED_FIFO 10 caller under CPU hogs (one busy SCHED_OTHER process per CPU), "
		      "SCHED_OTHER server; node plain, or asking for its callers' real-time priority "
		      "(INHERIT_RT: binderc lends it, mainline ignores it)", "node", ref, floor);
	latency_table(f, "objects", "Round trips carrying objects (N local binder objects, or one fd)", "objects",
		      ref, floor);
	if (has("memory")) {
		fprintf(f, "### Kernel memory per binder process (KiB; 1 MiB mapping; idle, after a burst that "
			   "filled it, after memory pressure)\n\n"
			   "| state | contender | KiB a process | spread | vs %s |\n|---|---|---|---|---|\n", ref);
		memory_rows(f, ref);
		fprintf(f, "\n");
	}
	/* the goal is the rpc row's "vs socket" */
	latency_table(f, "rpc", "RPC binder over a unix socketpair vs the same socket's request/reply ping-pong "
		      "(payload in the request, empty reply; no binder device)", "payload", "socket", "rpc");
	if (has("api")) {
		fprintf(f, "### Library layers: 0-byte round trip, raw ioctls vs libbinder-c vs libffi proxy\n\n"
			   "| device | layer | median | spread | p99 | vs raw |\n|---|---|---|---|---|---|\n");
		api_rows(f);
		fprintf(f, "\n");
	}
}
