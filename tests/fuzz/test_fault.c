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
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>

#include "guest.h"

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);

	return v && *v ? v : dflt;
}

static struct fzg_quiet quiet;
static char env_preload[PATH_MAX + 16], env_rate[64], env_seed[64], env_stats[96];

static void need_fault_injection(void)
{
	if (access("/proc/thread-self/fail-nth", W_OK) || access("/sys/kernel/debug/failslab", F_OK))
		cr_skip_test("no fault injection in this kernel (debug kernel only)");
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

/* Sum and print the shim's per-process counts. */
static void report(const char *what)
{
	const char *path = env_stats + strlen("BINDERC_FAILNTH_STATS=");
	unsigned long long inj = 0, failed = 0, silent = 0, calls = 0, a, b, c, d;
	FILE *f = fopen(path, "r");
	int pid;

	while (f && fscanf(f, "%d %llu %llu %llu %llu", &pid, &a, &b, &c, &d) == 5) {
		inj += a;
		failed += b;
		silent += c;
		calls += d;
	}
	if (f)
		fclose(f);
	unlink(path);
	printf("fault-test: %s on %s: %llu binder syscalls, %llu failures injected, %llu returned an error, "
	       "%llu returned success with no error BR (absorbed or surfacing later)\n",
	       what, fz_device(), calls, inj, failed, silent);
	fflush(stdout);
}

static void expect_no_leak(const char *after)
{
	char why[512];
	long live;

	if (!fz_is_binderc(fz_device()))
		fz_leak_allowed = "node"; /* mainline's own node leak (README.md) */
	live = fz_wait_zero(fz_device(), 60000, why, sizeof(why));

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
		report(s);
		expect_no_leak(s);
	}
}

Test(fault, kill_storm)
{
	char *env[] = { env_preload, env_rate, env_seed, env_stats, "BINDERC_FAULT=1", NULL };
	char *argv[] = { "binderc-stress", "--seed", "0xfa17", "--procs", "8", "--seconds",
			 (char *)env_or("BINDERC_FAULT_STRESS_SECONDS", "20"),
			 fz_is_binderc(fz_device()) ? NULL : "--allow-leak", "node", NULL };
	int rc;

	need_fault_injection();
	rc = fzg_run(argv, env, 900);
	report("binderc-stress");
	cr_assert_eq(rc, 0, "binderc-stress under fault injection failed (%d)", rc);
}

Test(fault, fuzz)
{
	char *env[] = { env_preload, env_rate, env_seed, env_stats, "BINDERC_FAULT=1", NULL };
	char *argv[] = { "binderc-fuzz", "--seed", "0xfa17", "--ops",
			 (char *)env_or("BINDERC_FAULT_FUZZ_OPS", "5000"), "--seconds", "300",
			 "--min-read", (char *)env_or("BINDERC_FUZZ_MIN_READ", "80"),
			 fz_is_binderc(fz_device()) ? NULL : "--allow-leak", "node", NULL };
	int rc;

	need_fault_injection();
	rc = fzg_run(argv, env, 900);
	report("binderc-fuzz");
	cr_assert_eq(rc, 0, "binderc-fuzz under fault injection failed (%d)", rc);
}
