// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the one file that instantiates the tracepoints of trace.h
 * (CREATE_TRACE_POINTS); every other file only includes trace.h.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
