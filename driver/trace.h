/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: tracepoints of the transaction path, trace system "binderc".
 *
 * Each event is named like its mainline binder counterpart with the
 * prefix binderc_ (as rust_binder names its own), and its fields carry
 * mainline's names, so a trace-cmd or perfetto habit for
 * binder:binder_transaction works on binderc:binderc_transaction.  Only
 * numbers go into the ring buffer: debug ids, pids, sizes, codes; never a
 * kernel pointer.  binderc_transaction_failed has no mainline twin: it
 * carries what BINDER_GET_EXTENDED_ERROR tells the sender (command, param;
 * its id is debug_id).
 *
 * Disabled events cost a static branch each (TRACE_EVENT's static keys).
 * CREATE_TRACE_POINTS is defined in trace.c only.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM binderc

#if !defined(BINDERC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define BINDERC_TRACE_H

#include <linux/tracepoint.h>
#include "binderc.h"

TRACE_EVENT(binderc_ioctl,
	TP_PROTO(unsigned int cmd, unsigned long arg),
	TP_ARGS(cmd, arg),
	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(unsigned long, arg)	/* a user address or value */
	),
	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->arg = arg;
	),
	TP_printk("cmd=0x%x arg=0x%lx", __entry->cmd, __entry->arg)
);

DECLARE_EVENT_CLASS(binderc_ret_class,
	TP_PROTO(int ret),
	TP_ARGS(ret),
	TP_STRUCT__entry(
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->ret = ret;
	),
	TP_printk("ret=%d", __entry->ret)
);

DEFINE_EVENT(binderc_ret_class, binderc_ioctl_done,
	TP_PROTO(int ret), TP_ARGS(ret));
DEFINE_EVENT(binderc_ret_class, binderc_write_done,
	TP_PROTO(int ret), TP_ARGS(ret));
DEFINE_EVENT(binderc_ret_class, binderc_read_done,
	TP_PROTO(int ret), TP_ARGS(ret));

/* A reader about to sleep (or to find its work at once). */
TRACE_EVENT(binderc_wait_for_work,
	TP_PROTO(bool proc_work, bool transaction_stack, bool thread_todo),
	TP_ARGS(proc_work, transaction_stack, thread_todo),
	TP_STRUCT__entry(
		__field(bool, proc_work)
		__field(bool, transaction_stack)
		__field(bool, thread_todo)
	),
	TP_fast_assign(
		__entry->proc_work = proc_work;
		__entry->transaction_stack = transaction_stack;
		__entry->thread_todo = thread_todo;
	),
	TP_printk("proc_work=%d transaction_stack=%d thread_todo=%d",
		  __entry->proc_work, __entry->transaction_stack,
		  __entry->thread_todo)
);

/*
 * A call or reply built and about to be queued: @t's target is settled
 * (to_thread is 0 for a call any thread of to_proc may take).
 */
TRACE_EVENT(binderc_transaction,
	TP_PROTO(bool reply, const struct binderc_transaction *t,
		 const struct binderc_node *target_node),
	TP_ARGS(reply, t, target_node),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, target_node)
		__field(int, to_proc)
		__field(int, to_thread)
		__field(int, reply)
		__field(unsigned int, code)
		__field(unsigned int, flags)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
		__entry->target_node = target_node ? target_node->debug_id : 0;
		__entry->to_proc = t->to_proc ? t->to_proc->pid : 0;
		__entry->to_thread = t->to_thread ? t->to_thread->pid : 0;
		__entry->reply = reply;
		__entry->code = t->code;
		__entry->flags = t->flags;
	),
	TP_printk("transaction=%d dest_node=%d dest_proc=%d dest_thread=%d reply=%d flags=0x%x code=0x%x",
		  __entry->debug_id, __entry->target_node, __entry->to_proc,
		  __entry->to_thread, __entry->reply, __entry->flags,
		  __entry->code)
);

/* Written to the receiver's read buffer (BR_TRANSACTION, BR_REPLY). */
TRACE_EVENT(binderc_transaction_received,
	TP_PROTO(const struct binderc_transaction *t),
	TP_ARGS(t),
	TP_STRUCT__entry(
		__field(int, debug_id)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
	),
	TP_printk("transaction=%d", __entry->debug_id)
);

/*
 * BC_TRANSACTION or BC_REPLY refused: the sender's extended error
 * (debug_id, command, param) and what it asked for.  to_proc and
 * to_thread are 0 when the failure came before a target was settled.
 */
TRACE_EVENT(binderc_transaction_failed,
	TP_PROTO(const struct binderc_txn_build *b, int debug_id, bool reply,
		 bool targeted),
	TP_ARGS(b, debug_id, reply, targeted),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, to_proc)
		__field(int, to_thread)
		__field(int, reply)
		__field(unsigned int, code)
		__field(unsigned int, flags)
		__field(u64, data_size)
		__field(u64, offsets_size)
		__field(u32, command)
		__field(s32, param)
	),
	TP_fast_assign(
		__entry->debug_id = debug_id;
		__entry->to_proc = targeted && b->target_proc ?
				   b->target_proc->pid : 0;
		__entry->to_thread = targeted && b->target_thread ?
				     b->target_thread->pid : 0;
		__entry->reply = reply;
		__entry->code = b->tr->code;
		__entry->flags = b->tr->flags;
		__entry->data_size = b->tr->data_size;
		__entry->offsets_size = b->tr->offsets_size;
		__entry->command = b->return_error;
		__entry->param = b->return_error_param;
	),
	TP_printk("transaction=%d dest_proc=%d dest_thread=%d reply=%d flags=0x%x code=0x%x data_size=%llu offsets_size=%llu command=0x%x param=%d",
		  __entry->debug_id, __entry->to_proc, __entry->to_thread,
		  __entry->reply, __entry->flags, __entry->code,
		  __entry->data_size, __entry->offsets_size,
		  __entry->command, __entry->param)
);

DECLARE_EVENT_CLASS(binderc_buffer_class,
	TP_PROTO(const struct binderc_buffer *buf),
	TP_ARGS(buf),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(size_t, data_size)
		__field(size_t, offsets_size)
		__field(size_t, extra_buffers_size)
	),
	TP_fast_assign(
		__entry->debug_id = buf->debug_id;
		__entry->data_size = buf->data_size;
		__entry->offsets_size = buf->offsets_size;
		__entry->extra_buffers_size = buf->extra_buffers_size;
	),
	TP_printk("transaction=%d data_size=%zu offsets_size=%zu extra_buffers_size=%zu",
		  __entry->debug_id, __entry->data_size,
		  __entry->offsets_size, __entry->extra_buffers_size)
);

/* A buffer taken in the receiver's area for a call or reply. */
DEFINE_EVENT(binderc_buffer_class, binderc_transaction_alloc_buf,
	TP_PROTO(const struct binderc_buffer *buf), TP_ARGS(buf));
/* Freed by its receiver (BC_FREE_BUFFER, or a oneway's last use). */
DEFINE_EVENT(binderc_buffer_class, binderc_transaction_buffer_release,
	TP_PROTO(const struct binderc_buffer *buf), TP_ARGS(buf));
/* Freed undelivered: a failed build, a dead receiver, an fd failure. */
DEFINE_EVENT(binderc_buffer_class, binderc_transaction_failed_buffer_release,
	TP_PROTO(const struct binderc_buffer *buf), TP_ARGS(buf));
/* A queued oneway replaced by a TF_UPDATE_TXN one. */
DEFINE_EVENT(binderc_buffer_class, binderc_transaction_update_buffer_release,
	TP_PROTO(const struct binderc_buffer *buf), TP_ARGS(buf));

/*
 * A BC_* command read from the write buffer, or a BR_* code written to
 * the read buffer, with its name ("unknown" for a number no table has).
 */
TRACE_EVENT(binderc_command,
	TP_PROTO(uint32_t cmd),
	TP_ARGS(cmd),
	TP_STRUCT__entry(
		__field(uint32_t, cmd)
	),
	TP_fast_assign(
		__entry->cmd = cmd;
	),
	TP_printk("cmd=0x%x %s", __entry->cmd, binderc_bc_name(__entry->cmd))
);

TRACE_EVENT(binderc_return,
	TP_PROTO(uint32_t cmd),
	TP_ARGS(cmd),
	TP_STRUCT__entry(
		__field(uint32_t, cmd)
	),
	TP_fast_assign(
		__entry->cmd = cmd;
	),
	TP_printk("cmd=0x%x %s", __entry->cmd, binderc_br_name(__entry->cmd))
);

/*
 * An object crossing processes in a transaction: the sender's node became
 * a handle in the receiver (node_to_ref), a handle went back to its
 * owner as its node (ref_to_node), or a handle became another proc's
 * handle (ref_to_ref).  Ids are debug ids, descs the handle numbers;
 * node_ptr is the owner's userspace object address, as mainline has it.
 */
TRACE_EVENT(binderc_transaction_node_to_ref,
	TP_PROTO(const struct binderc_transaction *t,
		 const struct binderc_node *node,
		 const struct binderc_ref_data *rdata),
	TP_ARGS(t, node, rdata),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, node_debug_id)
		__field(binder_uintptr_t, node_ptr)
		__field(int, ref_debug_id)
		__field(uint32_t, ref_desc)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
		__entry->node_debug_id = node->debug_id;
		__entry->node_ptr = node->ptr;
		__entry->ref_debug_id = rdata->debug_id;
		__entry->ref_desc = rdata->desc;
	),
	TP_printk("transaction=%d node=%d src_ptr=0x%016llx ==> dest_ref=%d dest_desc=%u",
		  __entry->debug_id, __entry->node_debug_id,
		  (u64)__entry->node_ptr, __entry->ref_debug_id,
		  __entry->ref_desc)
);

TRACE_EVENT(binderc_transaction_ref_to_node,
	TP_PROTO(const struct binderc_transaction *t,
		 const struct binderc_node *node,
		 const struct binderc_ref_data *rdata),
	TP_ARGS(t, node, rdata),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, ref_debug_id)
		__field(uint32_t, ref_desc)
		__field(int, node_debug_id)
		__field(binder_uintptr_t, node_ptr)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
		__entry->ref_debug_id = rdata->debug_id;
		__entry->ref_desc = rdata->desc;
		__entry->node_debug_id = node->debug_id;
		__entry->node_ptr = node->ptr;
	),
	TP_printk("transaction=%d node=%d src_ref=%d src_desc=%u ==> dest_ptr=0x%016llx",
		  __entry->debug_id, __entry->node_debug_id,
		  __entry->ref_debug_id, __entry->ref_desc,
		  (u64)__entry->node_ptr)
);

TRACE_EVENT(binderc_transaction_ref_to_ref,
	TP_PROTO(const struct binderc_transaction *t,
		 const struct binderc_node *node,
		 const struct binderc_ref_data *src,
		 const struct binderc_ref_data *dest),
	TP_ARGS(t, node, src, dest),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, node_debug_id)
		__field(int, src_ref_debug_id)
		__field(uint32_t, src_ref_desc)
		__field(int, dest_ref_debug_id)
		__field(uint32_t, dest_ref_desc)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
		__entry->node_debug_id = node->debug_id;
		__entry->src_ref_debug_id = src->debug_id;
		__entry->src_ref_desc = src->desc;
		__entry->dest_ref_debug_id = dest->debug_id;
		__entry->dest_ref_desc = dest->desc;
	),
	TP_printk("transaction=%d node=%d src_ref=%d src_desc=%u ==> dest_ref=%d dest_desc=%u",
		  __entry->debug_id, __entry->node_debug_id,
		  __entry->src_ref_debug_id, __entry->src_ref_desc,
		  __entry->dest_ref_debug_id, __entry->dest_ref_desc)
);

/*
 * An fd object: pinned from the sender's table (fd_send, the sender's
 * fd) and installed in the receiver's when it reads (fd_recv, the new
 * fd); offset is where the fd number sits in the buffer.
 */
TRACE_EVENT(binderc_transaction_fd_send,
	TP_PROTO(const struct binderc_transaction *t, int fd, size_t offset),
	TP_ARGS(t, fd, offset),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, fd)
		__field(size_t, offset)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
		__entry->fd = fd;
		__entry->offset = offset;
	),
	TP_printk("transaction=%d src_fd=%d offset=%zu",
		  __entry->debug_id, __entry->fd, __entry->offset)
);

TRACE_EVENT(binderc_transaction_fd_recv,
	TP_PROTO(const struct binderc_transaction *t, int fd, size_t offset),
	TP_ARGS(t, fd, offset),
	TP_STRUCT__entry(
		__field(int, debug_id)
		__field(int, fd)
		__field(size_t, offset)
	),
	TP_fast_assign(
		__entry->debug_id = t->debug_id;
		__entry->fd = fd;
		__entry->offset = offset;
	),
	TP_printk("transaction=%d dest_fd=%d offset=%zu",
		  __entry->debug_id, __entry->fd, __entry->offset)
);

/*
 * Lock waits (binderc's own; mainline's binder_lock events went with its
 * global lock): lock_wait when a lock of lock.h was found held, then
 * lock_acquired once it is taken, with the time spent waiting.  lock is
 * the kind (proc_inner, proc_outer, node, alloc, mgr, txn, dead_nodes),
 * id the pid or debug id of its owner (0 for the global ones).
 */
TRACE_DEFINE_ENUM(BINDERC_LOCK_PROC_INNER);
TRACE_DEFINE_ENUM(BINDERC_LOCK_PROC_OUTER);
TRACE_DEFINE_ENUM(BINDERC_LOCK_NODE);
TRACE_DEFINE_ENUM(BINDERC_LOCK_ALLOC);
TRACE_DEFINE_ENUM(BINDERC_LOCK_MGR);
TRACE_DEFINE_ENUM(BINDERC_LOCK_TXN);
TRACE_DEFINE_ENUM(BINDERC_LOCK_DEAD_NODES);

#define binderc_show_lock(kind)					\
	__print_symbolic(kind,						\
			 { BINDERC_LOCK_PROC_INNER, "proc_inner" },	\
			 { BINDERC_LOCK_PROC_OUTER, "proc_outer" },	\
			 { BINDERC_LOCK_NODE, "node" },			\
			 { BINDERC_LOCK_ALLOC, "alloc" },		\
			 { BINDERC_LOCK_MGR, "mgr" },			\
			 { BINDERC_LOCK_TXN, "txn" },			\
			 { BINDERC_LOCK_DEAD_NODES, "dead_nodes" })

TRACE_EVENT_FN(binderc_lock_wait,
	TP_PROTO(enum binderc_lock_kind kind, int id),
	TP_ARGS(kind, id),
	TP_STRUCT__entry(
		__field(int, lock)
		__field(int, id)
	),
	TP_fast_assign(
		__entry->lock = kind;
		__entry->id = id;
	),
	TP_printk("lock=%s id=%d", binderc_show_lock(__entry->lock),
		  __entry->id),
	binderc_lock_trace_reg, binderc_lock_trace_unreg
);

TRACE_EVENT_FN(binderc_lock_acquired,
	TP_PROTO(enum binderc_lock_kind kind, int id, u64 wait_ns),
	TP_ARGS(kind, id, wait_ns),
	TP_STRUCT__entry(
		__field(int, lock)
		__field(int, id)
		__field(u64, wait_ns)
	),
	TP_fast_assign(
		__entry->lock = kind;
		__entry->id = id;
		__entry->wait_ns = wait_ns;
	),
	TP_printk("lock=%s id=%d wait_ns=%llu",
		  binderc_show_lock(__entry->lock), __entry->id,
		  __entry->wait_ns),
	binderc_lock_trace_reg, binderc_lock_trace_unreg
);

#endif /* BINDERC_TRACE_H */

#ifndef BINDERC_TRACE_HELPERS_H
#define BINDERC_TRACE_HELPERS_H
/* A buffer's release, under the event that says why it goes. */
static inline void binderc_trace_buffer_release(const struct binderc_buffer *b,
						bool is_failure)
{
	if (is_failure)
		trace_binderc_transaction_failed_buffer_release(b);
	else
		trace_binderc_transaction_buffer_release(b);
}
#endif /* BINDERC_TRACE_HELPERS_H */

/* Outside the guard: define_trace.h includes this file again. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
