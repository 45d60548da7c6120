// SPDX-License-Identifier: MIT
/*
 * fault-test: the conformance suite, the kill storm and the fuzzer again on
 * $BINDER_DEVICE, with allocation failures injected into binder syscalls
 * (libbinderc-failnth.so, see failnth.c; failslab and fail_page_alloc of
 * the debug kernel).  Skipped on kernels without fault injection.
 *
 * An injected failure may make a conformance test fail (that is what the
 * injection is for); what must hold is: every program ends (no hang), the
 * stress and fuzz invariants hold, the driver has no live object left
 * afterwards, and the kernel log stays clean (run-guest checks that).
 *
 *   BINDERC_FAULT_RATE     percent of binder syscalls injected into  [20]
 *   BINDERC_FAULT_SEED                                              [1]
 *   BINDERC_FAULT_STRESS_SECONDS / BINDERC_FAULT_FUZZ_OPS           [20 / 5000]
 *   BINDERC_FAULT_SUITES   conformance binaries, space separated  [interface,
 *                          badinput, cve; multiproc too in a soak]
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "guest.h"

#include <uapi/binder.h>

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

static struct fzg_quiet quiet;
static char env_preload[PATH_MAX + 16], env_rate[64], env_seed[64], env_stats[96];

static void need_fault_injection(void)
{
	th_skip_unless(th_have_fault_injection(), "no fault injection in this kernel (debug kernel only)");
}

static void setup(void)
{
	char lib[PATH_MAX];
	struct stat st;

	fzg_sibling("../lib/libbinderc-failnth.so", lib, sizeof(lib));
	if (stat(lib, &st))
		cr_assert_fail("%s missing", lib);
	/* sleeping allocations too (the driver's GFP_KERNEL ones), pages of
	 * any order and zone; no stack dump per injected failure */
	fzg_write_file("/sys/kernel/debug/failslab/ignore-gfp-wait", "N", NULL, 0);
	fzg_write_file("/sys/kernel/debug/failslab/verbose", "0", NULL, 0);
	fzg_write_file("/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N", NULL, 0);
	fzg_write_file("/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem", "N", NULL, 0);
	fzg_write_file("/sys/kernel/debug/fail_page_alloc/min-order", "0", NULL, 0);
	fzg_write_file("/sys/kernel/debug/fail_page_alloc/verbose", "0", NULL, 0);
	snprintf(env_preload, sizeof(env_preload), "LD_PRELOAD=%s", lib);
	snprintf(env_rate, sizeof(env_rate), "BINDERC_FAILNTH_RATE=%s", env_or("BINDERC_FAULT_RATE", "20"));
	snprintf(env_seed, sizeof(env_seed), "BINDERC_FAILNTH_SEED=%s", env_or("BINDERC_FAULT_SEED", "1"));
	snprintf(env_stats, sizeof(env_stats), "BINDERC_FAILNTH_STATS=/tmp/failnth.%d", (int)getpid());
	unlink(env_stats + strlen("BINDERC_FAILNTH_STATS="));
	fzg_quiet(&quiet);
}

static void teardown(void)
{
	fzg_loud(&quiet);
}

/* Print the shim's counters for the program just run (every process it
 * started counted into the shared file, see failnth.c) and start afresh;
 * returns the number of failures injected. */
static unsigned long long report(const char *what)
{
	const char *path = env_stats + strlen("BINDERC_FAILNTH_STATS=");
	struct fz_failnth_stats s;
	unsigned long long progs, calls, inj;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, &s, sizeof(s));

	if (fd >= 0)
		close(fd);
	unlink(path);
	if (n != (ssize_t)sizeof(s)) {
		printf("fault-test: %s on %s: no shim counters in %s (shim not loaded?)\n", what,
		       th_device(), path);
		fflush(stdout);
		return 0;
	}
	progs = atomic_load(&s.programs);
	calls = atomic_load(&s.calls);
	inj = atomic_load(&s.injected);
	printf("fault-test: %s on %s: %llu programs, %llu binder syscalls, %llu failures injected, "
	       "%llu returned an error, %llu returned success with no error BR (absorbed or "
	       "surfacing later)\n",
	       what, th_device(), progs, calls, inj, (unsigned long long)atomic_load(&s.failed),
	       (unsigned long long)atomic_load(&s.silent));
	fflush(stdout);
	return inj;
}

static void expect_no_leak(const char *after)
{
	char why[512];
	long live;

	if (!th_device_is_binderc(th_device()))
		fz_leak_allowed = "node"; /* mainline's own node leak (README.md) */
	live = fz_wait_zero(th_device(), TH_HANG_MS, why, sizeof(why));

	cr_assert(live <= 0, "live driver objects after %s under fault injection: %s", after, why);
}

TestSuite(fault, .init = setup, .fini = teardown, .timeout = 0);

Test(fault, conformance_suite)
{
	char suites[512], *save = NULL;
	char *env[] = { env_preload, env_rate, env_seed, env_stats, "BINDERC_FAULT=1", NULL };

	need_fault_injection();
	snprintf(suites, sizeof(suites), "%s",
		 env_or("BINDERC_FAULT_SUITES", "driver-interface-test driver-badinput-test "
						"driver-cve-test"));
	for (char *s = strtok_r(suites, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		char *argv[] = { s, NULL };
		int rc = fzg_run(argv, env, 1800);

		printf("fault-test: %s under fault injection exited %d (test failures are expected)\n", s, rc);
		cr_assert_neq(rc, -1, "%s hung under fault injection", s);
		cr_expect_gt(report(s), 0, "no failure injected into %s: the shim did not work", s);
		expect_no_leak(s);
	}
}

Test(fault, kill_storm)
{
	char *env[] = { env_preload, env_rate, env_seed, env_stats, "BINDERC_FAULT=1", NULL };
	char *argv[] = { "binderc-stress", "--seed", "0xfa17", "--procs", "8", "--seconds",
			 (char *)env_or("BINDERC_FAULT_STRESS_SECONDS", "20"),
			 th_device_is_binderc(th_device()) ? NULL : "--allow-leak", "node", NULL };
	int rc;

	need_fault_injection();
	rc = fzg_run(argv, env, 900);
	cr_expect_gt(report("binderc-stress"), 0, "no failure injected into binderc-stress: the shim did not work");
	cr_assert_eq(rc, 0, "binderc-stress under fault injection failed (%d)", rc);
}

Test(fault, fuzz)
{
	char *env[] = { env_preload, env_rate, env_seed, env_stats, "BINDERC_FAULT=1", NULL };
	char *argv[] = { "binderc-fuzz", "--seed", "0xfa17", "--ops",
			 (char *)env_or("BINDERC_FAULT_FUZZ_OPS", "5000"), "--seconds", "300",
			 "--min-read", (char *)env_or("BINDERC_FUZZ_MIN_READ", "0"),
			 th_device_is_binderc(th_device()) ? NULL : "--allow-leak", "node", "--no-binder-fds", NULL };
	int rc;

	need_fault_injection();
	rc = fzg_run(argv, env, 900);
	cr_expect_gt(report("binderc-fuzz"), 0, "no failure injected into binderc-fuzz: the shim did not work");
	cr_assert_eq(rc, 0, "binderc-fuzz under fault injection failed (%d)", rc);
}

/* ---- regression tests -----------------------------------------------------
 *
 * binderc-fuzz --seed 0xfa17 --ops 5000 under the shim (rate 20, seed 1),
 * debug kernel, /dev/binderc: "worker 1 inc 3 died of signal 11"; mainline
 * not in that run, by timing only.  The shim's own bug: after an injected
 * failure in a BINDER_WRITE_READ that returned 0 it scanned read_buffer
 * for read_consumed bytes, and the fuzzer's op_ioctl sends read_size 0 (or
 * less room than one item) with a random read_consumed and an invalid
 * read_buffer; the driver reads nothing, leaves both as they were, and the
 * scan faulted.  An injection that returns 0 is common on the debug kernel
 * (kmemleak's metadata allocation falls back to its pool).
 * The probe below: new binder threads doing exactly that call, every call
 * injected into; the old shim died of SIGSEGV on both drivers.
 */
static void *probe_thread(void *fdp)
{
	struct binder_write_read bwr = { 0 };

	bwr.read_consumed = 64;
	bwr.read_buffer = 16; /* invalid, never written: read_size is 0 */
	ioctl(*(int *)fdp, BINDER_WRITE_READ, &bwr);
	ioctl(*(int *)fdp, BINDER_THREAD_EXIT, 0);
	return NULL;
}

static int probe_main(void)
{
	int fd = -1;

	/* under injection the open itself may fail */
	for (int i = 0; i < 100 && fd < 0; i++)
		fd = open(th_device(), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 2;
	for (int i = 0; i < 300; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, probe_thread, &fd) == 0)
			pthread_join(t, NULL);
	}
	return 0;
}

TestSuite(fault_regress, .init = setup, .fini = teardown, .timeout = 0);

Test(fault_regress, shim_survives_unread_invalid_read_buffer)
{
	char *env[] = { env_preload, "BINDERC_FAILNTH_RATE=100", "BINDERC_FAILNTH_MAX=4", env_stats,
			"BINDERC_FAULT_PROBE=1", NULL };
	char *argv[] = { "fault-test", NULL };
	unsigned long long inj;
	int rc;

	need_fault_injection();
	rc = fzg_run(argv, env, 600);
	inj = report("probe");
	cr_assert_eq(rc, 0, "the shim's probe on %s ended with %d (139: SIGSEGV in the shim)", th_device(), rc);
	cr_expect_gt(inj, 0, "no failure injected into the probe");
}

/*
 * binderc-stress under the shim (seeds 0xfa17, 0xfa18; 8 procs, 20 s),
 * debug kernel, both drivers: "first oneway from 5.2 thread 1 has seq 2
 * (lost)", and "HANG ... call code 3 to handle 1 unanswered for 60006 ms"
 * with the caller's thread idle in the driver (no transaction on its
 * stack).  The storm's own bug: an allocation failing in
 * BC_REQUEST_DEATH_NOTIFICATION queues BR_ERROR, and until the thread
 * reads it both drivers stop taking commands: the next BINDER_WRITE_READ
 * succeeds with write_consumed short.  The storm took that for a whole
 * write: a BC_TRANSACTION never made (the hang) or a BC_FREE_BUFFER never
 * done (its node's later oneways stalled, the "lost" ones).  This checks
 * the driver behaviour the storm now handles (stress.c, wr()).
 */
Test(fault_regress, short_write_while_br_error_pending)
{
	/* cmd, then struct binder_handle_cookie: u32 handle, u64 cookie */
	uint32_t death[4] = { BC_REQUEST_DEATH_NOTIFICATION, 0, 0, 0 }, enter = BC_ENTER_LOOPER;
	struct binder_write_read bwr = { 0 };
	uint32_t r[32]; /* room for the largest item, or only BR_NOOP comes */
	int fd, nth, n;

	need_fault_injection();
	fd = open(th_device(), O_RDWR | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	/* the thread exists first: the death's kzalloc is then the 1st */
	cr_assert_eq(ioctl(fd, BINDER_WRITE_READ, &bwr), 0);
	nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	cr_assert_geq(nth, 0);
	/* Fail the 1st, 2nd, ... allocation of a death request until one of
	 * them was the death's (the debug kernel's own hooks allocate too):
	 * then a write of one command is not taken at all. */
	for (n = 1; n <= 16; n++) {
		char arm[8];

		snprintf(arm, sizeof(arm), "%d", n);
		cr_assert_eq(write(nth, arm, strlen(arm)), (ssize_t)strlen(arm));
		memset(&bwr, 0, sizeof(bwr));
		bwr.write_buffer = (uintptr_t)death;
		bwr.write_size = sizeof(death);
		ioctl(fd, BINDER_WRITE_READ, &bwr);
		cr_assert_eq(write(nth, "0", 1), 1);
		memset(&bwr, 0, sizeof(bwr));
		bwr.write_buffer = (uintptr_t)&enter;
		bwr.write_size = 4;
		cr_assert_eq(ioctl(fd, BINDER_WRITE_READ, &bwr), 0);
		if (bwr.write_consumed == 0)
			break;
		cr_assert_eq(bwr.write_consumed, 4);
	}
	cr_assert_leq(n, 16, "no death request failed in 16 tries");
	cr_log_info("fail-nth %d failed the death request", n);

	/* read the error: then commands are taken again */
	memset(&bwr, 0, sizeof(bwr));
	bwr.read_buffer = (uintptr_t)r;
	bwr.read_size = sizeof(r);
	cr_assert_eq(ioctl(fd, BINDER_WRITE_READ, &bwr), 0);
	cr_assert_geq(bwr.read_consumed, 8);
	cr_assert_eq(r[1], BR_ERROR, "BR %#x", r[1]);
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (uintptr_t)&enter;
	bwr.write_size = 4;
	cr_assert_eq(ioctl(fd, BINDER_WRITE_READ, &bwr), 0);
	cr_assert_eq(bwr.write_consumed, 4);
	close(nth);
	close(fd);
}

int main(int argc, char *argv[])
{
	if (getenv("BINDERC_FAULT_PROBE"))
		return probe_main();
	return th_criterion_main(argc, argv);
}
