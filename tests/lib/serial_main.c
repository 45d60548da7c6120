/* SPDX-License-Identifier: MIT */
/*
 * The main() of the library's guest test binaries (libbinder-c-test,
 * sm-test, iface-*-test): Criterion as usual, but one test at a time,
 * because each test starts the device's only context manager.  It names
 * the device and driver under test first, so that a log shows which of
 * the two runs (mainline or binderc) a failure belongs to.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	const char *dev = getenv("BINDER_DEVICE"), *drv = getenv("BINDERC_TEST_DRIVER");
	int result = 0;

	if (criterion_handle_args(argc, argv, true)) {
		criterion_options.jobs = 1;
		fprintf(stderr, "%s on %s (driver: %s)\n", program_invocation_short_name,
			dev ? dev : "(default device)", drv ? drv : "unknown");
		result = !criterion_run_all_tests(tests);
	}
	criterion_finalize(tests);
	return result;
}
