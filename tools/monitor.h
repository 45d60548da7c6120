/* SPDX-License-Identifier: MIT */
/* tools/monitor.h - `binder monitor` (monitor.c), called from binder.c. */
#ifndef BINDERC_TOOLS_MONITOR_H
#define BINDERC_TOOLS_MONITOR_H

/* argv: the command's own arguments.  Returns the exit status. */
int binder_monitor(const char *prog, int argc, char **argv);

#endif
