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
 *
 * Mainline itself changes: binderc follows the newest mainline (the debug
 * kernel's, 7.3) unless a row says otherwise.  Where mainline changed
 * after 6.1, the test keeps passing the value of the older mainline and a
 * row with .since = VERSION * 100 + PATCHLEVEL (the first kernel with the
 * new behaviour) gives the new one: on mainline the row's mainline column
 * applies when the running kernel is at least .since, the test's value
 * before; binderc always gets the row's binderc column.
 */
#ifndef BINDERC_TESTS_DRIVER_DIFFERENCES_H
#define BINDERC_TESTS_DRIVER_DIFFERENCES_H

#include <errno.h> /* rows give ioctl results as 0 or -errno */
#include <linux/ioctl.h> /* BR_* codes newer than the UAPI header */

struct bt_difference {
	const char *test;     /* "suite/test" */
	const char *key;      /* what the value is */
	long mainline;        /* expected on /dev/binder */
	long binderc;         /* expected on /dev/binderc */
	const char *reason;
	int since;            /* 0, or the kernel where mainline changed (above) */
};

/* clang-format off */
/* Rows that do not name .since leave it 0. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct bt_difference bt_differences[] = {
	/* { "suite/test", "key", mainline, binderc, "reason" }, */
	{ "counters/count_live_objects_then_zero", "orphan nodes tolerated", 1, 0,
	  "mainline 6.1 can leave a node that no process references when a call races "
	  "its owner's death (seen on the debug kernel after the cve suite, and by the "
	  "fuzzer and the kill storm); a mainline leak, reported, not ours to fix" },
	{ "counters/zero_after_the_suite", "orphan nodes tolerated", 1, 0,
	  "as above" },
	{ "binderfs/fresh_mount_holds_control_and_features",
	  "a fresh mount holds the devices= devices", 1, 0,
	  "mainline's devices= names the devices every new binderfs mount starts with (it "
	  "has no misc devices when binderfs is on); binderc's devices= are its misc devices, "
	  "each a context of its own, so a fresh binderc mount holds only binder-control and "
	  "a container adds the devices it wants (BINDER_CTL_ADD, 'binder mkdev')" },
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
	{ "access/other_euid_may_not_freeze", "BINDER_FREEZE of another euid's proc", 0, -EPERM,
	  "mainline lets anyone who can open the device freeze any binder process, so "
	  "one user can stall another's services; binderc requires the target's euid or "
	  "CAP_SYS_NICE in its user namespace (as for sched_setscheduler), checked before "
	  "any proc is touched" },
	{ "access/other_euid_may_not_freeze", "BINDER_GET_FROZEN_INFO of another euid's proc", 0,
	  -EPERM, "as above: another user's freeze state is not the caller's business" },
	{ "access/other_euid_may_not_freeze", "BINDER_FREEZE (thaw) of another euid's proc", 0,
	  -EPERM, "as above: thawing is the same ioctl and the same power" },
	{ "access/root_proc_is_another_euid", "BINDER_FREEZE of root's proc", 0, -EPERM,
	  "as above, a root-owned target" },
	{ "access/other_capabilities_are_not_enough", "BINDER_FREEZE without CAP_SYS_NICE", 0, -EPERM,
	  "as above: only CAP_SYS_NICE stands in for the same euid" },
	{ "access/cap_sys_nice_in_own_userns_is_not_enough",
	  "BINDER_FREEZE from a user namespace of one's own", 0, -EPERM,
	  "as above: CAP_SYS_NICE counts in the target's user namespace, not in one the "
	  "caller just created" },
	{ "access/pid_only_on_another_context", "BINDER_FREEZE of a pid open only on another context",
	  0, -EINVAL,
	  "mainline looks the pid up in every binder context of the driver, so a user of one "
	  "device can freeze the users of another (another container's); binderc looks only "
	  "in the caller's context, and a pid not found there is unknown, as in mainline" },
	{ "access/pid_only_on_another_context",
	  "BINDER_GET_FROZEN_INFO of a pid open only on another context", 0, -EINVAL, "as above" },
	{ "access/pid_only_on_another_context",
	  "BINDER_FREEZE (thaw) of a pid open only on another context", 0, -EINVAL, "as above" },
	{ "access/oneway_to_frozen_proc_is_recorded", "oneway to a frozen proc completes with",
	  BR_TRANSACTION_PENDING_FROZEN, BR_TRANSACTION_PENDING_FROZEN,
	  "mainline before 6.3 (6.2 by some accounts; no Debian kernel lies between) answers a oneway queued to a frozen proc with "
	  "BR_TRANSACTION_COMPLETE; since then (commit 'binder: return pending info for "
	  "frozen async txns') with BR_TRANSACTION_PENDING_FROZEN, so the sender knows it "
	  "waits for a thaw; binderc follows the newest", .since = 603 },
	{ "access/pid_is_read_in_the_callers_namespace",
	  "BINDER_FREEZE of pid 2 from a new pid namespace", -EINVAL, 0,
	  "mainline reads the pid as a global one: a container's process manager freezing "
	  "its own pid 2 reaches whatever has the global pid 2 (here a kernel thread, so "
	  "EINVAL; reported by container users as freezes of the wrong process); binderc "
	  "reads it in the caller's pid namespace, as kill(2) does, and cannot name a "
	  "process the caller does not see" },
	{ "report/family_names", "reports on the family binderc", 0, 1,
	  "a generic netlink family name is one per kernel: where the mainline driver has "
	  "registered \"binder\" (6.18 on), binderc reports on a family of its own, "
	  "\"binderc\", with the same group, attributes and numbers (report_family= and "
	  "/sys/module/binderc/parameters/report_family say which; 'binder monitor' joins "
	  "both); on older kernels binderc's family is \"binder\"" },
	{ "trace/call_reply_oneway_failure", "a transaction_failed event", 0, 1,
	  "mainline's binder traces a refused BC_TRANSACTION or BC_REPLY only as the BR_* it "
	  "returns (and, from 6.18, binder_netlink_report); binderc adds "
	  "binderc:binderc_transaction_failed with the sender's extended error (debug id, "
	  "command, param) and the request's target, code, flags and sizes.  binderc's "
	  "events are trace system binderc, named binderc_*, not binder:binder_*" },
	{ "trace/failed_reply", "a transaction_failed event", 0, 1, "as above" },
	{ "trace/lock_waits_pair_up", "lock wait events", 0, 1,
	  "mainline's binder_lock/binder_locked/binder_unlock went with its global lock (4.14) "
	  "and nothing replaced them; binderc traces a wait on any lock of its transaction "
	  "path: binderc:binderc_lock_wait (lock kind, owner's pid or debug id) when the lock "
	  "is found held, binderc:binderc_lock_acquired (the same, and wait_ns) once taken" },
	{ "proto61/spam_suspect_over_a_quarter_of_the_mapping",
	  "the oneway crossing the sender's threshold", BR_TRANSACTION_COMPLETE,
	  BR_ONEWAY_SPAM_SUSPECT,
	  "mainline 6.1 counts the oneway being sent toward its sender's share of the async "
	  "space, so the oneway that takes a sender over a quarter of the mapping or over 50 "
	  "buffers is the suspect; since 6.8 (binder_alloc_new_buf's rework; no Debian kernel "
	  "lies between 6.1 and 6.12) mainline stamps the sender's pid on the buffer only after "
	  "the check, so the oneway in the act is not counted and the next one is told; binderc "
	  "keeps 6.1's count, which catches the sender in the act as the check means to",
	  .since = 608 },
	{ "proto61/spam_suspect_over_a_quarter_of_the_mapping", "the oneway after it",
	  BR_ONEWAY_SPAM_SUSPECT, BR_TRANSACTION_COMPLETE, "as above", .since = 608 },
	{ "proto61/spam_suspect_over_50_buffers", "the oneway crossing the sender's threshold",
	  BR_TRANSACTION_COMPLETE, BR_ONEWAY_SPAM_SUSPECT, "as above", .since = 608 },
	{ "proto61/spam_suspect_over_50_buffers", "the oneway after it", BR_ONEWAY_SPAM_SUSPECT,
	  BR_TRANSACTION_COMPLETE, "as above", .since = 608 },
	{ "proto61/update_txn_lets_the_replaced_files_go",
	  "the replaced oneway's file may stay held", 1, 0,
	  "mainline 6.12 (seen on Debian's 6.12.95) frees a oneway replaced by TF_UPDATE_TXN "
	  "without its fd fixups, so the files it carried stay open until the receiver's proc "
	  "goes; Debian's 6.1 and mainline 7.3 let them go (7.3 frees the fixups of the "
	  "outdated transaction); a mainline leak, tolerated there only (the test also bounds "
	  "the kernels), not ours" },
	{ "rtprio/fifo_caller_served_at_its_priority_under_cpu_hogs",
	  "server raised to a real-time class", 0, 1,
	  "real-time priority inheritance (issue 20) is Android's, opted into per node with "
	  "FLAT_BINDER_FLAG_INHERIT_RT and the policy bits; mainline ignores these bits" },
	{ "rtprio/rr_caller_lends_rr", "server raised to a real-time class", 0, 1,
	  "as above" },
	{ "rtprio/no_inheritance_unless_the_node_asked", "server raised to a real-time class", 0, 1,
	  "as above" },
	{ "rtprio/node_minimum_and_the_higher_of_both", "server raised to a real-time class", 0, 1,
	  "as above" },
	{ "rtprio/oneway_never_inherits", "server raised to a real-time class", 0, 1,
	  "as above" },
	{ "rtprio/bad_policy_and_priorities_refused", "server raised to a real-time class", 0, 1,
	  "as above" },
	{ "rtprio/rt_minimum_beyond_the_owners_right_refused", "server raised to a real-time class", 0, 1,
	  "as above" },
	{ "rtprio/bad_policy_and_priorities_refused", "bad scheduling bits of a new node", 0,
	  -EINVAL, "mainline ignores the policy bits and INHERIT_RT, so it takes any priority "
	  "byte; binderc refuses a node whose opt-in it cannot honour, as other bad objects" },
	{ "rtprio/rt_minimum_beyond_the_owners_right_refused", "RT minimum beyond the owner's right",
	  0, -EPERM, "mainline ignores the policy bits; binderc lends no priority the node's "
	  "owner could not take itself (CAP_SYS_NICE or RLIMIT_RTPRIO)" },
	{ 0, 0, 0, 0, 0, 0 } /* sentinel: keep last */
};
#pragma GCC diagnostic pop
/* clang-format on */

/* Look the current test's row up; returns the value to expect. */
long bt_expected(const char *key, long mainline_value);

#endif
