/* SPDX-License-Identifier: MIT */
/*
 * fz.h: small pieces shared by the fuzzer (tests/fuzz) and the kill-storm
 * stress (tests/stress): a seedable PRNG with deterministic sub-seeds, a
 * the driver's live-object counters and kernel-stack dumps
 * for hang reports.  Header-only (static inline), no dependencies.
 */
#ifndef BINDERC_TESTS_FUZZ_FZ_H
#define BINDERC_TESTS_FUZZ_FZ_H

#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* th_device(), th_device_is_binderc(), th_now_ms(): header-only, so the
 * plain programs need no harness object. */
#include "harness.h"

/* splitmix64: one 64-bit state, good enough mixing, trivially seedable. */
struct fz_rng {
	uint64_t s;
};

static inline uint64_t fz_next(struct fz_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A sub-seed for (seed, a, b, c, d, e): the same tuple always gives the same
 * value, so every process / thread / operation has its own fixed stream. */
static inline uint64_t fz_derive(uint64_t seed, uint64_t a, uint64_t b, uint64_t c,
				 uint64_t d, uint64_t e)
{
	const uint64_t part[5] = { a, b, c, d, e };
	struct fz_rng r = { seed };
	uint64_t v = fz_next(&r);

	for (int i = 0; i < 5; i++) {
		r.s = v ^ (part[i] * 0xd1342543de82ef95ULL + (uint64_t)i);
		v = fz_next(&r);
	}
	return v;
}

static inline uint32_t fz_below(struct fz_rng *r, uint32_t n)
{
	return n ? (uint32_t)(((fz_next(r) >> 32) * n) >> 32) : 0;
}

static inline bool fz_pct(struct fz_rng *r, unsigned pct)
{
	return fz_below(r, 100) < pct;
}

/* A seed from the clock when none is given (printed, so it can be re-run). */
static inline uint64_t fz_time_seed(void)
{
	struct timespec ts;
	struct fz_rng r;

	clock_gettime(CLOCK_REALTIME, &ts);
	r.s = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40);
	return fz_next(&r);
}

/* Numbers from the command line or the environment: decimal or 0x hex. */
static inline uint64_t fz_u64(const char *s, uint64_t dflt)
{
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return dflt;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end) {
		fprintf(stderr, "bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static inline uint64_t fz_env_u64(const char *name, uint64_t dflt)
{
	return fz_u64(getenv(name), dflt);
}

/*
 * Live driver objects.  binderc: /sys/kernel/debug/binderc/counters, "NAME N"
 * lines.  Mainline: /sys/kernel/debug/binder/stats, the unindented
 * "NAME: active N total M" lines.  Returns the sum (-1 if unreadable) and
 * names the non-zero kinds in why.
 */
/* Kinds of live objects not to count, comma-separated ("node"), from
 * --allow-leak: a known finding in mainline must not fail every run. */
static const char *fz_leak_allowed;

static inline bool fz_kind_allowed(const char *name)
{
	const char *a = fz_leak_allowed;
	size_t n = strlen(name);

	/* mainline says "node", binderc "nodes" */
	if (n > 1 && name[n - 1] == 's')
		n--;
	while (a && *a) {
		size_t m = strcspn(a, ",");

		if (m == n && !strncmp(a, name, n))
			return true;
		a += m + (a[m] == ',');
	}
	return false;
}

static inline long fz_live_objects(const char *dev, char *why, size_t len)
{
	const bool ours = th_device_is_binderc(dev);
	FILE *f = fopen(ours ? "/sys/kernel/debug/binderc/counters" :
			       "/sys/kernel/debug/binder/stats", "r");
	char line[256];
	long sum = 0;
	size_t w = 0;

	if (why && len)
		why[0] = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[40];
		long v, total;

		if (ours) {
			if (sscanf(line, "%39s %ld", name, &v) != 2)
				continue;
		} else if (line[0] == ' ' ||
			   sscanf(line, "%39[a-z_]: active %ld total %ld", name, &v, &total) != 3) {
			continue;
		}
		if (!fz_kind_allowed(name))
			sum += v;
		if (v && why && w + 64 < len)
			w += (size_t)snprintf(why + w, len - w, "%s%s %ld%s", w ? ", " : "", name, v,
					      fz_kind_allowed(name) ? " (allowed)" : "");
	}
	fclose(f);
	return sum;
}

/* Wait (bounded) until the driver has no live object; process release is
 * deferred to a workqueue.  Returns the last sum (0 = clean, -1 = no file). */
static inline long fz_wait_zero(const char *dev, int timeout_ms, char *why, size_t len)
{
	int64_t end = th_now_ms() + timeout_ms;
	long n;

	for (;;) {
		n = fz_live_objects(dev, why, len);
		if (n <= 0 || th_now_ms() > end)
			return n;
		usleep(50 * 1000);
	}
}

/* Kernel stacks of every thread of pid, for hang reports. */
static inline void fz_dump_stacks(pid_t pid, FILE *out)
{
	char path[96], buf[4096];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *leaf[] = { "comm", "wchan", "stack" };

		if (de->d_name[0] == '.')
			continue;
		fprintf(out, "  task %d/%s:\n", (int)pid, de->d_name);
		for (int i = 0; i < 3; i++) {
			FILE *f;
			size_t n;

			snprintf(path, sizeof(path), "/proc/%d/task/%.16s/%s", (int)pid,
				 de->d_name, leaf[i]);
			f = fopen(path, "r");
			if (!f)
				continue;
			n = fread(buf, 1, sizeof(buf) - 1, f);
			buf[n] = 0;
			fclose(f);
			fprintf(out, "    %s: %s%s", leaf[i], buf,
				n && buf[n - 1] == '\n' ? "" : "\n");
		}
	}
	closedir(d);
}

/* The driver's own view for hang reports: its debugfs "state" (every
 * proc's threads, nodes, refs, buffers and queued work), at most max_lines. */
static inline void fz_dump_driver_state(const char *dev, FILE *out, int max_lines)
{
	FILE *f = fopen(th_device_is_binderc(dev) ? "/sys/kernel/debug/binderc/state" :
					     "/sys/kernel/debug/binder/state", "r");
	char line[512];
	int n = 0;

	if (!f)
		return;
	fprintf(out, "  driver state (%s):\n", dev);
	while (fgets(line, sizeof(line), f) && n++ < max_lines)
		fprintf(out, "    %s", line);
	if (n > max_lines)
		fprintf(out, "    ... (cut at %d lines)\n", max_lines);
	fclose(f);
}

/*
 * The fault-injection shim's counters (failnth.c), kept in the file named
 * by BINDERC_FAILNTH_STATS, mapped MAP_SHARED by every process the shim is
 * loaded into: forks inherit the mapping, execs map it again, and what a
 * SIGKILLed or _exit()ing process counted is already there.  The file holds
 * this struct only; fault-test reads it after each program.
 */
struct fz_failnth_stats {
	_Atomic uint64_t programs;  /* processes that loaded the shim (execs) */
	_Atomic uint64_t calls;     /* binder syscalls seen */
	_Atomic uint64_t injected;  /* failures the kernel actually injected */
	_Atomic uint64_t failed;    /* ... of them, the syscall returned an error */
	_Atomic uint64_t silent;    /* ... returned success with no error BR */
};

#endif
