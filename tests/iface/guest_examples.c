// SPDX-License-Identifier: MIT
/*
 * Guest test: the calc and kv examples end to end (tests/iface/examples.sh:
 * service manager, both services, their typed-proxy clients and the
 * 'binder call' tool) on the device in $BINDER_DEVICE.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "guest.h"

Test(examples, calc_and_kv, .timeout = 600)
{
	int st;

	fflush(NULL);
	st = system("sh tests/iface/examples.sh");
	cr_assert(WIFEXITED(st), "examples.sh died");
	cr_expect_eq(WEXITSTATUS(st), 0, "examples.sh failed (output above)");
}
