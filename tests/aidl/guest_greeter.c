// SPDX-License-Identifier: MIT
/*
 * Guest test: the bc-aidl greeter example (examples/aidl, C generated at
 * build time) across processes on the device in $BINDER_DEVICE, through
 * tests/aidl/greeter.sh (service manager, service, two client runs).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "harness.h"

Test(aidl_greeter, service_and_client, .timeout = TH_TEST_TIMEOUT_S)
{
	int st;

	fflush(NULL);
	st = system("sh tests/aidl/greeter.sh");
	cr_assert(WIFEXITED(st), "greeter.sh died");
	cr_expect_eq(WEXITSTATUS(st), 0, "greeter.sh failed (output above)");
}
