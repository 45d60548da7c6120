// SPDX-License-Identifier: MIT
/*
 * binderc-bench: runs the benchmark workloads on every contender inside
 * one guest and prints one "BENCH {json}" line per result.
 *
 *   binderc-bench [--phase latency|scaling|all] [--quick] [options]
 *
 * Phases: latency (round trips by payload, objects, library layers; meant
 * for an -smp 1 guest), scaling (client/server pairs and oneway
 * throughput; meant for -smp 2), all (both, for the quick check).
 * Blocks of the same point are interleaved over the contenders and
 * repeated, so that every contender sees the same load; the spread over
 * repeats is reported with every point.  See bench/README.md.
 */
#include "hist.h"
#include "point.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

uint8_t *bench_payload;
size_t bench_payload_size;

#define MAX_PAYLOAD ((size_t)(1u << 20) - 8192)
#define MAXLIST 16
/* --payloads and --pairs replace these. */
static size_t payloads[MAXLIST] = { 0, 128, 4096, 65536, MAX_PAYLOAD };
static size_t npayloads = 5;
static int pair_counts[MAXLIST] = { 1, 2, 4, 8, 16 };
static size_t npaircounts = 5;
static const int obj_counts[] = { 1, 8, 64, -1 /* one fd */ };
#define NOBJCFG (sizeof(obj_counts) / sizeof(obj_counts[0]))

static struct {
	bool quick;
	long iters;   /* per latency point, over all repeats */
	int repeats;
	double secs;  /* per pairs block */
	long oneway;  /* messages per oneway block */
	const char *lib_helper; /* binderc-bench-lib, if built */
	const char *workloads;  /* --workloads: comma list, NULL = all */
	const char *params;     /* --params: comma list, NULL = all */
	int cpus[64];           /* --cpus: pin block processes to these */
	int ncpus;
	enum { OUT_TABLE, OUT_JSON, OUT_RECORDS } out;
	const char *reference;  /* --reference: the ratios' denominator */
	bool dry;               /* counting the blocks for the progress line */
	unsigned blocks, done;
} opt;

/* ---- contenders ---------------------------------------------------------- */

struct contender {
	const char *name;
	const struct ipc_ops *ops;
	const char *device;
	pid_t registry;
	char disabled[BENCH_ERRLEN]; /* non-empty: skip with this error */
	int timeouts;
};

/* The binder devices first (--device replaces them), then the others. */
#define MAXCONT 12
static struct contender contenders[MAXCONT] = {
	{ "binderc", &ipc_binder, "/dev/binderc", 0, "", 0 },
	{ "binder", &ipc_binder, "/dev/binder", 0, "", 0 },
	{ "pipe", &ipc_pipe, NULL, 0, "", 0 },
	{ "socket", &ipc_socket, NULL, 0, "", 0 },
	{ "futex", &ipc_futex, NULL, 0, "", 0 },
};
static size_t ncont = 5;

static int ensure_registry(struct contender *ct)
{
	if (!ct->ops->binder)
		return 0;
	if (ct->registry > 0 && waitpid(ct->registry, NULL, WNOHANG) == 0)
		return 0;
	if (access(ct->device, R_OK | W_OK) < 0) {
		bench_fmt(ct->disabled, sizeof(ct->disabled), "%s: %s", ct->device, strerror(errno));
		return -ENODEV;
	}
	pid_t p = registry_start(ct->device, 3000);
	if (p < 0) {
		ct->registry = 0;
		return bench_fail(p, "%s", bench_err);
	}
	ct->registry = p;
	return 0;
}

static void stop_registries(void)
{
	for (size_t i = 0; i < ncont; i++)
		if (contenders[i].registry > 0) {
			kill(-contenders[i].registry, SIGKILL);
			kill(contenders[i].registry, SIGKILL);
			waitpid(contenders[i].registry, NULL, 0);
			contenders[i].registry = 0;
		}
}

/* ---- runner protocol ------------------------------------------------------ */


static void send_result(int fd, struct rhdr *h, const uint64_t *samples)
{
	write_full(fd, h, sizeof(*h));
	if (h->n)
		write_full(fd, samples, h->n * sizeof(uint64_t));
}

static void send_error(int fd, int err, const char *what)
{
	struct rhdr h = { .status = err < 0 ? err : -EIO };

	bench_fmt(h.err, sizeof(h.err), "%s%s%s", what, *what && *bench_err ? ": " : "", bench_err);
	send_result(fd, &h, NULL);
}

/* Close a channel's descriptors in a process that does not use it. */
static void chan_drop(struct chan *c)
{
	for (int i = 0; i < 4; i++)
		if (c->fds[i] >= 0) {
			close(c->fds[i]);
			c->fds[i] = -1;
		}
}

/*
 * --cpus: the client of pair i runs on the (2i)th CPU of the list and its
 * server on the (2i+1)th, wrapping around; without the option the
 * scheduler places them.
 */
static void pin(int slot)
{
	cpu_set_t set;

	if (!opt.ncpus)
		return;
	CPU_ZERO(&set);
	CPU_SET(opt.cpus[slot % opt.ncpus], &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		fprintf(stderr, "bench: cannot pin to CPU %d: %s\n", opt.cpus[slot % opt.ncpus], strerror(errno));
}

/* Fork a server for channel @self of @cs[@n]; returns its pid, with the
 * ready byte read. */
static pid_t start_server(struct chan *cs, int ncs, int self, const struct workload *w, int done_fd, int timeout_s)
{
	struct chan *c = &cs[self];
	int rp[2];
	char buf[BENCH_ERRLEN + 1] = { 0 };

	if (pipe2(rp, O_CLOEXEC) < 0)
		return bench_fail(-errno, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		return bench_fail(-errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(rp[0]);
		for (int i = 0; i < ncs; i++)
			if (i != self)
				chan_drop(&cs[i]);
		alarm((unsigned)timeout_s + 5);
		bench_err[0] = 0;
		pin(2 * self + 1);
		int r = c->ops->serve(c, w, rp[1], done_fd);
		if (r < 0) {
			char m[BENCH_ERRLEN + 1];
			bench_fmt(m, sizeof(m), "E%s", bench_err[0] ? bench_err : strerror(-r));
			write_full(rp[1], m, strlen(m));
		}
		_exit(r < 0);
	}
	close(rp[1]);
	int wr = wait_readable(rp[0], 15000);
	ssize_t n = wr > 0 ? read(rp[0], buf, sizeof(buf) - 1) : 0;
	close(rp[0]);
	if (n >= 1 && buf[0] == 'r')
		return pid;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	if (n > 1 && buf[0] == 'E')
		return bench_fail(-EIO, "server: %s", buf + 1);
	return bench_fail(-ETIMEDOUT, "server did not start%s", wr > 0 ? " (exited)" : " (timeout)");
}

static void reap(pid_t pid, int ms)
{
	for (int i = 0; i < ms / 5; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * w->rt_prio: one SCHED_OTHER busy process per online CPU, each pinned to
 * its CPU, in the runner's process group (a timeout kills them with it).
 * Returns how many were started; hogs_stop() kills them.
 */
static int hogs_start(pid_t *pids, int max)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 0;

	for (long i = 0; i < ncpu && n < max; i++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			cpu_set_t set;
			volatile unsigned long spin = 0;

			/* Gone with the runner, whatever way it ends. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			alarm(600);
			CPU_ZERO(&set);
			CPU_SET((int)i, &set);
			sched_setaffinity(0, sizeof(set), &set);
			for (;;)
				spin++;
		}
		pids[n++] = pid;
	}
	return n;
}

static void hogs_stop(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
}

/* One client/server pair: latency, objects or oneway. */
static void run_single(const struct contender *ct, const struct workload *w, int out, int timeout_s)
{
	struct chan c = { .ops = ct->ops, .device = ct->device, .fds = { -1, -1, -1, -1 } };
	int dp[2] = { -1, -1 };
	int r;

	if ((r = ct->ops->make(&c, w, 0)) < 0)
		return send_error(out, r, "set-up");
	if (w->kind == WL_ONEWAY && pipe2(dp, O_CLOEXEC) < 0)
		return send_error(out, -errno, "pipe");
	pid_t srv = start_server(&c, 1, 0, w, dp[1], timeout_s);
	if (srv < 0)
		return send_error(out, srv, "");
	if (dp[1] >= 0)
		close(dp[1]);
	pin(0);
	if ((r = ct->ops->connect(&c, w)) < 0)
		return send_error(out, r, "connect");
	pid_t hogs[64];
	int nhogs = 0;
	if (w->rt_prio > 0) {
		struct sched_param sp = { .sched_priority = w->rt_prio };

		/* Forked first: they must not inherit SCHED_FIFO. */
		nhogs = hogs_start(hogs, 64);
		if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
			hogs_stop(hogs, nhogs);
			return send_error(out, -errno, "SCHED_FIFO");
		}
	}
	for (long i = 0; i < w->warmup; i++)
		if ((r = ct->ops->call(&c, w)) < 0)
			return send_error(out, r, "warm-up");

	struct rhdr h = { 0 };
	uint64_t *s = NULL;
	if (w->kind == WL_ONEWAY) {
		uint64_t t0 = now_ns();
		for (long i = 0; i < w->iters; i++)
			if ((r = ct->ops->send_oneway(&c, w)) < 0)
				return send_error(out, r, "oneway");
		int wr = wait_readable(dp[0], timeout_s * 1000);
		if (wr <= 0)
			return send_error(out, -ETIMEDOUT, "server did not receive every oneway message");
		h.elapsed_ns = now_ns() - t0;
		h.count = (uint64_t)w->iters;
		h.tput = (double)h.count * 1e9 / (double)h.elapsed_ns;
	} else {
		s = malloc((size_t)w->iters * sizeof(*s));
		if (!s)
			return send_error(out, -ENOMEM, "out of memory");
		uint64_t t0 = now_ns(), prev = t0;
		for (long i = 0; i < w->iters; i++) {
			if ((r = ct->ops->call(&c, w)) < 0)
				return send_error(out, r, "round trip");
			uint64_t t = now_ns();
			s[i] = t - prev;
			prev = t;
		}
		h.elapsed_ns = prev - t0;
		h.count = h.n = (uint32_t)w->iters;
	}
	hogs_stop(hogs, nhogs);
	ct->ops->close(&c);
	reap(srv, 2000);
	send_result(out, &h, s);
	free(s);
}

/*
 * One client of run_pairs(): connect, warm up, say 'c' on @ready (or 'E'),
 * wait for @go to close, then call for w->secs into @hist; the totals go
 * to @result.
 */
static void __attribute__((noreturn))
pair_client(const struct contender *ct, const struct workload *w, struct chan *c, int i, int go, int ready,
	    int result, struct hist *hist)
{
	struct pair_result pr = { 0 };
	uint64_t t0, end, prev;
	char b;
	int r;

	if ((r = ct->ops->connect(&c[i], w)) < 0) {
		pr.status = r;
		bench_fmt(pr.err, sizeof(pr.err), "connect: %s", bench_err);
		write_full(ready, "E", 1);
		goto done;
	}
	for (long j = 0; j < w->warmup; j++)
		if ((r = ct->ops->call(&c[i], w)) < 0) {
			pr.status = r;
			bench_fmt(pr.err, sizeof(pr.err), "warm-up: %s", bench_err);
			write_full(ready, "E", 1);
			goto done;
		}
	write_full(ready, "c", 1);
	if (read(go, &b, 1) < 0) { /* EOF = go */
	}
	t0 = now_ns();
	end = t0 + (uint64_t)(w->secs * 1e9);
	prev = t0;
	while (prev < end) {
		uint64_t t;

		if ((r = ct->ops->call(&c[i], w)) < 0) {
			pr.status = r;
			bench_fmt(pr.err, sizeof(pr.err), "round trip: %s", bench_err);
			goto done;
		}
		t = now_ns();
		hist_add(hist, t - prev);
		pr.sum_ns += t - prev;
		pr.count++;
		prev = t;
	}
	pr.elapsed_ns = prev - t0;
	ct->ops->close(&c[i]);
done:
	write_full(result, &pr, sizeof(pr));
	_exit(0);
}

/* npairs pairs, each client and each server a process of its own. */
static void run_pairs(const struct contender *ct, const struct workload *w, int out, int timeout_s)
{
	int n = w->npairs, r;
	struct chan c[16];
	pid_t srv[16], cli[16];
	int go[2], rp[2], cp[2];
	/* One histogram per client, shared: the runner merges them. (This
	 * process exits after the block; the mapping goes with it.) */
	struct hist *hists = mmap(NULL, (size_t)n * sizeof(*hists), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (hists == MAP_FAILED)
		return send_error(out, -errno, "mmap");

	for (int i = 0; i < n; i++) {
		c[i] = (struct chan){ .ops = ct->ops, .device = ct->device, .fds = { -1, -1, -1, -1 } };
		if ((r = ct->ops->make(&c[i], w, i)) < 0)
			return send_error(out, r, "set-up");
	}
	for (int i = 0; i < n; i++) {
		/* Each server keeps only its own channel: a pipe's EOF must
		 * reach the server when its client closes. */
		if ((srv[i] = start_server(c, n, i, w, -1, timeout_s)) < 0)
			return send_error(out, srv[i], "");
	}
	/* Made after the servers exist, so that only the clients hold them. */
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(rp, O_CLOEXEC) < 0 || pipe2(cp, O_CLOEXEC) < 0)
		return send_error(out, -errno, "pipe");
	for (int i = 0; i < n; i++) {
		cli[i] = fork();
		if (cli[i] < 0)
			return send_error(out, -errno, "fork");
		if (cli[i] == 0) {
			alarm((unsigned)timeout_s + 5);
			pin(2 * i);
			close(go[1]);
			close(rp[0]);
			for (int j = 0; j < n; j++)
				if (j != i)
					chan_drop(&c[j]);
			pair_client(ct, w, c, i, go[0], cp[1], rp[1], &hists[i]);
		}
	}
	close(go[0]);
	close(rp[1]);
	close(cp[1]);
	for (int i = 0; i < n; i++)
		chan_drop(&c[i]);
	for (int i = 0; i < n; i++) {
		char b = 0;
		if (wait_readable(cp[0], 15000) <= 0 || read(cp[0], &b, 1) != 1 || b != 'c') {
			struct pair_result pr = { 0 };
			if (b == 'E' && wait_readable(rp[0], 2000) > 0 && read_full(rp[0], &pr, sizeof(pr)) == 0)
				return send_error(out, pr.status, pr.err);
			return send_error(out, -ETIMEDOUT, "client did not connect");
		}
	}
	close(go[1]); /* go */
	struct rhdr h = { 0 };
	struct hist all = { 0 };
	double lat_sum = 0;
	uint64_t cnt = 0;
	for (int i = 0; i < n; i++) {
		struct pair_result pr;
		if (wait_readable(rp[0], (int)(w->secs * 1000) + 20000) <= 0 ||
		    read_full(rp[0], &pr, sizeof(pr)) < 0)
			return send_error(out, -ETIMEDOUT, "client did not report");
		if (pr.status < 0)
			return send_error(out, pr.status, pr.err);
		if (pr.elapsed_ns)
			h.tput += (double)pr.count * 1e9 / (double)pr.elapsed_ns;
		lat_sum += (double)pr.sum_ns;
		cnt += pr.count;
	}
	h.count = cnt;
	for (int i = 0; i < n; i++)
		hist_merge(&all, &hists[i]);
	h.lat = (struct lat_summary){
		.avg = cnt ? lat_sum / (double)cnt / 1e3 : 0,
		.min = (double)all.min_ns / 1e3,
		.max = (double)all.max_ns / 1e3,
		.p50 = (double)hist_pct(&all, 0.5) / 1e3,
		.p90 = (double)hist_pct(&all, 0.9) / 1e3,
		.p95 = (double)hist_pct(&all, 0.95) / 1e3,
		.p99 = (double)hist_pct(&all, 0.99) / 1e3,
	};
	for (int i = 0; i < n; i++) {
		reap(cli[i], 2000);
		reap(srv[i], 2000);
	}
	send_result(out, &h, NULL);
}

/* An external helper (libbinder-c / ffi variants): it gets the same
 * arguments and writes the same result stream to fd 3. */
static void run_helper(const char *mode, const struct contender *ct, const struct workload *w, int out)
{
	const char *helper = opt.lib_helper;
	char key[32], iters[32], warm[32], pay[32];

	bench_fmt(key, sizeof(key), "%u", w->key);
	bench_fmt(iters, sizeof(iters), "%ld", w->iters);
	bench_fmt(warm, sizeof(warm), "%ld", w->warmup);
	bench_fmt(pay, sizeof(pay), "%zu", w->payload);
	if (dup2(out, 3) < 0)
		return send_error(out, -errno, "dup2");
	/* (a contender without a device: "-", not an end of the list) */
	execl(helper, helper, mode, ct->device ? ct->device : "-", key, iters, warm, pay, (char *)NULL);
	bench_fail(-errno, "exec %s: %s", helper, strerror(errno));
	send_error(3, -errno, "");
}

/* ---- blocks ---------------------------------------------------------------- */

struct block {
	struct rhdr h;
	uint64_t *samples;
};

static int block_timeout(const struct workload *w)
{
	switch (w->kind) {
	case WL_LATENCY:
		return 20 + (int)((double)(w->iters + w->warmup) * (0.004 + (double)w->payload * 4e-8));
	case WL_OBJECTS:
		return 20 + (int)((double)(w->iters + w->warmup) * (0.005 + w->nobj * 0.0005));
	case WL_PAIRS:
		return 40 + (int)w->secs + 5 * w->npairs;
	case WL_ONEWAY:
		return 30 + (int)((double)w->iters * 0.003);
	case WL_MEMORY:
		return 90;
	}
	return 60;
}

static unsigned next_key = 16;

/* Run one block in a runner process of its own (process group). */
static int run_block(struct contender *ct, struct workload w, const char *helper, struct block *b)
{
	int p[2];

	memset(b, 0, sizeof(*b));
	if (ct->disabled[0])
		return bench_fail(-ECANCELED, "%s", ct->disabled);
	if (ensure_registry(ct) < 0)
		return bench_fail(-EIO, "registry: %s", ct->disabled[0] ? ct->disabled : bench_err);
	w.key = next_key;
	next_key += 64; /* pairs use up to 16 keys, the memory workload 32 */
	int tmo = block_timeout(&w);
	if (pipe2(p, O_CLOEXEC) < 0)
		return bench_fail(-errno, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		return bench_fail(-errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(p[0]);
		setpgid(0, 0);
		alarm((unsigned)tmo + 10);
		bench_err[0] = 0;
		if (helper) {
			run_helper(helper, ct, &w, p[1]);
		} else if (w.kind == WL_MEMORY) {
			struct rhdr h = { 0 };

			run_memory(ct->device, &w, &h);
			send_result(p[1], &h, NULL);
		} else if (w.kind == WL_PAIRS) {
			run_pairs(ct, &w, p[1], tmo);
		} else {
			run_single(ct, &w, p[1], tmo);
		}
		_exit(0);
	}
	setpgid(pid, pid);
	close(p[1]);
	int r = 0;
	int wr = wait_readable(p[0], tmo * 1000);
	if (wr <= 0 || read_full(p[0], &b->h, sizeof(b->h)) < 0) {
		r = wr == 0 ? bench_fail(-ETIMEDOUT, "timed out after %d s", tmo)
			    : bench_fail(-EIO, "runner died without a result");
		if (wr == 0 && ++ct->timeouts >= 2)
			bench_fmt(ct->disabled, sizeof(ct->disabled), "disabled after %d timeouts", ct->timeouts);
	} else if (b->h.status < 0) {
		r = bench_fail(b->h.status, "%s", b->h.err[0] ? b->h.err : strerror(-b->h.status));
	} else if (b->h.n) {
		b->samples = malloc(b->h.n * sizeof(uint64_t));
		if (!b->samples || wait_readable(p[0], 10000) <= 0 ||
		    read_full(p[0], b->samples, b->h.n * sizeof(uint64_t)) < 0)
			r = bench_fail(-EIO, "short sample stream");
	}
	close(p[0]);
	kill(-pid, SIGKILL);
	/* A process stuck in the kernel may not die; do not wait forever. */
	for (int i = 0; i < 400 && waitpid(pid, NULL, WNOHANG) == 0; i++)
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	while (waitpid(-1, NULL, WNOHANG) > 0) {
	}
	if (r < 0) {
		free(b->samples);
		b->samples = NULL;
	}
	return r;
}

/* ---- selection ---------------------------------------------------------------- */

static bool in_list(const char *list, const char *item)
{
	size_t n = strlen(item);

	if (!list)
		return true;
	for (const char *p = list; (p = strstr(p, item)); p++)
		if ((p == list || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
			return true;
	return false;
}

static bool selected(const char *wl, const char *param)
{
	return in_list(opt.workloads, wl) && in_list(opt.params, param);
}

/* Run one block for @ct and fold it into its point. */
static void measure(const char *wl, const char *param, const char *label, struct contender *ct,
		    const struct workload *w, const char *helper)
{
	if (!selected(wl, param))
		return;
	if (opt.dry) {
		opt.blocks++;
		return;
	}
	struct point *p = point_get(wl, param, label);
	struct block b;

	if (p->err[0]) { /* failed on an earlier repeat: do not retry */
		opt.done++;
		return;
	}
	uint64_t t0 = now_ns();
	int r = run_block(ct, *w, helper, &b);
	opt.done++;
	fprintf(stderr, "bench: [%u/%u] %-8s %-6s %-20s %s (%.1f s)\n", opt.done, opt.blocks, wl, param, label,
		r < 0 ? bench_err : "ok", (double)(now_ns() - t0) / 1e9);
	if (r < 0) {
		bench_fmt(p->err, sizeof(p->err), "%s", bench_err);
		return;
	}
	point_add(p, &b.h, b.samples);
	free(b.samples);
}

/* ---- phases ---------------------------------------------------------------- */

static long per_block(void)
{
	long n = opt.iters / opt.repeats;
	return n < 1 ? 1 : n;
}

/* RPC binder (issue 33's goal: within 1.5x of a raw unix socket): round
 * trips over an RPC session on a unix socketpair (the library helper's
 * rpc row) beside the socket contender's request/reply ping-pong of the
 * same sizes, interleaved in the same blocks.  Payloads up to 64 KiB; no
 * binder device needed, so it runs on any host. */
static void phase_rpc(long warm)
{
	struct contender *sock = NULL;
	char param[16];

	for (size_t c = 0; c < ncont; c++)
		if (!strcmp(contenders[c].name, "socket"))
			sock = &contenders[c];
	if (!sock)
		return; /* --only left it out: nothing to compare with */
	for (int rep = 0; rep < opt.repeats; rep++)
		for (size_t pi = 0; pi < npayloads; pi++) {
			struct workload w = { .kind = WL_LATENCY, .payload = payloads[pi], .iters = per_block(),
					      .warmup = warm };

			if (payloads[pi] > 65536)
				continue;
			bench_fmt(param, sizeof(param), "%zu", payloads[pi]);
			measure("rpc", param, "socket", sock, &w, NULL);
			if (opt.lib_helper)
				measure("rpc", param, "rpc", sock, &w, "rpc");
			else if (rep == 0 && selected("rpc", param) && !opt.dry) {
				struct point *p = point_get("rpc", param, "rpc");
				p->pending = true;
				bench_fmt(p->err, sizeof(p->err), "binderc-bench-lib not built");
			}
		}
}

static void phase_latency(void)
{
	char param[16];
	long warm = opt.quick ? 10 : 50;

	for (int rep = 0; rep < opt.repeats; rep++)
		for (size_t pi = 0; pi < npayloads; pi++)
			for (size_t c = 0; c < ncont; c++) {
				/* A 1 MiB payload costs ~10x: fewer warm-up trips. */
				bool big = payloads[pi] > 65536;
				struct workload w = { .kind = WL_LATENCY, .payload = payloads[pi],
						      .iters = per_block(), .warmup = big ? 5 : warm };
				/* --quick only checks that it works: few big ones. */
				if (opt.quick && big && w.iters > 20)
					w.iters = 20;
				bench_fmt(param, sizeof(param), "%zu", payloads[pi]);
				measure("latency", param, contenders[c].name, &contenders[c], &w, NULL);
			}
	for (int rep = 0; rep < opt.repeats; rep++)
		for (size_t oi = 0; oi < NOBJCFG; oi++)
			for (size_t c = 0; c < ncont; c++) {
				struct contender *ct = &contenders[c];
				struct workload w = { .kind = WL_OBJECTS, .nobj = obj_counts[oi] < 0 ? 0 : obj_counts[oi],
						      .fd = obj_counts[oi] < 0, .iters = per_block(), .warmup = warm };
				if (w.fd ? !ct->ops->can_fd : !ct->ops->can_objects)
					continue;
				if (w.fd)
					bench_fmt(param, sizeof(param), "fd");
				else
					bench_fmt(param, sizeof(param), "%d", w.nobj);
				measure("objects", param, ct->name, ct, &w, NULL);
			}
	/* The library layers: the same 0-byte round trip, raw ioctls vs the
	 * libraries (external helpers that share the registry). */
	for (int rep = 0; rep < opt.repeats; rep++)
		for (size_t c = 0; c < ncont; c++) {
			struct contender *ct = &contenders[c];

			if (!ct->ops->binder)
				continue;
			struct workload w = { .kind = WL_LATENCY, .payload = 0, .iters = per_block(), .warmup = warm };
			char label[40];
			bench_fmt(label, sizeof(label), "%s/raw", ct->name);
			measure("api", "0", label, ct, &w, NULL);
			bench_fmt(label, sizeof(label), "%s/libbinder-c", ct->name);
			if (opt.lib_helper)
				measure("api", "0", label, ct, &w, "lbc");
			else if (rep == 0 && selected("api", "0") && !opt.dry) {
				struct point *p = point_get("api", "0", label);
				p->pending = true;
				bench_fmt(p->err, sizeof(p->err), "binderc-bench-lib not built");
			}
			bench_fmt(label, sizeof(label), "%s/ffi", ct->name);
			if (opt.lib_helper)
				measure("api", "0", label, ct, &w, "ffi");
			else if (rep == 0 && selected("api", "0") && !opt.dry) {
				struct point *p = point_get("api", "0", label);
				p->pending = true;
				bench_fmt(p->err, sizeof(p->err), "binderc-bench-lib not built");
			}
		}
	phase_rpc(warm);
}

/* Memory per binder process: three states, binder devices only. */
static void phase_memory(void)
{
	static const char *const states[] = { "idle", "burst", "pressure" };
	int reps = opt.quick ? 1 : 3;

	for (int rep = 0; rep < reps; rep++)
		for (size_t s = 0; s < 3; s++)
			for (size_t c = 0; c < ncont; c++) {
				struct workload w = { .kind = WL_MEMORY, .payload = s };

				if (contenders[c].ops->binder)
					measure("memory", states[s], contenders[c].name, &contenders[c], &w, NULL);
			}
}

/*
 * A SCHED_FIFO caller's round trips to a SCHED_OTHER server while one busy
 * process per CPU runs: with the server's node asking for the caller's
 * priority (binderc lends it; mainline ignores the bit) and without.
 */
static void phase_rtprio(void)
{
	int reps = opt.quick ? 1 : 3;

	for (int rep = 0; rep < reps; rep++)
		for (int inherit = 0; inherit < 2; inherit++)
			for (size_t c = 0; c < ncont; c++) {
				struct workload w = { .kind = WL_LATENCY, .payload = 0, .iters = per_block(),
						      .warmup = opt.quick ? 5 : 20, .rt_prio = 10,
						      .rt_inherit = inherit };

				if (contenders[c].ops->binder)
					measure("rtprio", inherit ? "inherit" : "plain", contenders[c].name,
						&contenders[c], &w, NULL);
			}
}

static void phase_scaling(void)
{
	char param[16];
	int reps = opt.quick ? 1 : 3;

	for (int rep = 0; rep < reps; rep++)
		for (size_t pi = 0; pi < npaircounts; pi++)
			for (size_t c = 0; c < ncont; c++) {
				struct workload w = { .kind = WL_PAIRS, .npairs = pair_counts[pi], .secs = opt.secs,
						      .warmup = opt.quick ? 5 : 20 };
				bench_fmt(param, sizeof(param), "%d", pair_counts[pi]);
				measure("pairs", param, contenders[c].name, &contenders[c], &w, NULL);
			}
	for (int rep = 0; rep < reps; rep++)
		for (size_t c = 0; c < ncont; c++) {
			struct contender *ct = &contenders[c];
			if (!ct->ops->can_oneway)
				continue;
			struct workload w = { .kind = WL_ONEWAY, .payload = 0, .iters = opt.oneway, .warmup = 5 };
			measure("oneway", "0", ct->name, ct, &w, NULL);
		}
}

static const char *helper_next_to(const char *argv0, const char *name)
{
	static char buf[2][4096];
	static int k;
	const char *slash = strrchr(argv0, '/');
	char *b = buf[k++ & 1];

	if (!slash)
		return NULL;
	bench_fmt(b, sizeof(buf[0]), "%.*s/%s", (int)(slash - argv0), argv0, name);
	return access(b, X_OK) == 0 ? b : NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: binder-bench [--phase latency|scaling|all] [--quick] [--device LABEL=PATH]...\n"
		"                    [--only CONTENDERS] [--workloads LIST] [--params LIST]\n"
		"                    [--payloads BYTES,...] [--pairs N,...] [--iters N] [--repeats R]\n"
		"                    [--seconds S] [--oneway N] [--cpus LIST] [--reference LABEL]\n"
		"                    [--table|--json|--records]\n"
		"  workloads: latency objects api rpc memory rtprio pairs oneway; params: payload\n"
		"  bytes, object counts (1 8 64 fd), memory states (idle burst pressure),\n"
		"  rtprio nodes (plain inherit), pair\n"
		"  counts; contenders: the binder devices (default\n"
		"  binderc=/dev/binderc binder=/dev/binder), pipe socket futex.\n"
		"  Output: --table (default) Markdown tables, --json one JSON object per\n"
		"  result, --records the same prefixed with \"BENCH \" (guest logs).\n");
	exit(2);
}

static void die_usage(const char *what, const char *arg)
{
	fprintf(stderr, "binder-bench: %s: '%s'\n", what, arg);
	exit(2);
}

/* A comma list of numbers and ranges (A-B) in [lo, hi] into @out (at
 * most @max). */
static size_t parse_list(const char *what, const char *arg, unsigned long lo, unsigned long hi, size_t *out,
			 size_t max)
{
	const char *p = arg;
	size_t n = 0;

	while (*p) {
		char *end, *end2;
		unsigned long v, last;
		bool bad = false;

		errno = 0;
		v = last = strtoul(p, &end, 10);
		if (end != p && *end == '-') {
			last = strtoul(end + 1, &end2, 10);
			bad = end2 == end + 1; /* "A-": no end */
			end = end2;
		}
		if (bad || end == p || errno || v < lo || last > hi || last < v || (*end && *end != ',') ||
		    last - v >= max - n) {
			char m[96];

			bench_fmt(m, sizeof(m), "%s must be a list of at most %zu numbers from %lu to %lu", what, max,
				  lo, hi);
			die_usage(m, arg);
		}
		while (v <= last)
			out[n++] = v++;
		p = *end ? end + 1 : end;
	}
	if (!n)
		die_usage(what, arg);
	return n;
}

/* --device LABEL=PATH: the first one replaces the default binder devices. */
static void add_device(const char *arg)
{
	static size_t ndev;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;
	struct contender *ct;

	if (!eq || !len || len > 20 || !eq[1] || strspn(arg, "abcdefghijklmnopqrstuvwxyz"
						       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != len)
		die_usage("--device wants LABEL=PATH (LABEL: up to 20 of A-Z a-z 0-9 . _ -)", arg);
	if (ndev == 0) { /* drop the defaults, keep the non-binder contenders */
		for (size_t i = 0; i < ncont;) {
			if (contenders[i].ops->binder) {
				memmove(&contenders[i], &contenders[i + 1], (ncont - i - 1) * sizeof(contenders[0]));
				ncont--;
			} else {
				i++;
			}
		}
	}
	if (ncont == MAXCONT)
		die_usage("too many devices", arg);
	memmove(&contenders[ndev + 1], &contenders[ndev], (ncont - ndev) * sizeof(contenders[0]));
	ct = &contenders[ndev++];
	ncont++;
	*ct = (struct contender){ .ops = &ipc_binder, .device = eq + 1 };
	ct->name = strndup(arg, len);
	if (!ct->name)
		exit(1);
}

static void select_only(const char *only)
{
	char *l = malloc(strlen(only) + 3);

	if (!l)
		exit(1);
	sprintf(l, ",%s,", only);
	for (size_t c = 0; c < ncont; c++) {
		char pat[40];

		bench_fmt(pat, sizeof(pat), ",%s,", contenders[c].name);
		if (!strstr(l, pat))
			bench_fmt(contenders[c].disabled, sizeof(contenders[c].disabled), "not selected (--only)");
	}
	free(l);
}

static void parse_options(int argc, char **argv, const char **phase)
{
	static const struct option lo[] = {
		{ "phase", required_argument, NULL, 'p' },     { "quick", no_argument, NULL, 'q' },
		{ "iters", required_argument, NULL, 'i' },     { "repeats", required_argument, NULL, 'r' },
		{ "secs", required_argument, NULL, 's' },      { "seconds", required_argument, NULL, 's' },
		{ "oneway", required_argument, NULL, 'o' },    { "only", required_argument, NULL, 'O' },
		{ "workloads", required_argument, NULL, 'W' }, { "params", required_argument, NULL, 'P' },
		{ "device", required_argument, NULL, 'd' },    { "payloads", required_argument, NULL, 'y' },
		{ "pairs", required_argument, NULL, 'n' },     { "cpus", required_argument, NULL, 'c' },
		{ "reference", required_argument, NULL, 'R' }, { "table", no_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'J' },            { "records", no_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' },            { NULL, 0, NULL, 0 },
	};
	long iters = -1, oneway = -1;
	int repeats = -1, ch;
	double secs = -1;
	const char *only = NULL;
	size_t v[64];

	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'p': *phase = optarg; break;
		case 'q': opt.quick = true; break;
		case 'i': iters = atol(optarg); break;
		case 'r': repeats = atoi(optarg); break;
		case 's': secs = atof(optarg); break;
		case 'o': oneway = atol(optarg); break;
		case 'O': only = optarg; break;
		case 'W': opt.workloads = optarg; break;
		case 'P': opt.params = optarg; break;
		case 'd': add_device(optarg); break;
		case 'y': npayloads = parse_list("--payloads", optarg, 0, MAX_PAYLOAD, payloads, MAXLIST); break;
		case 'n':
			npaircounts = parse_list("--pairs", optarg, 1, 16, v, MAXLIST);
			for (size_t i = 0; i < npaircounts; i++)
				pair_counts[i] = (int)v[i];
			break;
		case 'c':
			opt.ncpus = (int)parse_list("--cpus", optarg, 0, CPU_SETSIZE - 1, v, 64);
			for (int i = 0; i < opt.ncpus; i++)
				opt.cpus[i] = (int)v[i];
			break;
		case 'R': opt.reference = optarg; break;
		case 'T': opt.out = OUT_TABLE; break;
		case 'J': opt.out = OUT_JSON; break;
		case 'B': opt.out = OUT_RECORDS; break;
		default: usage();
		}
	}
	if (optind < argc || (strcmp(*phase, "latency") && strcmp(*phase, "scaling") && strcmp(*phase, "all")))
		usage();
	opt.iters = iters > 0 ? iters : opt.quick ? 100 : 5000;
	opt.repeats = repeats > 0 ? repeats : opt.quick ? 1 : 5;
	if (opt.repeats > POINT_MAXREP)
		opt.repeats = POINT_MAXREP;
	opt.secs = secs > 0 ? secs : opt.quick ? 0.3 : 2.0;
	opt.oneway = oneway > 0 ? oneway : opt.quick ? 1000 : 10000;
	if (!opt.reference)
		opt.reference = "binder";
	if (only)
		select_only(only);
}

/* The library helper: beside this program (the build tree), or where
 * 'make install' puts it. */
static const char *find_lib_helper(const char *argv0)
{
	const char *h = helper_next_to(argv0, "binderc-bench-lib");

#ifdef BENCH_LIBEXECDIR
	if (!h && access(BENCH_LIBEXECDIR "/binderc-bench-lib", X_OK) == 0)
		h = BENCH_LIBEXECDIR "/binderc-bench-lib";
#endif
	return h;
}

static void run_phases(const char *phase)
{
	if (!strcmp(phase, "latency") || !strcmp(phase, "all")) {
		phase_latency();
		phase_memory();
		phase_rtprio();
	}
	if (!strcmp(phase, "scaling") || !strcmp(phase, "all"))
		phase_scaling();
}

int main(int argc, char **argv)
{
	const char *phase = "all";
	const char *prefix;
	struct utsname u;
	uint64_t t0;
	FILE *rec;
	int rc = 0;

	parse_options(argc, argv, &phase);
	opt.lib_helper = find_lib_helper(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	bench_payload_size = MAX_PAYLOAD;
	bench_payload = malloc(bench_payload_size);
	if (!bench_payload)
		return 1;
	for (size_t i = 0; i < bench_payload_size; i++)
		bench_payload[i] = (uint8_t)(i * 131 + 7);

	/* Records go to stdout, or nowhere when only the table is wanted. */
	prefix = opt.out == OUT_RECORDS ? "BENCH " : "";
	rec = opt.out == OUT_TABLE ? NULL : stdout;
	uname(&u);
	if (rec) {
		fprintf(rec, "%s{\"type\":\"meta\",\"phase\":\"%s\",\"quick\":%s,\"cpus\":%ld,\"kernel\":", prefix,
			phase, opt.quick ? "true" : "false", sysconf(_SC_NPROCESSORS_ONLN));
		json_str(rec, u.release);
		fprintf(rec, ",\"iters\":%ld,\"repeats\":%d,\"pair_secs\":%.2f,\"oneway_msgs\":%ld}\n", opt.iters,
			opt.repeats, opt.secs, opt.oneway);
		fflush(rec);
	}

	opt.dry = true; /* count the blocks, for the progress line */
	run_phases(phase);
	opt.dry = false;
	t0 = now_ns();
	run_phases(phase);
	stop_registries();
	if (rec) {
		for (struct point *p = points; p; p = p->next)
			point_emit(rec, prefix, p);
		fprintf(rec, "%s{\"type\":\"end\",\"secs\":%.1f}\n", prefix, (double)(now_ns() - t0) / 1e9);
	} else {
		printf("binder-bench: kernel %s, %ld CPUs, %ld iterations per latency point over %d repeats, "
		       "%.1f s per pairs block, %.0f s in all\n\n",
		       u.release, sysconf(_SC_NPROCESSORS_ONLN), opt.iters, opt.repeats, opt.secs,
		       (double)(now_ns() - t0) / 1e9);
		table_print(stdout, opt.reference, "futex");
	}

	/* The benchmark itself is broken if a reference contender failed. */
	for (struct point *p = points; p; p = p->next)
		if (!p->pending && p->err[0] && strcmp(p->contender, "binderc") && strncmp(p->contender, "binderc/", 8) &&
		    !strstr(p->err, "--only")) {
			fprintf(stderr, "bench: reference contender %s failed on %s %s: %s\n", p->contender, p->workload,
				p->param, p->err);
			rc = 1;
		}
	return rc;
}
