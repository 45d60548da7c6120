// SPDX-License-Identifier: MIT
/*
 * fuzz-test: the budgeted fuzz run of 'make check' on $BINDER_DEVICE, plus
 * the named regression tests for what the fuzzer found.
 *
 *   BINDERC_FUZZ_OPS      operations over all workers       [default below]
 *   BINDERC_FUZZ_SECONDS  wall-clock cap (0: none)          [default below]
 *   BINDERC_FUZZ_SEED     seed (the run prints it)          [fixed default]
 *   BINDERC_FUZZ_PROCS / BINDERC_FUZZ_THREADS               [4 / 3]
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "guest.h"

/*
 * make check's budget (tests/fuzz/README.md has the measurements): binderc
 * on the debug kernel (KASAN, lockdep, kmemleak) gets a million
 * operations, capped at DEBUG_SECONDS on a slow host; mainline there, and
 * both drivers on the stock kernel, a short run (CI's time goes to our
 * driver).  Mainline's FD objects never carry a binder file: it keeps a
 * proc whose own file is queued to it forever (--no-binder-fds,
 * tests/driver/differences.h files_in_flight), which a long run ends up
 * doing.
 */
#define LONG_OPS      "1000000"
#define LONG_SECONDS  "2400"
#define SHORT_OPS     "200000"
#define SHORT_SECONDS "100"
#define CHECK_SEED    "0xb1dc0001"

static bool long_run(void)
{
	const char *k = getenv("BINDERC_GUEST_KERNEL");

	return k && !strcmp(k, "debug") && th_device_is_binderc(th_device());
}

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

TestSuite(fuzz, .timeout = 0);

Test(fuzz, budgeted_run)
{
	char *argv[] = {
		"binderc-fuzz", "--seed", (char *)env_or("BINDERC_FUZZ_SEED", CHECK_SEED),
		"--ops", (char *)env_or("BINDERC_FUZZ_OPS", long_run() ? LONG_OPS : SHORT_OPS),
		"--seconds", (char *)env_or("BINDERC_FUZZ_SECONDS", long_run() ? LONG_SECONDS : SHORT_SECONDS),
		"--procs", (char *)env_or("BINDERC_FUZZ_PROCS", "4"),
		"--threads", (char *)env_or("BINDERC_FUZZ_THREADS", "3"),
		"--device", (char *)th_device(),
		/* small reads included: the spin they found is fixed (the
		 * regression test below); BINDERC_FUZZ_MIN_READ=80 avoids them */
		"--min-read", (char *)env_or("BINDERC_FUZZ_MIN_READ", "0"),
		/* mainline's own leaks (README.md) are reported, not failed */
		th_device_is_binderc(th_device()) ? NULL : "--allow-leak", "node", "--no-binder-fds", NULL,
	};
	int64_t secs = (int64_t)fz_u64(argv[6], 0); /* --seconds */
	struct fzg_quiet q;
	int rc;

	fzg_quiet(&q);
	rc = fzg_run(argv, NULL, (int)(secs ? secs + 300 : 7200));
	fzg_loud(&q);
	cr_assert_eq(rc, 0, "binderc-fuzz --seed %s on %s failed (%d): see its output above",
		     argv[2], th_device(), rc);
}

/* ---- regression tests ------------------------------------------------------
 * One per bug the fuzzer or the stress found; each names the seed and the
 * kernel report.  They use raw ioctls only.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <uapi/binder.h>

/* Run fn in a child; true if it finished within timeout_ms (a child stuck
 * in the kernel cannot even be killed: it is left behind, and the kernel
 * will report the soft lockup). */
static bool finishes(int (*fn)(void), int timeout_ms, int *status)
{
	int64_t end = th_now_ms() + timeout_ms;
	pid_t pid = fork();
	int ws;

	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(fn());
	while (th_now_ms() < end) {
		if (waitpid(pid, &ws, WNOHANG) == pid) {
			*status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
			return true;
		}
		usleep(20 * 1000);
	}
	kill(pid, SIGKILL);
	return false;
}

/*
 * binderc-fuzz --seed 0x1 on /dev/binderc, stock kernel, first seconds:
 *   watchdog: BUG: soft lockup - CPU#0 stuck for 45s! [binderc-fuzz:110]
 *   RIP: 0010:binderc_thread_read+0xe3/0x9e0 [binderc]
 *    binderc_ioctl+0x17e/0x560 [binderc]
 * A read whose buffer has room for less than the largest BR item (4 + 72
 * bytes) while work is queued: binderc_read_one() answers -ENODATA both for
 * "no work" and for "no room", and binderc_thread_read() retries on
 * -ENODATA while only BR_NOOP was written, forever, under a spinlock loop.
 * Mainline breaks out and returns just BR_NOOP (read_consumed 4).
 */
static int small_read_child(void)
{
	int fd = open(th_device(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
	struct binder_transaction_data tr = { 0 };
	struct binder_write_read bwr = { 0 };
	uint8_t w[4 + sizeof(tr)], r[256];
	uint32_t cmd = BC_TRANSACTION;

	if (fd < 0 || mmap(NULL, 128 * 1024, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		return 10;
	/* a transaction to a handle nobody has: BR_FAILED_REPLY is queued */
	tr.target.handle = 0x7777;
	memcpy(w, &cmd, 4);
	memcpy(w + 4, &tr, sizeof(tr));
	bwr.write_buffer = (uintptr_t)w;
	bwr.write_size = sizeof(w);
	if (ioctl(fd, BINDER_WRITE_READ, &bwr) < 0)
		return 11;
	/* room for BR_NOOP and one small item only */
	for (size_t size = 4; size <= 72; size += 4) {
		memset(&bwr, 0, sizeof(bwr));
		bwr.read_buffer = (uintptr_t)r;
		bwr.read_size = size;
		if (ioctl(fd, BINDER_WRITE_READ, &bwr) < 0)
			return 12;
		if (bwr.read_consumed != 4)
			return 13;
	}
	/* and the queued error is still there for a big enough buffer */
	memset(&bwr, 0, sizeof(bwr));
	bwr.read_buffer = (uintptr_t)r;
	bwr.read_size = sizeof(r);
	if (ioctl(fd, BINDER_WRITE_READ, &bwr) < 0 || bwr.read_consumed != 8)
		return 14;
	memcpy(&cmd, r + 4, 4);
	return cmd == BR_FAILED_REPLY ? 0 : 15;
}

Test(fuzz_regress, small_read_buffer_with_pending_work, .timeout = TH_TEST_TIMEOUT_S)
{
	int status = -1;

	cr_assert(finishes(small_read_child, TH_HANG_MS, &status),
		  "a %s read with room for less than one item spins in the kernel (soft lockup)",
		  th_device());
	cr_assert_eq(status, 0, "small-read child failed at step %d", status);
}
