/* SPDX-License-Identifier: MIT */
/* tools/freeze.h - `binder freeze`, `thaw` and `frozen` (freeze.c). */
#ifndef BINDERC_TOOLS_FREEZE_H
#define BINDERC_TOOLS_FREEZE_H

/* @cmd: "freeze", "thaw" or "frozen"; argv: the command's own arguments;
 * @device: -d's value or NULL.  Returns the exit status. */
int binder_freeze(const char *prog, const char *device, const char *cmd, int argc, char **argv);

#endif
