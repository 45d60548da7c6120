/* SPDX-License-Identifier: MIT */
/* main() of every guest test binary: see th_criterion_main in harness.h. */
#include "harness.h"

int main(int argc, char *argv[])
{
	return th_criterion_main(argc, argv);
}
