// SPDX-License-Identifier: GPL-2.0-only
/*
 * binderc: the objects a transaction carries, from the sender's buffer into
 * the receiver's: binders become handles and back, fds are carried as files
 * (installed in the receiver when it reads), PTR buffers are copied into
 * the scatter-gather area with their parents' pointers fixed up.
 *
 * Everything userspace wrote is untrusted: every offset is checked against
 * the data, every object against the offsets before it.  Raw data and SG
 * copies are done together with the fixups at the end, so the receiver
 * never sees an untranslated value.  On failure exactly the objects already
 * translated are released again (see failed_at).
 */
#include <linux/file.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "binderc.h"
#include "trace.h"

union binderc_object {
	struct binder_object_header hdr;
	struct flat_binder_object fbo;
	struct binder_fd_object fdo;
	struct binder_buffer_object bbo;
	struct binder_fd_array_object fdao;
};

/* A range of sender memory to copy into the SG area. */
struct binderc_sg_copy {
	struct list_head entry;
	size_t offset;
	const void __user *sender_uaddr;
	size_t length;
};

/* A pointer to patch (or, skip_size != 0, an fd array to leave alone). */
struct binderc_ptr_fixup {
	struct list_head entry;
	size_t offset;
	size_t skip_size;
	binder_uintptr_t fixup_data;
};

/* Per-translation cursor state. */
struct binderc_xlate {
	size_t off_start;
	size_t off_end;
	size_t sg_offset;
	size_t sg_end;
	size_t off_min;
	size_t user_offset;
	size_t last_fixup_obj_off;
	size_t last_fixup_min_off;
	struct list_head sg_copies;
	struct list_head fixups;
};

static size_t binderc_object_size(u32 type)
{
	switch (type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_WEAK_BINDER:
	case BINDER_TYPE_HANDLE:
	case BINDER_TYPE_WEAK_HANDLE:
		return sizeof(struct flat_binder_object);
	case BINDER_TYPE_FD:
		return sizeof(struct binder_fd_object);
	case BINDER_TYPE_PTR:
		return sizeof(struct binder_buffer_object);
	case BINDER_TYPE_FDA:
		return sizeof(struct binder_fd_array_object);
	default:
		return 0;
	}
}

/*
 * Read the object at @offset of the data, from the sender (@u) or from the
 * receiver's buffer.  Returns its size, or 0 if it is not a whole, aligned,
 * known object inside the data.
 */
static size_t binderc_get_object(struct binderc_proc *proc,
				 const void __user *u,
				 struct binderc_buffer *buffer, size_t offset,
				 union binderc_object *object)
{
	size_t data_size = buffer->data_size, read_size, size;

	if (offset > data_size || !IS_ALIGNED(offset, sizeof(u32)))
		return 0;
	read_size = min_t(size_t, sizeof(*object), data_size - offset);
	if (read_size < sizeof(object->hdr))
		return 0;
	if (u) {
		if (copy_from_user(object, u + offset, read_size))
			return 0;
	} else if (binderc_alloc_copy_from_buffer(&proc->alloc, object, buffer,
						  offset, read_size)) {
		return 0;
	}
	size = binderc_object_size(object->hdr.type);
	if (!size || data_size < size || offset > data_size - size)
		return 0;
	return size;
}

/* The PTR object at index @index, if it is one of the first @num_valid. */
static struct binder_buffer_object *
binderc_validate_ptr(struct binderc_proc *proc, struct binderc_buffer *b,
		     union binderc_object *object, size_t index,
		     size_t start_offset, size_t *object_offsetp,
		     size_t num_valid)
{
	binder_size_t object_offset;

	if (index >= num_valid)
		return NULL;
	if (binderc_alloc_copy_from_buffer(&proc->alloc, &object_offset, b,
					   start_offset +
					   sizeof(binder_size_t) * index,
					   sizeof(object_offset)))
		return NULL;
	if (!binderc_get_object(proc, NULL, b, object_offset, object) ||
	    object->hdr.type != BINDER_TYPE_PTR)
		return NULL;
	if (object_offsetp)
		*object_offsetp = object_offset;
	return &object->bbo;
}

/*
 * Fixups must go into the last fixed-up buffer or one of its ancestors,
 * and at increasing offsets there, so a later object cannot rewrite what
 * an earlier one already fixed.
 */
static bool binderc_validate_fixup(struct binderc_proc *proc,
				   struct binderc_buffer *b,
				   size_t objects_start, size_t buffer_obj_off,
				   size_t fixup_offset, size_t last_obj_off,
				   size_t last_min_off)
{
	if (!last_obj_off)
		return false;

	while (last_obj_off != buffer_obj_off) {
		union binderc_object last;
		binder_size_t next;

		if (binderc_get_object(proc, NULL, b, last_obj_off, &last) !=
		    sizeof(last.bbo))
			return false;
		if (!(last.bbo.flags & BINDER_BUFFER_FLAG_HAS_PARENT))
			return false;
		last_min_off = last.bbo.parent_offset + sizeof(uintptr_t);
		if (binderc_alloc_copy_from_buffer(&proc->alloc, &next, b,
						   objects_start +
						   sizeof(binder_size_t) *
						   last.bbo.parent,
						   sizeof(next)))
			return false;
		last_obj_off = next;
	}
	return fixup_offset >= last_min_off;
}

/* ---- releasing what a buffer holds ----------------------------------- */

static void binderc_release_fda(struct binderc_proc *proc,
				struct binderc_thread *thread,
				struct binderc_buffer *buffer,
				struct binder_fd_array_object *fda,
				size_t off_start, size_t num_valid)
{
	struct binder_buffer_object *parent;
	union binderc_object ptr_object;
	size_t fd_buf_size, fda_offset, i;

	parent = binderc_validate_ptr(proc, buffer, &ptr_object, fda->parent,
				      off_start, NULL, num_valid);
	if (!parent)
		return;
	if (fda->num_fds >= SIZE_MAX / sizeof(u32))
		return;
	fd_buf_size = sizeof(u32) * fda->num_fds;
	if (fd_buf_size > parent->length ||
	    fda->parent_offset > parent->length - fd_buf_size)
		return;
	/* The parent was fixed up already: its pointer is ours. */
	fda_offset = parent->buffer - buffer->user_data + fda->parent_offset;
	for (i = 0; i < fda->num_fds; i++) {
		u32 fd;

		if (binderc_alloc_copy_from_buffer(&proc->alloc, &fd, buffer,
						   fda_offset + i * sizeof(fd),
						   sizeof(fd)))
			continue;
		binderc_close_fd(fd);
		/* Let the final fput run on the way back to userspace. */
		if (thread)
			thread->looper_need_return = true;
	}
}

static void binderc_release_object(struct binderc_proc *proc,
				   struct binderc_thread *thread,
				   struct binderc_buffer *buffer,
				   union binderc_object *object,
				   size_t off_start, size_t num_valid,
				   bool is_failure)
{
	struct binderc_node *node;

	switch (object->hdr.type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_WEAK_BINDER:
		node = binderc_get_node(proc, object->fbo.binder);
		if (!node)
			break;
		binderc_dec_node(node,
				 object->hdr.type == BINDER_TYPE_BINDER, 0);
		binderc_put_node(node);
		break;
	case BINDER_TYPE_HANDLE:
	case BINDER_TYPE_WEAK_HANDLE:
		binderc_update_ref_for_handle(proc, object->fbo.handle, false,
				object->hdr.type == BINDER_TYPE_HANDLE, NULL);
		break;
	case BINDER_TYPE_FDA:
		/* On failure no fd was installed yet: nothing to close. */
		if (!is_failure)
			binderc_release_fda(proc, thread, buffer,
					    &object->fdao, off_start,
					    num_valid);
		break;
	default:
		/* FD objects are closed by userspace; PTRs hold nothing. */
		break;
	}
}

/* Undo the objects before @off_end_offset and the target-node ref. */
void binderc_transaction_buffer_release(struct binderc_proc *proc,
					struct binderc_thread *thread,
					struct binderc_buffer *buffer,
					size_t off_end_offset, bool is_failure)
{
	size_t off_start, off;

	if (buffer->target_node)
		binderc_dec_node(buffer->target_node, 1, 0);

	off_start = ALIGN(buffer->data_size, sizeof(void *));
	for (off = off_start; off < off_end_offset;
	     off += sizeof(binder_size_t)) {
		union binderc_object object;
		binder_size_t object_offset;

		if (binderc_alloc_copy_from_buffer(&proc->alloc, &object_offset,
						   buffer, off,
						   sizeof(object_offset)))
			continue;
		if (!binderc_get_object(proc, NULL, buffer, object_offset,
					&object))
			continue;
		binderc_release_object(proc, thread, buffer, &object, off_start,
				       (off - off_start) / sizeof(binder_size_t),
				       is_failure);
	}
}

void binderc_release_entire_buffer(struct binderc_proc *proc,
				   struct binderc_thread *thread,
				   struct binderc_buffer *buffer,
				   bool is_failure)
{
	size_t off_end = ALIGN(buffer->data_size, sizeof(void *)) +
			 buffer->offsets_size;

	binderc_transaction_buffer_release(proc, thread, buffer, off_end,
					   is_failure);
}

/* ---- translating one object ------------------------------------------ */

static int binderc_translate_binder(struct binderc_txn_build *b,
				    struct flat_binder_object *fp)
{
	struct binderc_proc *proc = b->proc;
	struct binderc_ref_data rdata;
	struct binderc_node *node;
	int ret;

	/* A node is created the first time its object is sent. */
	node = binderc_get_node(proc, fp->binder);
	if (!node) {
		/* Its scheduling bits are checked once, by their owner. */
		ret = binderc_node_sched_check(fp->flags);
		if (ret)
			return ret;
		node = binderc_new_node(proc, fp);
		if (!node)
			return -ENOMEM;
	}
	ret = -EINVAL;
	if (fp->cookie != node->cookie)
		goto done;
	ret = -EPERM;
	if (security_binder_transfer_binder(proc->cred, b->target_proc->cred))
		goto done;
	ret = binderc_inc_ref_for_node(b->target_proc, node,
				       fp->hdr.type == BINDER_TYPE_BINDER,
				       &b->thread->todo, &rdata);
	if (ret)
		goto done;
	fp->hdr.type = fp->hdr.type == BINDER_TYPE_BINDER ?
		       BINDER_TYPE_HANDLE : BINDER_TYPE_WEAK_HANDLE;
	fp->binder = 0;
	fp->handle = rdata.desc;
	fp->cookie = 0;
	trace_binderc_transaction_node_to_ref(b->t, node, &rdata);
done:
	binderc_put_node(node);
	return ret;
}

static int binderc_translate_handle(struct binderc_txn_build *b,
				    struct flat_binder_object *fp)
{
	bool strong = fp->hdr.type == BINDER_TYPE_HANDLE;
	struct binderc_proc *proc = b->proc;
	struct binderc_ref_data src_rdata, rdata;
	struct binderc_node *node;
	int ret = 0;

	node = binderc_get_node_from_ref(proc, fp->handle, strong, &src_rdata);
	if (!node)
		return -EINVAL;
	if (security_binder_transfer_binder(proc->cred,
					    b->target_proc->cred)) {
		ret = -EPERM;
		goto done;
	}

	binderc_lock_node(node);
	if (node->proc == b->target_proc) {
		/* Back home: the owner gets its own object again. */
		fp->hdr.type = strong ? BINDER_TYPE_BINDER :
					BINDER_TYPE_WEAK_BINDER;
		fp->binder = node->ptr;
		fp->cookie = node->cookie;
		binderc_lock_inner(node->proc);
		binderc_inc_node_nilocked(node, strong, 0, NULL);
		binderc_unlock_inner(node->proc);
		binderc_unlock_node(node);
		trace_binderc_transaction_ref_to_node(b->t, node, &src_rdata);
		goto done;
	}
	binderc_unlock_node(node);

	ret = binderc_inc_ref_for_node(b->target_proc, node, strong, NULL,
				       &rdata);
	if (ret)
		goto done;
	fp->binder = 0;
	fp->handle = rdata.desc;
	fp->cookie = 0;
	trace_binderc_transaction_ref_to_ref(b->t, node, &src_rdata, &rdata);
done:
	binderc_put_node(node);
	return ret;
}

static int binderc_translate_fd(struct binderc_txn_build *b, u32 fd,
				size_t fd_offset)
{
	struct binderc_txn_fd_fixup *fixup;
	struct file *file;
	bool allowed;
	int ret;

	/* Replies need TF_ACCEPT_FDS on the call, calls an accepting node. */
	if (b->in_reply_to)
		allowed = b->in_reply_to->flags & TF_ACCEPT_FDS;
	else
		allowed = b->t->buffer->target_node->accept_fds;
	if (!allowed)
		return -EPERM;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = security_binder_transfer_file(b->proc->cred,
					    b->target_proc->cred, file);
	if (ret < 0) {
		ret = -EPERM;
		goto err_put;
	}
	fixup = kzalloc(sizeof(*fixup), GFP_KERNEL);
	if (!fixup) {
		ret = -ENOMEM;
		goto err_put;
	}
	/* Installed in the receiver's table when it reads (at read time). */
	fixup->file = file;
	fixup->offset = fd_offset;
	fixup->target_fd = -1;
	list_add_tail(&fixup->entry, &b->t->fd_fixups);
	binderc_count_inc(BINDERC_CNT_FD_FIXUP);
	trace_binderc_transaction_fd_send(b->t, fd, fd_offset);
	return 0;

err_put:
	fput(file);
	return ret;
}

static int binderc_add_sg_copy(struct binderc_xlate *x, size_t offset,
			       const void __user *uaddr, size_t length)
{
	struct binderc_sg_copy *sgc = kzalloc(sizeof(*sgc), GFP_KERNEL);

	if (!sgc)
		return -ENOMEM;
	sgc->offset = offset;
	sgc->sender_uaddr = uaddr;
	sgc->length = length;
	list_add_tail(&sgc->entry, &x->sg_copies);
	return 0;
}

/* Keep the fixup list sorted by offset (it is nearly sorted already). */
static int binderc_add_fixup(struct binderc_xlate *x, size_t offset,
			     binder_uintptr_t data, size_t skip_size)
{
	struct binderc_ptr_fixup *pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	struct binderc_ptr_fixup *pos;

	if (!pf)
		return -ENOMEM;
	pf->offset = offset;
	pf->fixup_data = data;
	pf->skip_size = skip_size;
	list_for_each_entry_reverse(pos, &x->fixups, entry) {
		if (pos->offset < offset) {
			list_add(&pf->entry, &pos->entry);
			return 0;
		}
	}
	list_add(&pf->entry, &x->fixups);
	return 0;
}

static int binderc_translate_fda(struct binderc_txn_build *b,
				 struct binderc_xlate *x,
				 struct binder_fd_array_object *fda,
				 struct binder_buffer_object *parent,
				 struct binder_buffer_object *user_parent)
{
	const void __user *sender_fds;
	size_t fd_buf_size, fda_offset, i;
	int ret;

	if (fda->num_fds == 0)
		return 0;
	if (fda->num_fds >= SIZE_MAX / sizeof(u32))
		return -EINVAL;
	fd_buf_size = sizeof(u32) * fda->num_fds;
	if (fd_buf_size > parent->length ||
	    fda->parent_offset > parent->length - fd_buf_size)
		return -EINVAL;
	fda_offset = parent->buffer - b->t->buffer->user_data +
		     fda->parent_offset;
	sender_fds = u64_to_user_ptr(user_parent->buffer + fda->parent_offset);
	if (!IS_ALIGNED(fda_offset, sizeof(u32)) ||
	    !IS_ALIGNED((unsigned long)sender_fds, sizeof(u32)))
		return -EINVAL;
	/* The SG copy must not bring the sender's fd numbers along. */
	ret = binderc_add_fixup(x, fda_offset, 0, fd_buf_size);
	if (ret)
		return ret;
	for (i = 0; i < fda->num_fds; i++) {
		u32 fd;

		if (copy_from_user(&fd, sender_fds + i * sizeof(fd),
				   sizeof(fd)))
			return -EINVAL;
		ret = binderc_translate_fd(b, fd, fda_offset + i * sizeof(fd));
		if (ret)
			return ret;
	}
	return 0;
}

static int binderc_xlate_fda(struct binderc_txn_build *b,
			     struct binderc_xlate *x, size_t buffer_offset,
			     union binderc_object *object)
{
	struct binder_fd_array_object *fda = &object->fdao;
	size_t num_valid = (buffer_offset - x->off_start) /
			   sizeof(binder_size_t);
	union binderc_object ptr_object, user_object;
	struct binder_buffer_object *parent;
	size_t parent_offset;
	int ret;

	parent = binderc_validate_ptr(b->target_proc, b->t->buffer,
				      &ptr_object, fda->parent, x->off_start,
				      &parent_offset, num_valid);
	if (!parent)
		return -EINVAL;
	if (!binderc_validate_fixup(b->target_proc, b->t->buffer,
				    x->off_start, parent_offset,
				    fda->parent_offset, x->last_fixup_obj_off,
				    x->last_fixup_min_off))
		return -EINVAL;
	/* The sender's copy of the parent still has the sender's pointer. */
	if (binderc_get_object(b->proc, u64_to_user_ptr(b->tr->data.ptr.buffer),
			       b->t->buffer, parent_offset, &user_object) !=
	    sizeof(user_object.bbo))
		return -EINVAL;
	ret = binderc_translate_fda(b, x, fda, parent, &user_object.bbo);
	if (ret)
		return ret;
	x->last_fixup_obj_off = parent_offset;
	x->last_fixup_min_off = fda->parent_offset +
				sizeof(u32) * fda->num_fds;
	return 0;
}

static int binderc_fixup_parent(struct binderc_txn_build *b,
				struct binderc_xlate *x,
				struct binder_buffer_object *bp,
				size_t num_valid)
{
	struct binderc_buffer *buf = b->t->buffer;
	struct binder_buffer_object *parent;
	union binderc_object object;
	size_t parent_offset;

	if (!(bp->flags & BINDER_BUFFER_FLAG_HAS_PARENT))
		return 0;
	parent = binderc_validate_ptr(b->target_proc, buf, &object,
				      bp->parent, x->off_start,
				      &parent_offset, num_valid);
	if (!parent)
		return -EINVAL;
	if (!binderc_validate_fixup(b->target_proc, buf, x->off_start,
				    parent_offset, bp->parent_offset,
				    x->last_fixup_obj_off,
				    x->last_fixup_min_off))
		return -EINVAL;
	if (parent->length < sizeof(binder_uintptr_t) ||
	    bp->parent_offset > parent->length - sizeof(binder_uintptr_t))
		return -EINVAL;
	return binderc_add_fixup(x, bp->parent_offset + parent->buffer -
				 buf->user_data, bp->buffer, 0);
}

static int binderc_xlate_ptr(struct binderc_txn_build *b,
			     struct binderc_xlate *x, size_t buffer_offset,
			     size_t object_offset,
			     struct binder_buffer_object *bp)
{
	size_t num_valid = (buffer_offset - x->off_start) /
			   sizeof(binder_size_t);
	int ret;

	/* Also what rejects a PTR in a transaction without an SG area. */
	if (bp->length > x->sg_end - x->sg_offset)
		return -EINVAL;
	ret = binderc_add_sg_copy(x, x->sg_offset,
				  u64_to_user_ptr(bp->buffer), bp->length);
	if (ret)
		return ret;
	bp->buffer = b->t->buffer->user_data + x->sg_offset;
	x->sg_offset += ALIGN(bp->length, sizeof(u64));
	ret = binderc_fixup_parent(b, x, bp, num_valid);
	if (ret)
		return ret;
	x->last_fixup_obj_off = object_offset;
	x->last_fixup_min_off = 0;
	return 0;
}

static int binderc_xlate_object(struct binderc_txn_build *b,
				struct binderc_xlate *x, size_t buffer_offset,
				size_t object_offset,
				union binderc_object *object)
{
	switch (object->hdr.type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_WEAK_BINDER:
		return binderc_translate_binder(b, &object->fbo);
	case BINDER_TYPE_HANDLE:
	case BINDER_TYPE_WEAK_HANDLE:
		return binderc_translate_handle(b, &object->fbo);
	case BINDER_TYPE_FD: {
		u32 fd = object->fdo.fd;

		/* fd shares a union with pad_binder: read it first. */
		object->fdo.pad_binder = 0;
		return binderc_translate_fd(b, fd, object_offset +
				offsetof(struct binder_fd_object, fd));
	}
	case BINDER_TYPE_FDA:
		return binderc_xlate_fda(b, x, buffer_offset, object);
	case BINDER_TYPE_PTR:
		return binderc_xlate_ptr(b, x, buffer_offset, object_offset,
					 &object->bbo);
	default:
		return -EINVAL;
	}
}

/* The object whose offset is stored at @buffer_offset of the buffer. */
static int binderc_translate_one(struct binderc_txn_build *b,
				 struct binderc_xlate *x, size_t buffer_offset)
{
	const void __user *ubuf = u64_to_user_ptr(b->tr->data.ptr.buffer);
	struct binderc_buffer *buf = b->t->buffer;
	union binderc_object object;
	binder_size_t object_offset;
	size_t copy_size, size;
	int ret;

	if (binderc_alloc_copy_from_buffer(&b->target_proc->alloc,
					   &object_offset, buf, buffer_offset,
					   sizeof(object_offset)))
		return -EINVAL;
	/*
	 * Raw bytes up to this object.  Going backwards (decreasing or
	 * overlapping offsets) fails here, with mainline's -EFAULT.
	 */
	copy_size = object_offset - x->user_offset;
	if (copy_size && (x->user_offset > object_offset ||
			  object_offset > b->tr->data_size ||
			  binderc_alloc_copy_user_to_buffer(&b->target_proc->alloc,
				buf, x->user_offset, ubuf + x->user_offset,
				copy_size)))
		return -EFAULT;
	size = binderc_get_object(b->target_proc, ubuf, buf, object_offset,
				  &object);
	if (!size || object_offset < x->off_min)
		return -EINVAL;
	x->user_offset = object_offset + size;
	x->off_min = object_offset + size;

	ret = binderc_xlate_object(b, x, buffer_offset, object_offset,
				   &object);
	if (ret)
		return ret;
	if (binderc_alloc_copy_to_buffer(&b->target_proc->alloc, buf,
					 object_offset, &object, size))
		return -EINVAL;
	return 0;
}

/* SG data and fixups in one pass, by increasing offset. */
static int binderc_do_sg_copies(struct binderc_txn_build *b,
				struct binderc_xlate *x)
{
	struct binderc_alloc *alloc = &b->target_proc->alloc;
	struct binderc_buffer *buf = b->t->buffer;
	struct binderc_sg_copy *sgc;
	struct binderc_ptr_fixup *pf;

	pf = list_first_entry_or_null(&x->fixups, struct binderc_ptr_fixup,
				      entry);
	list_for_each_entry(sgc, &x->sg_copies, entry) {
		size_t done = 0;

		while (done < sgc->length) {
			size_t offset = sgc->offset + done;
			size_t left = sgc->length - done;
			size_t chunk = left;

			if (pf && pf->offset < offset)
				return -EINVAL;
			if (pf && pf->offset - offset < left)
				chunk = pf->offset - offset;
			if (chunk && binderc_alloc_copy_user_to_buffer(alloc,
					buf, offset, sgc->sender_uaddr + done,
					chunk))
				return -EFAULT;
			done += chunk;
			if (chunk == left)
				break;
			/* Stopped at a fixup: patch it or skip the fds. */
			if (pf->skip_size) {
				done += pf->skip_size;
			} else {
				if (binderc_alloc_copy_to_buffer(alloc, buf,
						pf->offset, &pf->fixup_data,
						sizeof(pf->fixup_data)))
					return -EINVAL;
				done += sizeof(pf->fixup_data);
			}
			pf = list_next_entry(pf, entry);
			if (list_entry_is_head(pf, &x->fixups, entry))
				pf = NULL;
		}
	}
	return 0;
}

static void binderc_xlate_cleanup(struct binderc_xlate *x)
{
	struct binderc_sg_copy *sgc, *sgc_tmp;
	struct binderc_ptr_fixup *pf, *pf_tmp;

	list_for_each_entry_safe(sgc, sgc_tmp, &x->sg_copies, entry) {
		list_del(&sgc->entry);
		kfree(sgc);
	}
	list_for_each_entry_safe(pf, pf_tmp, &x->fixups, entry) {
		list_del(&pf->entry);
		kfree(pf);
	}
}

static int binderc_translate_objects(struct binderc_txn_build *b,
				     struct binderc_xlate *x)
{
	const void __user *ubuf = u64_to_user_ptr(b->tr->data.ptr.buffer);
	struct binderc_buffer *buf = b->t->buffer;
	size_t off;
	int ret;

	for (off = x->off_start; off < x->off_end;
	     off += sizeof(binder_size_t)) {
		b->failed_at = off;
		ret = binderc_translate_one(b, x, off);
		if (ret)
			return ret;
	}
	b->failed_at = x->off_end;
	/* The raw bytes after the last object. */
	if (binderc_alloc_copy_user_to_buffer(&b->target_proc->alloc, buf,
					      x->user_offset,
					      ubuf + x->user_offset,
					      b->tr->data_size -
					      x->user_offset))
		return -EFAULT;
	return binderc_do_sg_copies(b, x);
}

/*
 * Fill b->t->buffer from the sender.  Returns 0 or the -errno for the
 * extended error; b->failed_at says how far objects were translated.
 */
int binderc_translate_buffer(struct binderc_txn_build *b)
{
	struct binder_transaction_data *tr = b->tr;
	struct binderc_xlate x = { };
	int ret;

	INIT_LIST_HEAD(&x.sg_copies);
	INIT_LIST_HEAD(&x.fixups);
	b->failed_at = 0;
	x.off_start = ALIGN(tr->data_size, sizeof(void *));

	if (binderc_alloc_copy_user_to_buffer(&b->target_proc->alloc,
					      b->t->buffer, x.off_start,
					      u64_to_user_ptr(tr->data.ptr.offsets),
					      tr->offsets_size))
		return -EFAULT;
	if (!IS_ALIGNED(tr->offsets_size, sizeof(binder_size_t)) ||
	    !IS_ALIGNED(b->extra_buffers_size, sizeof(u64)))
		return -EINVAL;

	x.off_end = x.off_start + tr->offsets_size;
	x.sg_offset = ALIGN(x.off_end, sizeof(void *));
	/* The secctx at the end is not SG space (CVE-2019-2214). */
	x.sg_end = x.sg_offset + b->extra_buffers_size - b->secctx_size;
	b->failed_at = x.off_start;

	ret = binderc_translate_objects(b, &x);
	binderc_xlate_cleanup(&x);
	return ret;
}
