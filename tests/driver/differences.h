/* SPDX-License-Identifier: MIT */
/*
 * The one table of known, deliberate differences between the mainline
 * binder driver (the oracle, /dev/binder) and binderc (/dev/binderc).
 *
 * Where no row exists, both drivers must give identical results.  A test
 * that checks a value which may legitimately differ asks for it with
 * bt_expected("key", mainline_value): on mainline that is the mainline
 * value (and the row's mainline column must agree with it), on binderc it
 * is the row's binderc column.
 *
 * A row is added only for a deliberate difference, with its reason.  It is
 * not a place to park binderc bugs.
 */
#ifndef BINDERC_TESTS_DRIVER_DIFFERENCES_H
#define BINDERC_TESTS_DRIVER_DIFFERENCES_H

struct bt_difference {
	const char *test;     /* "suite/test" */
	const char *key;      /* what the value is */
	long mainline;        /* expected on /dev/binder */
	long binderc;         /* expected on /dev/binderc */
	const char *reason;
};

/* clang-format off */
static const struct bt_difference bt_differences[] = {
	/* { "suite/test", "key", mainline, binderc, "reason" }, */
	{ "counters/count_live_objects_then_zero", "orphan nodes tolerated", 1, 0,
	  "mainline 6.1 can leave a node that no process references when a call races "
	  "its owner's death (seen on the debug kernel after the cve suite, and by the "
	  "fuzzer and the kill storm); a mainline leak, reported, not ours to fix" },
	{ "counters/zero_after_the_suite", "orphan nodes tolerated", 1, 0,
	  "as above" },
	{ "files_in_flight/own_file_queued_to_itself", "procs left after their owners died", 1, 0,
	  "a binder file queued (in an FD object) to its own proc, or to a proc whose own "
	  "file is queued back to it, pins itself: mainline never releases those procs "
	  "(no garbage collector for files in flight); binderc answers a proc's queue "
	  "when its receive mapping goes away, which the owner's exit always does" },
	{ "files_in_flight/files_queued_to_each_other", "procs left after their owners died", 2, 0,
	  "as above, a cycle of two procs" },
	{ "misc/munmap_answers_what_was_queued", "queued work answered at munmap", 0, 1,
	  "after munmap nothing queued can be read into the receive area (it cannot be "
	  "mapped again): binderc answers the queue at once (BR_DEAD_REPLY to callers and "
	  "to a thread whose reply waited unread), which is also what frees binder files "
	  "queued to their own proc (files_in_flight); mainline keeps the queue until the "
	  "file is released and delivers a reply pointing into the unmapped area" },
	{ "protocol/read_room_runs_into_unmapped_page", "work kept after a faulting read", 0, 1,
	  "mainline takes the work off the queue before it writes it out: a faulting read "
	  "buffer (or a failed allocation behind the fault) drops a transaction, and a "
	  "oneway's never-freed buffer then stalls its node; binderc faults the room in "
	  "before taking work and puts back what still could not be written" },
	{ 0, 0, 0, 0, 0 } /* sentinel: keep last */
};
/* clang-format on */

/* Look the current test's row up; returns the value to expect. */
long bt_expected(const char *key, long mainline_value);

#endif
