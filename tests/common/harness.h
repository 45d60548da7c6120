/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what every binder-c test directory shares.
 *
 *  - the environment of a guest run: the device under test
 *    ($BINDER_DEVICE), which driver serves it ($BINDERC_TEST_DRIVER), the
 *    guest kernel ($BINDERC_GUEST_KERNEL, uname), fault injection;
 *  - a monotonic clock and the default bound of every wait;
 *  - child processes that die with the test (th_fork) and bounded waits
 *    for them (th_wait, th_kill);
 *  - the Criterion main of the guest binaries (th_criterion_main; main.c
 *    is a main() that only calls it);
 *  - assertions on byte strings and a skip helper (Criterion binaries).
 *
 * The environment helpers are static inline so that plain programs (the
 * fuzzer, the kill storm) use them without linking harness.o.
 */
#ifndef BINDERC_TESTS_HARNESS_H
#define BINDERC_TESTS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/*
 * The bound of a wait for something that must happen (a reply, a child's
 * message or exit, an event the test caused itself): a hang-catcher, whose
 * expiry means a real bug.  Generous on purpose: the guests run under TCG
 * on a shared 2-core host, sometimes a KASAN/lockdep kernel 5-10x slower
 * and a second guest beside them, and a hang-catcher tight enough to be
 * overrun there fails a correct driver.  It costs time only when the test
 * fails anyway.  See "Waits and time limits" in tests/README.md.
 */
#define TH_HANG_MS 60000
/* The default bound of a wait for the driver or a child: a hang-catcher. */
#define TH_TIMEOUT_MS TH_HANG_MS
/*
 * The bound of a whole guest test (Criterion's .timeout, in seconds): a
 * hang-catcher too, for a hang no wait of the test covers (an ioctl that
 * never returns).  Room for several TH_HANG_MS waits; a test that needs
 * longer on the debug kernel says so with a larger number.
 */
#define TH_TEST_TIMEOUT_S 600

/* The binder device under test: $BINDER_DEVICE, /dev/binder by default. */
static inline const char *th_device(void)
{
	const char *d = getenv("BINDER_DEVICE");

	return d && *d ? d : "/dev/binder";
}

/* Whether a device path names one of binderc's devices. */
static inline bool th_device_is_binderc(const char *dev)
{
	return strstr(dev, "binderc") != NULL;
}

/* Whether binderc (not mainline) is under test: $BINDERC_TEST_DRIVER when
 * the suite sets it, otherwise guessed from the device's name. */
static inline bool th_is_binderc(void)
{
	const char *d = getenv("BINDERC_TEST_DRIVER");

	if (d && *d)
		return strcmp(d, "binderc") == 0;
	return th_device_is_binderc(th_device());
}

static inline const char *th_driver_name(void)
{
	return th_is_binderc() ? "binderc" : "mainline";
}

/* The debug kernel (KASAN, lockdep, ...: many times slower) runs the suite. */
static inline bool th_debug_kernel(void)
{
	const char *k = getenv("BINDERC_GUEST_KERNEL");

	return k && strcmp(k, "debug") == 0;
}

/* The running kernel as VERSION * 100 + PATCHLEVEL (7.3 is 703); 0 if
 * unreadable. */
static inline int th_kernel(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 100 + minor;
}

static inline bool th_kernel_before(int major, int minor)
{
	return th_kernel() < major * 100 + minor;
}

/* Fault injection (fail-nth and failslab): the debug kernel only. */
static inline bool th_have_fault_injection(void)
{
	return access("/proc/thread-self/fail-nth", W_OK) == 0 && access("/sys/kernel/debug/failslab", F_OK) == 0;
}

/* Monotonic milliseconds. */
static inline int64_t th_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * One nap of a loop that polls for something that must happen:
 *
 *	int64_t end = th_now_ms() + TH_HANG_MS;
 *	do x = look(); while (!done(x) && th_nap_until(end));
 *
 * Naps 20 ms and returns true, or returns false at once when end has
 * passed.  A count of naps would be a clock that a slow guest outruns.
 */
static inline bool th_nap_until(int64_t end)
{
	if (th_now_ms() >= end)
		return false;
	usleep(20 * 1000);
	return true;
}

/* ---- child processes (harness.c) ------------------------------------------ */

/*
 * fork() for a test helper: stdio flushed first (no output twice), and the
 * child killed when the test process dies, so no helper outlives a crashed
 * or timed-out test.  Returns the pid, 0 in the child, or -errno.
 */
pid_t th_fork(void);
/* Wait for a child: its exit status, 128 + signal, -ETIMEDOUT after
 * timeout_ms (the child is left running; < 0: wait for ever), or -errno. */
int th_wait(pid_t pid, int timeout_ms);
/* SIGKILL and reap (nothing for pid <= 0). */
void th_kill(pid_t pid);

/*
 * Criterion's main, one test at a time whatever --jobs says: each guest
 * test wants the device's only context manager, or a budgeted run must not
 * share the guest's CPUs.  Names the device and driver first, so that a
 * log shows which run (mainline or binderc) a failure belongs to.
 */
int th_criterion_main(int argc, char *argv[]);

#ifdef CRITERION_H_
/* Skip the current test unless cond holds. */
#define th_skip_unless(cond, ...)               \
	do {                                    \
		if (!(cond))                    \
			cr_skip_test(__VA_ARGS__); \
	} while (0)

/* Assert that got[0..gn) equals want[0..wn), printing both on mismatch. */
static inline void th_assert_bytes(const void *got, size_t gn, const void *want, size_t wn)
{
	if (gn != wn || memcmp(got, want, gn) != 0) {
		char g[2048] = "", w[2048] = "";

		for (size_t i = 0; i < gn && i < 400; i++)
			snprintf(g + strlen(g), sizeof(g) - strlen(g), "%02x ", ((const unsigned char *)got)[i]);
		for (size_t i = 0; i < wn && i < 400; i++)
			snprintf(w + strlen(w), sizeof(w) - strlen(w), "%02x ", ((const unsigned char *)want)[i]);
		cr_assert_fail("bytes differ (%zu, want %zu)\n got:  %s\n want: %s", gn, wn, g, w);
	}
}
#endif

#endif
