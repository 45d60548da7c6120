// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: /sys/kernel/debug/binderc/.
 *
 * state, stats, transactions, transaction_log, failed_transaction_log and
 * proc/<pid> (also in binder_logs/ of a stats=global binderfs mount) use
 * mainline's formats, except that objects are named by their
 * debug ids and never by kernel addresses.
 *
 * counters is binderc's own: one "NAME COUNT" line per kind of live object,
 * in this order:
 *
 *   procs N
 *   threads N
 *   nodes N
 *   refs N
 *   deaths N
 *   buffers N
 *   transactions N
 *   transaction_completes N
 *   fd_fixups N
 *
 * Each N counts objects allocated and not yet freed, over all devices; after
 * every binderc fd is closed, all of them read 0.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "binderc.h"

#define BINDERC_LOG_SIZE 32

struct binderc_log {
	atomic_t cur;
	bool full;
	struct binderc_log_entry entry[BINDERC_LOG_SIZE];
};

static struct binderc_log binderc_log_all;
static struct binderc_log binderc_log_failed;
static struct dentry *binderc_debugfs_root;
static struct dentry *binderc_debugfs_procs;

static const char * const binderc_counter_names[BINDERC_CNT_COUNT] = {
	"procs", "threads", "nodes", "refs", "deaths", "buffers",
	"transactions", "transaction_completes", "fd_fixups", "freezes",
};

/*
 * The driver's list of the BC and BR codes, in number order.  Indexed by
 * the code's number, so a name cannot land in another's slot; user space
 * has its own list (include/uapi/binder.h: MIT, where this GPL file may
 * not go), and scripts/check-style's "uapi" check holds the two to each
 * other, name for name, and each name here to its code.
 * BR_TRANSACTION_SEC_CTX shares BR_TRANSACTION's number: named apart.
 */
static const char * const binderc_bc_names[BINDERC_BC_COUNT] = {
	[_IOC_NR(BC_TRANSACTION)] = "BC_TRANSACTION",
	[_IOC_NR(BC_REPLY)] = "BC_REPLY",
	[_IOC_NR(BC_ACQUIRE_RESULT)] = "BC_ACQUIRE_RESULT",
	[_IOC_NR(BC_FREE_BUFFER)] = "BC_FREE_BUFFER",
	[_IOC_NR(BC_INCREFS)] = "BC_INCREFS",
	[_IOC_NR(BC_ACQUIRE)] = "BC_ACQUIRE",
	[_IOC_NR(BC_RELEASE)] = "BC_RELEASE",
	[_IOC_NR(BC_DECREFS)] = "BC_DECREFS",
	[_IOC_NR(BC_INCREFS_DONE)] = "BC_INCREFS_DONE",
	[_IOC_NR(BC_ACQUIRE_DONE)] = "BC_ACQUIRE_DONE",
	[_IOC_NR(BC_ATTEMPT_ACQUIRE)] = "BC_ATTEMPT_ACQUIRE",
	[_IOC_NR(BC_REGISTER_LOOPER)] = "BC_REGISTER_LOOPER",
	[_IOC_NR(BC_ENTER_LOOPER)] = "BC_ENTER_LOOPER",
	[_IOC_NR(BC_EXIT_LOOPER)] = "BC_EXIT_LOOPER",
	[_IOC_NR(BC_REQUEST_DEATH_NOTIFICATION)] = "BC_REQUEST_DEATH_NOTIFICATION",
	[_IOC_NR(BC_CLEAR_DEATH_NOTIFICATION)] = "BC_CLEAR_DEATH_NOTIFICATION",
	[_IOC_NR(BC_DEAD_BINDER_DONE)] = "BC_DEAD_BINDER_DONE",
	[_IOC_NR(BC_TRANSACTION_SG)] = "BC_TRANSACTION_SG",
	[_IOC_NR(BC_REPLY_SG)] = "BC_REPLY_SG",
	[_IOC_NR(BC_REQUEST_FREEZE_NOTIFICATION)] = "BC_REQUEST_FREEZE_NOTIFICATION",
	[_IOC_NR(BC_CLEAR_FREEZE_NOTIFICATION)] = "BC_CLEAR_FREEZE_NOTIFICATION",
	[_IOC_NR(BC_FREEZE_NOTIFICATION_DONE)] = "BC_FREEZE_NOTIFICATION_DONE",
};

static const char * const binderc_br_names[BINDERC_BR_COUNT] = {
	[_IOC_NR(BR_ERROR)] = "BR_ERROR",
	[_IOC_NR(BR_OK)] = "BR_OK",
	[_IOC_NR(BR_TRANSACTION)] = "BR_TRANSACTION",
	[_IOC_NR(BR_REPLY)] = "BR_REPLY",
	[_IOC_NR(BR_ACQUIRE_RESULT)] = "BR_ACQUIRE_RESULT",
	[_IOC_NR(BR_DEAD_REPLY)] = "BR_DEAD_REPLY",
	[_IOC_NR(BR_TRANSACTION_COMPLETE)] = "BR_TRANSACTION_COMPLETE",
	[_IOC_NR(BR_INCREFS)] = "BR_INCREFS",
	[_IOC_NR(BR_ACQUIRE)] = "BR_ACQUIRE",
	[_IOC_NR(BR_RELEASE)] = "BR_RELEASE",
	[_IOC_NR(BR_DECREFS)] = "BR_DECREFS",
	[_IOC_NR(BR_ATTEMPT_ACQUIRE)] = "BR_ATTEMPT_ACQUIRE",
	[_IOC_NR(BR_NOOP)] = "BR_NOOP",
	[_IOC_NR(BR_SPAWN_LOOPER)] = "BR_SPAWN_LOOPER",
	[_IOC_NR(BR_FINISHED)] = "BR_FINISHED",
	[_IOC_NR(BR_DEAD_BINDER)] = "BR_DEAD_BINDER",
	[_IOC_NR(BR_CLEAR_DEATH_NOTIFICATION_DONE)] = "BR_CLEAR_DEATH_NOTIFICATION_DONE",
	[_IOC_NR(BR_FAILED_REPLY)] = "BR_FAILED_REPLY",
	[_IOC_NR(BR_FROZEN_REPLY)] = "BR_FROZEN_REPLY",
	[_IOC_NR(BR_ONEWAY_SPAM_SUSPECT)] = "BR_ONEWAY_SPAM_SUSPECT",
	[_IOC_NR(BR_TRANSACTION_PENDING_FROZEN)] = "BR_TRANSACTION_PENDING_FROZEN",
	[_IOC_NR(BR_FROZEN_BINDER)] = "BR_FROZEN_BINDER",
	[_IOC_NR(BR_CLEAR_FREEZE_NOTIFICATION_DONE)] = "BR_CLEAR_FREEZE_NOTIFICATION_DONE",
};

/*
 * The name of a BC_ or BR_ code, for the command and return events; a
 * number of the wrong ioctl type or past the table is "unknown", as
 * mainline prints it.
 */
const char *binderc_bc_name(u32 cmd)
{
	if (_IOC_TYPE(cmd) != 'c' || _IOC_NR(cmd) >= BINDERC_BC_COUNT)
		return "unknown";
	return binderc_bc_names[_IOC_NR(cmd)];
}

const char *binderc_br_name(u32 cmd)
{
	/* shares its number with BR_TRANSACTION */
	if (cmd == BR_TRANSACTION_SEC_CTX)
		return "BR_TRANSACTION_SEC_CTX";
	if (_IOC_TYPE(cmd) != 'r' || _IOC_NR(cmd) >= BINDERC_BR_COUNT)
		return "unknown";
	return binderc_br_names[_IOC_NR(cmd)];
}

/* ---- transaction logs ------------------------------------------------- */

struct binderc_log_entry *binderc_log_add(bool failed)
{
	struct binderc_log *log = failed ? &binderc_log_failed :
					   &binderc_log_all;
	unsigned int cur = atomic_inc_return(&log->cur);
	struct binderc_log_entry *e;

	if (cur >= BINDERC_LOG_SIZE)
		log->full = true;
	e = &log->entry[cur % BINDERC_LOG_SIZE];
	WRITE_ONCE(e->debug_id_done, 0);
	/* Pairs with the readers' smp_rmb(): reset before rewriting. */
	smp_wmb();
	memset(e, 0, sizeof(*e));
	return e;
}

void binderc_log_copy_failed(struct binderc_log_entry *e)
{
	struct binderc_log_entry *fe = binderc_log_add(true);

	*fe = *e;
	/* Pairs with the readers' smp_rmb(): fields before done. */
	smp_wmb();
	WRITE_ONCE(fe->debug_id_done, e->debug_id);
}

static void binderc_print_log_entry(struct seq_file *m,
				    struct binderc_log_entry *e)
{
	int done = READ_ONCE(e->debug_id_done);

	/* Pairs with the writers' smp_wmb(): done before the fields. */
	smp_rmb();
	seq_printf(m,
		   "%d: %s from %d:%d to %d:%d context %s node %d handle %d size %d:%d ret %d/%d l=%d",
		   e->debug_id, e->call_type == 2 ? "reply" :
		   e->call_type == 1 ? "async" : "call ", e->from_proc,
		   e->from_thread, e->to_proc, e->to_thread, e->context_name,
		   e->to_node, e->target_handle, e->data_size, e->offsets_size,
		   e->return_error, e->return_error_param,
		   e->return_error_line);
	/* Fields before the second look at done. */
	smp_rmb();
	seq_puts(m, done && done == READ_ONCE(e->debug_id_done) ?
		 "\n" : " (incomplete)\n");
}

static void binderc_print_log(struct seq_file *m, struct binderc_log *log)
{
	unsigned int cur = atomic_read(&log->cur);
	unsigned int count = log->full ? BINDERC_LOG_SIZE : cur;
	unsigned int start = log->full ? cur + 1 : 1;
	unsigned int i;

	for (i = 0; i < count; i++)
		binderc_print_log_entry(m, &log->entry[(start + i) %
						       BINDERC_LOG_SIZE]);
}

static int transaction_log_show(struct seq_file *m, void *unused)
{
	binderc_print_log(m, &binderc_log_all);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(transaction_log);

static int failed_transaction_log_show(struct seq_file *m, void *unused)
{
	binderc_print_log(m, &binderc_log_failed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(failed_transaction_log);

/* ---- proc state ----------------------------------------------------------- */

static void binderc_print_transaction_ilocked(struct seq_file *m,
					      struct binderc_proc *proc,
					      const char *prefix,
					      struct binderc_transaction *t)
{
	struct binderc_buffer *buffer = t->buffer;
	struct binderc_proc *to_proc;

	lockdep_assert_held(&proc->inner_lock);
	binderc_lock_txn(t);
	to_proc = t->to_proc;
	seq_printf(m, "%s %d: from %d:%d to %d:%d code %x flags %x pri %ld r%d",
		   prefix, t->debug_id,
		   t->from ? t->from->proc->pid : 0,
		   t->from ? t->from->pid : 0,
		   to_proc ? to_proc->pid : 0,
		   t->to_thread ? t->to_thread->pid : 0,
		   t->code, t->flags, t->priority, t->need_reply);
	binderc_unlock_txn(t);

	/* The buffer is only stable under its owner's lock. */
	if (proc != to_proc) {
		seq_puts(m, "\n");
		return;
	}
	if (!buffer) {
		seq_puts(m, " buffer free\n");
		return;
	}
	if (buffer->target_node)
		seq_printf(m, " node %d", buffer->target_node->debug_id);
	seq_printf(m, " size %zd:%zd buffer %d\n", buffer->data_size,
		   buffer->offsets_size, buffer->debug_id);
}

static void binderc_print_work_ilocked(struct seq_file *m,
				       struct binderc_proc *proc,
				       const char *prefix,
				       const char *transaction_prefix,
				       struct binderc_work *w)
{
	struct binderc_node *node;

	lockdep_assert_held(&proc->inner_lock);
	switch (w->type) {
	case BINDERC_WORK_TRANSACTION:
		binderc_print_transaction_ilocked(m, proc, transaction_prefix,
			container_of(w, struct binderc_transaction, work));
		break;
	case BINDERC_WORK_RETURN_ERROR:
		seq_printf(m, "%stransaction error: %u\n", prefix,
			   container_of(w, struct binderc_error, work)->cmd);
		break;
	case BINDERC_WORK_TRANSACTION_COMPLETE:
	case BINDERC_WORK_TRANSACTION_ONEWAY_SPAM_SUSPECT:
	case BINDERC_WORK_TRANSACTION_PENDING_FROZEN:
		seq_printf(m, "%stransaction complete\n", prefix);
		break;
	case BINDERC_WORK_NODE:
		node = container_of(w, struct binderc_node, work);
		seq_printf(m, "%snode work %d: u%016llx c%016llx\n", prefix,
			   node->debug_id, (u64)node->ptr, (u64)node->cookie);
		break;
	case BINDERC_WORK_DEAD_BINDER:
		seq_printf(m, "%shas dead binder\n", prefix);
		break;
	case BINDERC_WORK_DEAD_BINDER_AND_CLEAR:
		seq_printf(m, "%shas cleared dead binder\n", prefix);
		break;
	case BINDERC_WORK_CLEAR_DEATH_NOTIFICATION:
		seq_printf(m, "%shas cleared death notification\n", prefix);
		break;
	case BINDERC_WORK_FROZEN_BINDER:
		seq_printf(m, "%shas frozen binder\n", prefix);
		break;
	case BINDERC_WORK_CLEAR_FREEZE_NOTIFICATION:
		seq_printf(m, "%shas cleared freeze notification\n", prefix);
		break;
	}
}

static void binderc_print_thread_ilocked(struct seq_file *m,
					 struct binderc_thread *thread)
{
	struct binderc_transaction *t;
	struct binderc_work *w;

	lockdep_assert_held(&thread->proc->inner_lock);
	seq_printf(m, "  thread %d: l %02x need_return %d tr %d\n",
		   thread->pid, thread->looper, thread->looper_need_return,
		   atomic_read(&thread->tmp_ref));
	t = thread->transaction_stack;
	while (t) {
		if (t->from == thread) {
			binderc_print_transaction_ilocked(m, thread->proc,
					"    outgoing transaction", t);
			t = t->from_parent;
		} else if (t->to_thread == thread) {
			binderc_print_transaction_ilocked(m, thread->proc,
					"    incoming transaction", t);
			t = t->to_parent;
		} else {
			binderc_print_transaction_ilocked(m, thread->proc,
					"    bad transaction", t);
			t = NULL;
		}
	}
	list_for_each_entry(w, &thread->todo, entry)
		binderc_print_work_ilocked(m, thread->proc, "    ",
					   "    pending transaction", w);
}

static void binderc_print_node_nilocked(struct seq_file *m,
					struct binderc_node *node)
{
	struct binderc_transaction *t;
	struct binderc_ref *ref;
	int count = 0;

	binderc_assert_nilocked(node);
	hlist_for_each_entry(ref, &node->refs, node_entry)
		count++;
	seq_printf(m, "  node %d: u%016llx c%016llx hs %d hw %d ls %d lw %d is %d iw %d tr %d",
		   node->debug_id, (u64)node->ptr, (u64)node->cookie,
		   node->has_strong_ref, node->has_weak_ref,
		   node->local_strong_refs, node->local_weak_refs,
		   node->internal_strong_refs, count, node->tmp_refs);
	if (count) {
		seq_puts(m, " proc");
		hlist_for_each_entry(ref, &node->refs, node_entry)
			seq_printf(m, " %d", ref->proc->pid);
	}
	seq_puts(m, "\n");
	if (node->proc) {
		list_for_each_entry(t, &node->async_todo, work.entry)
			binderc_print_transaction_ilocked(m, node->proc,
					"    pending async transaction", t);
	}
}

static void binderc_print_ref_olocked(struct seq_file *m,
				      struct binderc_ref *ref)
{
	lockdep_assert_held(&ref->proc->outer_lock);
	binderc_lock_node(ref->node);
	seq_printf(m, "  ref %d: desc %d %snode %d s %d w %d d %d\n",
		   ref->data.debug_id, ref->data.desc,
		   ref->node->proc ? "" : "dead ", ref->node->debug_id,
		   ref->data.strong, ref->data.weak, ref->death ? 1 : 0);
	binderc_unlock_node(ref->node);
}

static void binderc_print_nodes(struct seq_file *m, struct binderc_proc *proc,
				bool print_all)
{
	struct binderc_node *last_node = NULL;
	struct rb_node *n;

	binderc_lock_inner(proc);
	for (n = rb_first(&proc->nodes); n; n = rb_next(n)) {
		struct binderc_node *node;

		node = rb_entry(n, struct binderc_node, rb_node);
		if (!print_all && !node->has_async_transaction)
			continue;
		/* Pinned so it stays in the tree while unlocked. */
		binderc_inc_node_tmpref_ilocked(node);
		binderc_unlock_inner(proc);
		if (last_node)
			binderc_put_node(last_node);
		binderc_node_inner_lock(node);
		binderc_print_node_nilocked(m, node);
		binderc_node_inner_unlock(node);
		last_node = node;
		binderc_lock_inner(proc);
	}
	binderc_unlock_inner(proc);
	if (last_node)
		binderc_put_node(last_node);
}

/* As mainline: pages in use, unused (its "lru"), never allocated. */
static void binderc_print_pages_locked(struct seq_file *m,
				       struct binderc_alloc *alloc)
{
	lockdep_assert_held(&alloc->mutex);
	seq_printf(m, "  pages: %zd:%zd:%zd\n",
		   alloc->pages_held - alloc->pages_lru, alloc->pages_lru,
		   (alloc->buffer_size >> PAGE_SHIFT) - alloc->pages_held);
}

static void binderc_print_buffers(struct seq_file *m,
				  struct binderc_proc *proc)
{
	struct binderc_alloc *alloc = &proc->alloc;
	struct rb_node *n;

	binderc_lock_alloc(alloc);
	for (n = rb_first(&alloc->allocated); n; n = rb_next(n)) {
		struct binderc_buffer *buffer;

		buffer = rb_entry(n, struct binderc_buffer, rb_node);
		seq_printf(m, "  buffer %d: %lx size %zd:%zd:%zd %s\n",
			   buffer->debug_id, buffer->user_data - alloc->buffer,
			   buffer->data_size, buffer->offsets_size,
			   buffer->extra_buffers_size,
			   buffer->transaction ? "active" : "delivered");
	}
	binderc_print_pages_locked(m, alloc);
	binderc_unlock_alloc(alloc);
}

static void binderc_print_proc(struct seq_file *m, struct binderc_proc *proc,
			       bool print_all)
{
	size_t start_pos = m->count, header_pos;
	struct binderc_work *w;
	struct rb_node *n;

	seq_printf(m, "proc %d\n", proc->pid);
	seq_printf(m, "context %s\n", proc->context->name);
	header_pos = m->count;

	binderc_lock_inner(proc);
	for (n = rb_first(&proc->threads); n; n = rb_next(n))
		binderc_print_thread_ilocked(m, rb_entry(n,
					struct binderc_thread, rb_node));
	binderc_unlock_inner(proc);

	binderc_print_nodes(m, proc, print_all);
	if (print_all) {
		binderc_lock_outer(proc);
		for (n = rb_first(&proc->refs_by_desc); n; n = rb_next(n))
			binderc_print_ref_olocked(m, rb_entry(n,
					struct binderc_ref, rb_node_desc));
		binderc_unlock_outer(proc);
		binderc_print_buffers(m, proc);
	}
	binderc_lock_inner(proc);
	list_for_each_entry(w, &proc->todo, entry)
		binderc_print_work_ilocked(m, proc, "  ",
					   "  pending transaction", w);
	if (!list_empty(&proc->delivered_death))
		seq_puts(m, "  has delivered dead binder\n");
	if (!list_empty(&proc->delivered_freeze))
		seq_puts(m, "  has delivered freeze binder\n");
	if (print_all && proc->receive_closed)
		seq_puts(m, "  receive area unmapped: refusing transactions\n");
	binderc_unlock_inner(proc);
	if (!print_all && m->count == header_pos)
		m->count = start_pos;
}

static void binderc_print_dead_nodes(struct seq_file *m)
{
	struct binderc_node *node, *last_node = NULL;

	binderc_lock_dead_nodes();
	if (!hlist_empty(&binderc_dead_nodes))
		seq_puts(m, "dead nodes:\n");
	hlist_for_each_entry(node, &binderc_dead_nodes, dead_node) {
		node->tmp_refs++;
		binderc_unlock_dead_nodes();
		if (last_node)
			binderc_put_node(last_node);
		binderc_lock_node(node);
		binderc_print_node_nilocked(m, node);
		binderc_unlock_node(node);
		last_node = node;
		binderc_lock_dead_nodes();
	}
	binderc_unlock_dead_nodes();
	if (last_node)
		binderc_put_node(last_node);
}

static int state_show(struct seq_file *m, void *unused)
{
	struct binderc_proc *proc;

	seq_puts(m, "binder state:\n");
	binderc_print_dead_nodes(m);
	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(proc, &binderc_procs, proc_entry)
		binderc_print_proc(m, proc, true);
	mutex_unlock(&binderc_procs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(state);

static int transactions_show(struct seq_file *m, void *unused)
{
	struct binderc_proc *proc;

	seq_puts(m, "binder transactions:\n");
	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(proc, &binderc_procs, proc_entry)
		binderc_print_proc(m, proc, false);
	mutex_unlock(&binderc_procs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(transactions);

static int proc_show(struct seq_file *m, void *unused)
{
	int pid = (unsigned long)m->private;
	struct binderc_proc *proc;

	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(proc, &binderc_procs, proc_entry) {
		if (proc->pid == pid) {
			seq_puts(m, "binder proc state:\n");
			binderc_print_proc(m, proc, true);
		}
	}
	mutex_unlock(&binderc_procs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(proc);

/* ---- stats and counters ------------------------------------------------- */

static void binderc_print_stats(struct seq_file *m, const char *prefix,
				struct binderc_stats *stats)
{
	int i, v;

	for (i = 0; i < BINDERC_BC_COUNT; i++) {
		v = atomic_read(&stats->bc[i]);
		if (v)
			seq_printf(m, "%s%s: %d\n", prefix,
				   binderc_bc_names[i], v);
	}
	for (i = 0; i < BINDERC_BR_COUNT; i++) {
		v = atomic_read(&stats->br[i]);
		if (v)
			seq_printf(m, "%s%s: %d\n", prefix,
				   binderc_br_names[i], v);
	}
}

static int stats_show(struct seq_file *m, void *unused)
{
	long held, lru, reclaimed;
	struct binderc_proc *proc;
	int i;

	seq_puts(m, "binder stats:\n");
	binderc_print_stats(m, "", &binderc_global_stats);
	for (i = 0; i < BINDERC_CNT_COUNT; i++)
		seq_printf(m, "%s: active %d\n", binderc_counter_names[i],
			   atomic_read(&binderc_counters[i]));
	binderc_alloc_page_stats(&held, &lru, &reclaimed);
	seq_printf(m, "pages: held %ld lru %ld reclaimed %ld\n", held, lru,
		   reclaimed);
	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(proc, &binderc_procs, proc_entry) {
		seq_printf(m, "proc %d\n", proc->pid);
		seq_printf(m, "context %s\n", proc->context->name);
		binderc_print_stats(m, "  ", &proc->stats);
		binderc_lock_alloc(&proc->alloc);
		binderc_print_pages_locked(m, &proc->alloc);
		binderc_unlock_alloc(&proc->alloc);
	}
	mutex_unlock(&binderc_procs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int counters_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < BINDERC_CNT_COUNT; i++)
		seq_printf(m, "%s %d\n", binderc_counter_names[i],
			   atomic_read(&binderc_counters[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(counters);

/* ---- setup ---------------------------------------------------------------- */

/*
 * binderfs shows the same files in binder_logs/ of a stats=global mount.
 * The _hashed names are mainline's variants that hash kernel addresses;
 * binderc prints none, so they are the same files under a second name.
 */
const struct binderc_log_file binderc_log_files[] = {
	{ "state", &state_fops },
	{ "state_hashed", &state_fops },
	{ "stats", &stats_fops },
	{ "transactions", &transactions_fops },
	{ "transactions_hashed", &transactions_fops },
	{ "transaction_log", &transaction_log_fops },
	{ "failed_transaction_log", &failed_transaction_log_fops },
	{ NULL, NULL }
};

const struct file_operations *const binderc_proc_log_fops = &proc_fops;

void binderc_debugfs_add_proc(struct binderc_proc *proc)
{
	struct binderc_proc *itr;
	bool existing = false;
	char name[12];

	if (!binderc_debugfs_procs)
		return;
	/* One file per pid, like mainline: it lists every proc of the pid. */
	mutex_lock(&binderc_procs_lock);
	list_for_each_entry(itr, &binderc_procs, proc_entry) {
		if (itr != proc && itr->pid == proc->pid &&
		    itr->debugfs_entry) {
			existing = true;
			break;
		}
	}
	if (!existing) {
		snprintf(name, sizeof(name), "%u", proc->pid);
		proc->debugfs_entry = debugfs_create_file(name, 0444,
					binderc_debugfs_procs,
					(void *)(unsigned long)proc->pid,
					&proc_fops);
	}
	mutex_unlock(&binderc_procs_lock);
}

void binderc_debugfs_remove_proc(struct binderc_proc *proc)
{
	debugfs_remove(proc->debugfs_entry);
	proc->debugfs_entry = NULL;
}

void binderc_debugfs_init(void)
{
	struct dentry *root = debugfs_create_dir("binderc", NULL);
	const struct binderc_log_file *f;

	if (IS_ERR_OR_NULL(root))
		return;
	binderc_debugfs_root = root;
	binderc_debugfs_procs = debugfs_create_dir("proc", root);
	for (f = binderc_log_files; f->name; f++)
		debugfs_create_file(f->name, 0444, root, NULL, f->fops);
	debugfs_create_file("counters", 0444, root, NULL, &counters_fops);
}

void binderc_debugfs_exit(void)
{
	debugfs_remove_recursive(binderc_debugfs_root);
	binderc_debugfs_root = NULL;
	binderc_debugfs_procs = NULL;
}
