/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: counting the BC_* and BR_* commands, globally and per proc
 * (debugfs "stats").  Inline: every command of a round trip passes here,
 * several times a call, and a function call costs more than the count.
 * Include after trace.h, whose command events these emit.
 */
#ifndef BINDERC_STATS_H
#define BINDERC_STATS_H

#include <linux/atomic.h>
#include "binderc.h"
#include "trace.h"

static __always_inline void binderc_stat_bc(struct binderc_proc *proc, u32 cmd)
{
	trace_binderc_command(cmd);
	if (_IOC_NR(cmd) >= BINDERC_BC_COUNT)
		return;
	atomic_inc(&binderc_global_stats.bc[_IOC_NR(cmd)]);
	atomic_inc(&proc->stats.bc[_IOC_NR(cmd)]);
}

static __always_inline void binderc_stat_br(struct binderc_proc *proc, u32 cmd)
{
	trace_binderc_return(cmd);
	if (_IOC_NR(cmd) >= BINDERC_BR_COUNT)
		return;
	atomic_inc(&binderc_global_stats.br[_IOC_NR(cmd)]);
	atomic_inc(&proc->stats.br[_IOC_NR(cmd)]);
}

#endif /* BINDERC_STATS_H */
