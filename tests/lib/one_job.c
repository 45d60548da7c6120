/* SPDX-License-Identifier: MIT */
/*
 * Linked into test_lib_rpc only: Criterion's runner runs one test at a
 * time (CRITERION_JOBS=1 unless the caller set it).  With the suite's
 * tests in parallel, the runner process of Criterion 2.4 (Debian 12's)
 * leaks 48 bytes, a calloc of its own after the summary, in about one
 * run of three; LeakSanitizer then fails the binary though every test
 * passed.  One job at a time it did not happen in 20 runs.  The tests
 * take about a second in all, so parallelism bought nothing here.
 */
#include <stdlib.h>

__attribute__((constructor)) static void one_criterion_job(void)
{
	setenv("CRITERION_JOBS", "1", 0);
}
