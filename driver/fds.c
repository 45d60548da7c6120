// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: file descriptors carried by transactions.
 *
 * The sender's files are pinned while the transaction is built
 * (objects.c); the receiver gets fds only when it reads the transaction,
 * in its own fd table, O_CLOEXEC, all or none.  When a buffer with an fd
 * array is freed, the kernel closes the fds it installed (mainline does the
 * same); single fd objects are userspace's to close.
 */
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/slab.h>

#include "binderc.h"
#include "trace.h"

/*
 * Close an fd the kernel installed for an FDA, in the receiver: what
 * close(2) does, through the one fd-closing call every supported kernel
 * exports.
 */
void binderc_close_fd(u32 fd)
{
	close_fd(fd);
}

void binderc_free_txn_fixups(struct binderc_transaction *t)
{
	struct binderc_txn_fd_fixup *fixup, *tmp;

	list_for_each_entry_safe(fixup, tmp, &t->fd_fixups, entry) {
		fput(fixup->file);
		if (fixup->target_fd >= 0)
			put_unused_fd(fixup->target_fd);
		list_del(&fixup->entry);
		kfree(fixup);
		binderc_count_dec(BINDERC_CNT_FD_FIXUP);
	}
}

/*
 * In the receiver: reserve all fds and write their numbers first, install
 * the files only when all succeeded, so a failure leaves nothing behind.
 */
int binderc_apply_fd_fixups(struct binderc_proc *proc,
			    struct binderc_transaction *t)
{
	struct binderc_txn_fd_fixup *fixup, *tmp;

	list_for_each_entry(fixup, &t->fd_fixups, entry) {
		int fd = get_unused_fd_flags(O_CLOEXEC);

		if (fd < 0)
			goto err;
		fixup->target_fd = fd;
		if (binderc_alloc_copy_to_buffer(&proc->alloc, t->buffer,
						 fixup->offset, &fd,
						 sizeof(u32)))
			goto err;
		trace_binderc_transaction_fd_recv(t, fd, fixup->offset);
	}
	list_for_each_entry_safe(fixup, tmp, &t->fd_fixups, entry) {
		fd_install(fixup->target_fd, fixup->file);
		list_del(&fixup->entry);
		kfree(fixup);
		binderc_count_dec(BINDERC_CNT_FD_FIXUP);
	}
	return 0;

err:
	binderc_free_txn_fixups(t);
	return -ENOMEM;
}
