/* SPDX-License-Identifier: MIT */
/* tools/rpctool.h - `binder rpc ping|call|serve` (rpctool.c). */
#ifndef BINDERC_TOOLS_RPCTOOL_H
#define BINDERC_TOOLS_RPCTOOL_H

#include "call.h"

/* argv: what follows "rpc" (the subcommand first).  Returns the exit
 * status. */
int binder_rpc(struct ctx *c, int argc, char **argv);

#endif
