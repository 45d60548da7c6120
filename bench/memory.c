// SPDX-License-Identifier: MIT
/*
 * binderc-bench: the memory workload (binder devices only).
 *
 * What a binder process costs the kernel, per process, from /proc/meminfo
 * in the same run for every device:
 *   idle      a process that opened the device, mapped 1 MiB and asked
 *             BINDER_VERSION (binder_proc, its thread, the page table of
 *             the mapping, the allocator's bookkeeping);
 *   burst     the same process after serving one sync call whose request
 *             filled its mapping (1 MiB - 8 KiB), buffer freed: the receive
 *             pages the driver keeps;
 *   pressure  after that, once the kernel asked every shrinker for memory
 *             (echo 2 > /proc/sys/vm/drop_caches, root only).
 * The kernel memory counted is MemTotal - MemFree - Buffers - Cached -
 * AnonPages - SReclaimable (unreclaimable slab, stacks, page tables and
 * pages the driver allocated; not the dentry and inode caches that memory
 * pressure empties); the same number of plain processes that never open
 * the device, measured just before (after the same pressure), is the
 * control, so that forking costs nothing in the figure.
 */
#include "bbinder.h"
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MEM_PROCS 64
#define MEM_MAP ((size_t)1 << 20)
#define MEM_BURST (MEM_MAP - 8192)

static long meminfo_kib(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtol(p + strlen(key), NULL, 10) : 0;
}

/* Read a /proc file whole into @buf (NUL-terminated); its length or -1. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = 0;
	return (ssize_t)len;
}

/* Sum of every "KEY N" in @text. */
static long sum_of(const char *text, const char *key)
{
	long sum = 0;

	for (const char *p = text; (p = strstr(p, key)); p += strlen(key))
		sum += strtol(p + strlen(key), NULL, 10);
	return sum;
}

/*
 * Free memory in KiB, counting the pages on the per-CPU free lists that
 * MemFree leaves out (up to megabytes, and the noise that hid a process's
 * few KiB): free pages of every zone plus every pageset's count.
 */
static long free_kib(void)
{
	static char zi[1 << 16];

	if (slurp("/proc/zoneinfo", zi, sizeof(zi)) <= 0)
		return -1;
	return (sum_of(zi, "\n  pages free ") + sum_of(zi, "\n              count: ")) * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Kernel-side memory in KiB (see the header), after letting deferred
 * frees (process exit, RCU) finish. */
static long kernel_kib(void)
{
	char buf[8192];
	long fr;

	usleep(300 * 1000);
	fr = free_kib();
	if (fr < 0 || slurp("/proc/meminfo", buf, sizeof(buf)) <= 0)
		return -1;
	return meminfo_kib(buf, "MemTotal:") - fr - meminfo_kib(buf, "Buffers:") - meminfo_kib(buf, "\nCached:") -
	       meminfo_kib(buf, "AnonPages:") - meminfo_kib(buf, "SReclaimable:");
}

enum holder_kind { PLAIN, IDLE, SERVER };

/* A holder: becomes what @kind says, writes 'r' (or 'E') to @ready and
 * stays until killed; a SERVER replies to every call. */
static void __attribute__((noreturn)) holder(const char *dev, enum holder_kind kind, unsigned key, int ready)
{
	struct bb_conn c;
	struct binder_version v;

	if (kind == PLAIN) {
		write_full(ready, "r", 1);
		pause();
		_exit(0);
	}
	if (bb_open(&c, dev, MEM_MAP) < 0 || ioctl(c.fd, BINDER_VERSION, &v) < 0)
		goto fail;
	if (kind == IDLE) {
		write_full(ready, "r", 1);
		pause();
		_exit(0);
	}
	if (bb_enter_looper(&c) < 0 || bb_register(&c, key, (binder_uintptr_t)&c, 0) < 0)
		goto fail;
	write_full(ready, "r", 1);
	for (;;) {
		struct binder_transaction_data tr;

		if (bb_wait_txn(&c, &tr) < 0 || bb_reply(&c, &tr, NULL, 0, NULL, 0) < 0)
			_exit(1);
	}
fail:
	write_full(ready, "E", 1);
	_exit(1);
}

static void kill_all(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
			pids[i] = 0;
		}
}

/* Start MEM_PROCS holders of @kind; 0 when all are ready. */
static int start_holders(const char *dev, enum holder_kind kind, unsigned key, pid_t *pids)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return bench_fail(-errno, "pipe: %s", strerror(errno));
	for (int i = 0; i < MEM_PROCS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return bench_fail(-errno, "fork: %s", strerror(errno));
		if (pids[i] == 0) {
			close(p[0]);
			holder(dev, kind, key + (unsigned)i, p[1]);
		}
	}
	close(p[1]);
	for (int i = 0; i < MEM_PROCS; i++) {
		char b = 0;

		if (wait_readable(p[0], 10000) <= 0 || read(p[0], &b, 1) != 1 || b != 'r') {
			close(p[0]);
			return bench_fail(-EIO, "a %s holder did not start", kind == SERVER ? "server" : "device");
		}
	}
	close(p[0]);
	return 0;
}

/* One client per server: one sync call filling the server's mapping. */
static int burst(const char *dev, unsigned key)
{
	struct bb_conn c;
	int r = bb_open(&c, dev, (size_t)128 << 10);

	for (int i = 0; r == 0 && i < MEM_PROCS; i++) {
		struct binder_transaction_data rep;
		uint32_t h;

		r = bb_lookup(&c, key + (unsigned)i, &h, 5000);
		if (r == 0)
			r = bb_transact(&c, h, BENCH_CALL_CODE, 0, bench_payload, MEM_BURST, NULL, 0, &rep);
	}
	if (c.fd > 0)
		bb_close(&c);
	return r;
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, "2\n", 2) != 2) {
		close(fd);
		return -errno;
	}
	close(fd);
	return 0;
}

/* w->param: 0 idle, 1 burst, 2 pressure.  The result is h.tput (KiB a
 * process). */
void run_memory(const char *dev, const struct workload *w, struct rhdr *h)
{
	pid_t pids[MEM_PROCS] = { 0 };
	long control, with;
	int r;

	if ((r = start_holders(dev, PLAIN, 0, pids)) < 0)
		goto out;
	if (w->payload == 2 && (r = drop_caches()) < 0) {
		r = bench_fail(r, "drop_caches: %s (needs root)", strerror(-r));
		goto out;
	}
	control = kernel_kib();
	kill_all(pids, MEM_PROCS);
	if ((r = start_holders(dev, w->payload ? SERVER : IDLE, w->key, pids)) < 0)
		goto out;
	if (w->payload && (r = burst(dev, w->key)) < 0)
		goto out;
	if (w->payload == 2 && (r = drop_caches()) < 0) {
		r = bench_fail(r, "drop_caches: %s", strerror(-r));
		goto out;
	}
	with = kernel_kib();
	if (control < 0 || with < 0) {
		r = bench_fail(-EIO, "cannot read /proc/meminfo");
		goto out;
	}
	h->tput = (double)(with - control) / MEM_PROCS;
	h->count = MEM_PROCS;
out:
	kill_all(pids, MEM_PROCS);
	h->status = r < 0 ? r : 0;
	if (r < 0)
		bench_fmt(h->err, sizeof(h->err), "%s", bench_err);
}
