/* SPDX-License-Identifier: MIT */
/*
 * Shared main() for the driver test binaries: Criterion as usual, but one
 * test at a time.  The context manager is a per-device singleton, so tests
 * that fork their own test manager must not overlap.
 */
#include <criterion/criterion.h>
#include <stdio.h>

#include "bt.h"

int main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	int result = 0;

	if (criterion_handle_args(argc, argv, true)) {
		criterion_options.jobs = 1;
		fprintf(stderr, "binder driver tests on %s (driver: %s)\n", bt_device(),
			bt_driver_name());
		result = !criterion_run_all_tests(tests);
	}
	criterion_finalize(tests);
	return result;
}
