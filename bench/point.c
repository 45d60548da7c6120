// SPDX-License-Identifier: MIT
/* binderc-bench: folding blocks into points, and the JSON records. */
#include "point.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct point *points;
static struct point **points_tail = &points;

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t pct(const uint64_t *sorted, size_t n, double p)
{
	size_t i;

	if (!n)
		return 0;
	i = (size_t)ceil(p * (double)n);
	return sorted[i ? i - 1 : 0];
}

struct point *point_get(const char *wl, const char *param, const char *cont)
{
	struct point *p;

	for (p = points; p; p = p->next)
		if (!strcmp(p->workload, wl) && !strcmp(p->param, param) && !strcmp(p->contender, cont))
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		abort();
	p->workload = wl;
	bench_fmt(p->param, sizeof(p->param), "%s", param);
	bench_fmt(p->contender, sizeof(p->contender), "%s", cont);
	*points_tail = p;
	points_tail = &p->next;
	return p;
}

void point_add(struct point *p, const struct rhdr *h, const uint64_t *samples)
{
	if (h->n) {
		uint64_t *ns = realloc(p->samples, (p->n + h->n) * sizeof(uint64_t));
		uint64_t *sorted = malloc(h->n * sizeof(uint64_t));

		if (!ns || !sorted)
			abort();
		p->samples = ns;
		memcpy(p->samples + p->n, samples, h->n * sizeof(uint64_t));
		p->n += h->n;
		memcpy(sorted, samples, h->n * sizeof(uint64_t));
		qsort(sorted, h->n, sizeof(uint64_t), cmp_u64);
		if (p->nrep < POINT_MAXREP)
			p->rep[p->nrep++] = (double)pct(sorted, h->n, 0.5) / 1e3;
		free(sorted);
	} else if (p->nrep < POINT_MAXREP) {
		p->lat[p->nrep] = h->lat;
		p->rep[p->nrep++] = h->tput;
	}
}

void point_stats(struct point *p, double *median, double *p90, double *p99, double *max, double *mean,
		 double *min)
{
	double sum = 0;

	qsort(p->samples, p->n, sizeof(uint64_t), cmp_u64);
	for (size_t i = 0; i < p->n; i++)
		sum += (double)p->samples[i];
	*median = (double)pct(p->samples, p->n, 0.5) / 1e3;
	*p90 = (double)pct(p->samples, p->n, 0.9) / 1e3;
	*p99 = (double)pct(p->samples, p->n, 0.99) / 1e3;
	*max = p->n ? (double)p->samples[p->n - 1] / 1e3 : 0;
	*min = p->n ? (double)p->samples[0] / 1e3 : 0;
	*mean = p->n ? sum / (double)p->n / 1e3 : 0;
}

bool point_ok(const struct point *p)
{
	return p && !p->pending && !p->err[0] && (p->n || p->nrep);
}

double point_rep_mean(const struct point *p)
{
	double s = 0;

	for (int i = 0; i < p->nrep; i++)
		s += p->rep[i];
	return p->nrep ? s / p->nrep : 0;
}

struct lat_summary point_lat(const struct point *p)
{
	struct lat_summary s = { 0 };

	for (int i = 0; i < p->nrep; i++) {
		const struct lat_summary *l = &p->lat[i];

		s.avg += l->avg / p->nrep;
		s.p50 += l->p50 / p->nrep;
		s.p90 += l->p90 / p->nrep;
		s.p95 += l->p95 / p->nrep;
		s.p99 += l->p99 / p->nrep;
		s.min = i == 0 || l->min < s.min ? l->min : s.min;
		s.max = l->max > s.max ? l->max : s.max;
	}
	return s;
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The name of the per-block values in the JSON record. */
static const char *rep_key(const struct point *p)
{
	if (!strcmp(p->workload, "pairs") || !strcmp(p->workload, "oneway"))
		return "rep_tput";
	if (!strcmp(p->workload, "memory"))
		return "rep_kib";
	return "rep_median_us";
}

void point_emit(FILE *f, const char *prefix, const struct point *cp)
{
	struct point *p = (struct point *)cp; /* sorting its samples is no change */
	double med, p90, p99, max, mean, min;

	fprintf(f, "%s{\"type\":\"point\",\"workload\":\"%s\",\"param\":\"%s\",\"contender\":", prefix, p->workload,
		p->param);
	json_str(f, p->contender);
	if (p->pending || p->err[0]) {
		fprintf(f, ",\"status\":\"%s\",\"error\":", p->pending ? "pending" : "error");
		json_str(f, p->err);
	} else {
		fprintf(f, ",\"status\":\"ok\"");
	}
	if (p->n) {
		point_stats(p, &med, &p90, &p99, &max, &mean, &min);
		/* The exact median too: under -icount it is an instruction count. */
		fprintf(f, ",\"n\":%zu,\"median_ns\":%llu", p->n,
			(unsigned long long)pct(p->samples, p->n, 0.5));
		fprintf(f, ",\"median_us\":%.2f,\"p90_us\":%.2f,\"p99_us\":%.2f,\"max_us\":%.2f,"
			   "\"mean_us\":%.2f,\"min_us\":%.2f",
			med, p90, p99, max, mean, min);
	}
	if (p->nrep) {
		fprintf(f, ",\"%s\":[", rep_key(p));
		for (int i = 0; i < p->nrep; i++)
			fprintf(f, "%s%.2f", i ? "," : "", p->rep[i]);
		fprintf(f, "]");
		if (!strcmp(p->workload, "pairs")) {
			struct lat_summary l = point_lat(p);

			fprintf(f, ",\"lat_avg_us\":%.2f,\"lat_min_us\":%.2f,\"lat_max_us\":%.2f,\"lat_p50_us\":%.2f,"
				   "\"lat_p90_us\":%.2f,\"lat_p95_us\":%.2f,\"lat_p99_us\":%.2f",
				l.avg, l.min, l.max, l.p50, l.p90, l.p95, l.p99);
		}
	}
	fprintf(f, "}\n");
	fflush(f);
}
