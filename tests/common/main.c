/* SPDX-License-Identifier: MIT */
/* main() of every guest test binary: see th_criterion_main in harness.h. */
#include <stdio.h>

#include "harness.h"

/*
 * Criterion's sandbox (BoxFort) starts each test in a re-executed copy of
 * the binary whose main() it overwrites, from a library constructor, with
 * a jump to its own entry: 8 to 16 bytes depending on the architecture.
 * A main() that is one tail-call branch (4 bytes) lets that jump spill
 * into the next function, and on armhf that is _start, which runs after
 * the library constructors: the worker then crashes before any test.
 * The flush after the call keeps main() long enough (no tail call).
 */
int main(int argc, char *argv[])
{
	int rc = th_criterion_main(argc, argv);

	fflush(NULL);
	return rc;
}
