// SPDX-License-Identifier: MIT
/*
 * libbinderc-failnth.so: fault injection restricted to binder syscalls.
 *
 * LD_PRELOAD'ed into an unmodified test program.  Around some ioctl(2),
 * mmap(2) and open(2) calls on a binder device it writes N to
 * /proc/thread-self/fail-nth, so that the N-th slab or page allocation the
 * kernel makes inside that one syscall fails (failslab / fail_page_alloc,
 * with ignore-gfp-wait=N set by the harness), then clears it.  Allocations
 * outside binder syscalls are never failed, so what fails is the driver's
 * own allocations (and whatever it asks the kernel to allocate for it).
 *
 *   BINDERC_FAILNTH_RATE   percent of binder syscalls to inject into  [20]
 *   BINDERC_FAILNTH_MAX    N is drawn from 1..MAX                     [12]
 *   BINDERC_FAILNTH_SEED   per-thread streams derive from it          [1]
 *   BINDERC_FAILNTH_STATS  counters file (struct fz_failnth_stats in
 *                          fz.h), shared by every process (optional)
 *
 * "injected" counts syscalls where the failure was actually injected (the
 * kernel consumed the count), "failed" those of them that returned an
 * error, "silent" those that returned 0 with no BR_FAILED_REPLY, BR_ERROR
 * or BR_DEAD_REPLY in the data read: the failure either surfaces later or
 * was absorbed (e.g. by an allocation with a fallback).
 *
 * The counters live in a MAP_SHARED mapping of the stats file, updated with
 * atomic adds as they happen: the fuzz and storm workers are SIGKILLed or
 * _exit(), so counts kept until an exit-time destructor were never written.
 * A fork inherits the mapping; an exec'd program maps the file again.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/types.h>
#include <unistd.h>

#include <uapi/binder.h>

#include "fz.h"

static int (*real_ioctl)(int, unsigned long, ...);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_open)(const char *, int, ...);
static unsigned rate = 20, maxn = 12;
static uint64_t seed = 1;
static struct fz_failnth_stats local_stats, *st = &local_stats;

static __thread int nth_fd = -1;
static __thread struct fz_rng rng;
static __thread int rng_ready;

/* The child of a fork is one thread, the forking one: its fail-nth fd still
 * names the parent's thread (thread-self is resolved at open), and writing
 * it would arm the parent at a random point outside any binder syscall. */
static void failnth_atfork_child(void)
{
	if (nth_fd >= 0)
		close(nth_fd);
	nth_fd = -1;
	rng_ready = 0;
}

static void map_stats(const char *path)
{
	struct fz_failnth_stats *m;
	int fd;

	if (!path || !*path)
		return;
	fd = real_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* extends a new file with zeros; leaves an existing one as it is */
	if (ftruncate(fd, sizeof(*m)) == 0) {
		m = real_mmap(NULL, sizeof(*m), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED)
			st = m;
	}
	close(fd);
}

__attribute__((constructor)) static void failnth_init(void)
{
	real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	rate = (unsigned)fz_env_u64("BINDERC_FAILNTH_RATE", 20);
	maxn = (unsigned)fz_env_u64("BINDERC_FAILNTH_MAX", 12);
	seed = fz_env_u64("BINDERC_FAILNTH_SEED", 1);
	if (!maxn)
		maxn = 1;
	map_stats(getenv("BINDERC_FAILNTH_STATS"));
	atomic_fetch_add(&st->programs, 1);
	pthread_atfork(NULL, NULL, failnth_atfork_child);
}

/* binder devices are character devices named .../binder* */
static int is_binder_fd(int fd)
{
	char link[64], target[128];
	ssize_t n;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = 0;
	return strstr(target, "/binder") != NULL;
}

/* Arm fail-nth for the next syscall of this thread, or not. */
static unsigned arm(void)
{
	char buf[16];
	unsigned n;

	if (!rng_ready) {
		rng.s = fz_derive(seed, (uint64_t)getpid(), (uint64_t)syscall(SYS_gettid), 0, 0, 0);
		rng_ready = 1;
	}
	atomic_fetch_add(&st->calls, 1);
	if (!fz_pct(&rng, rate))
		return 0;
	if (nth_fd < 0) {
		nth_fd = real_open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
		if (nth_fd < 0)
			return 0;
	}
	n = 1 + fz_below(&rng, maxn);
	snprintf(buf, sizeof(buf), "%u", n);
	if (pwrite(nth_fd, buf, strlen(buf), 0) < 0)
		return 0;
	return n;
}

/* Disarm; true if the failure was injected. */
static int disarm(void)
{
	char buf[16];
	ssize_t n = pread(nth_fd, buf, sizeof(buf) - 1, 0);
	int injected;

	buf[n > 0 ? n : 0] = 0;
	injected = n > 0 && atoi(buf) == 0;
	if (!injected && pwrite(nth_fd, "0", 1, 0) < 0) {
		/* nothing more to do */
	}
	if (injected)
		atomic_fetch_add(&st->injected, 1);
	return injected;
}

/* Copy from our own memory without trusting the address: the fuzzer hands
 * the driver NULL, kernel and PROT_NONE pointers on purpose. */
static int safe_copy(void *dst, uint64_t src, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)(uintptr_t)src, n };

	return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n ? 0 : -1;
}

/*
 * An error BR among what this BINDER_WRITE_READ read: only the bytes the
 * kernel wrote in this call (read_consumed before .. after; it may start
 * non-zero), copied with safe_copy().  Dereferencing read_buffer directly
 * for read_consumed bytes crashed fuzz workers with SIGSEGV: with
 * read_size 0 the driver reads nothing and returns 0, leaving the fuzzer's
 * random read_consumed and its deliberately invalid read_buffer as they
 * were.
 */
static int error_in_reads(const struct binder_write_read *bwr, binder_size_t before)
{
	uint8_t buf[512];
	binder_size_t end = bwr->read_consumed;

	if (end <= before || end > bwr->read_size)
		return 0;
	for (binder_size_t at = before; at < end; at += sizeof(buf)) {
		size_t n = end - at < sizeof(buf) ? (size_t)(end - at) : sizeof(buf);

		if (safe_copy(buf, bwr->read_buffer + at, n))
			return 0;
		for (size_t i = 0; i + 4 <= n; i += 4) {
			uint32_t c;

			memcpy(&c, buf + i, 4);
			if (c == BR_FAILED_REPLY || c == BR_ERROR || c == BR_DEAD_REPLY)
				return 1;
		}
	}
	return 0;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct binder_write_read bwr;
	binder_size_t before = 0;
	va_list ap;
	void *arg;
	unsigned armed;
	int rc, err;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!is_binder_fd(fd))
		return real_ioctl(fd, req, arg);
	armed = arm();
	if (armed && req == BINDER_WRITE_READ && !safe_copy(&bwr, (uintptr_t)arg, sizeof(bwr)))
		before = bwr.read_consumed;
	rc = real_ioctl(fd, req, arg);
	err = errno;
	if (armed && disarm()) {
		if (rc < 0)
			atomic_fetch_add(&st->failed, 1);
		else if (req != BINDER_WRITE_READ || safe_copy(&bwr, (uintptr_t)arg, sizeof(bwr)) ||
			 !error_in_reads(&bwr, before))
			atomic_fetch_add(&st->silent, 1);
	}
	errno = err;
	return rc;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	unsigned armed;
	void *m;
	int err;

	if (!is_binder_fd(fd))
		return real_mmap(addr, len, prot, flags, fd, off);
	armed = arm();
	m = real_mmap(addr, len, prot, flags, fd, off);
	err = errno;
	if (armed && disarm()) {
		if (m == MAP_FAILED)
			atomic_fetch_add(&st->failed, 1);
		else
			atomic_fetch_add(&st->silent, 1);
	}
	errno = err;
	return m;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	unsigned armed = 0;
	int fd, err;

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;

		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	if (strncmp(path, "/dev/binder", 11) == 0)
		armed = arm();
	fd = real_open(path, flags, mode);
	err = errno;
	if (armed && disarm()) {
		if (fd < 0)
			atomic_fetch_add(&st->failed, 1);
		else
			atomic_fetch_add(&st->silent, 1);
	}
	errno = err;
	return fd;
}
