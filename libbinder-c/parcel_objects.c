/* SPDX-License-Identifier: MIT */
/* Binder and fd objects in parcels: each is listed in the offsets array;
 * a binder is followed by a stability word in the dialects that have one. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "parcel_internal.h"

/* ---- writing ---------------------------------------------------------- */

static int add_offset(bc_parcel *p, size_t off)
{
	int r = grow((void **)&p->offs, &p->cap_offs, p->n_offs + 1, sizeof(uint64_t));

	if (r == 0)
		p->offs[p->n_offs++] = off;
	return r;
}

/*
 * Android's Parcel::writeObject lists an object in the offsets array only
 * when its binder field is not 0: a null binder is not listed, and
 * neither is handle 0, the context manager, whose handle and cookie are
 * both 0.  Handle 0 then crosses untranslated and names the receiver's
 * own handle 0, the same object in every process; Parcel::readObject
 * takes such an object unlisted.  We write and read it alike, so that an
 * Android service manager can take ours and ours can take Android's.
 */
static bool is_context_handle(const struct flat_binder_object *obj)
{
	return (obj->hdr.type == BINDER_TYPE_HANDLE || obj->hdr.type == BINDER_TYPE_WEAK_HANDLE) && obj->binder == 0 &&
	       obj->cookie == 0;
}

static uint32_t stability_word(const struct bc_wire_proto *proto, int level)
{
	if (proto->stability == STABILITY_CATEGORY)
		return 1u | ((uint32_t)level << 24);
	return (uint32_t)level;
}

static int write_binder(bc_parcel *p, bc_binder *b, bool weak)
{
	struct flat_binder_object obj;
	bool listed = false;
	size_t start;
	int r;

	if (!p)
		return -EINVAL;
	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	if (p->rpc)
		return bc__rpc_parcel_write_binder(p, b, weak);
	memset(&obj, 0, sizeof(obj));
	start = p->size;
	if (b) {
		r = grow((void **)&p->binders, &p->cap_binders, p->n_binders + 1, sizeof(*p->binders));
		if (r < 0)
			return r;
		r = bc__binder_flatten(b, weak, &obj);
		if (r < 0)
			return r;
		listed = !is_context_handle(&obj);
		if (listed && (r = add_offset(p, p->size)) < 0)
			return r;
	} else {
		obj.hdr.type = weak ? BINDER_TYPE_WEAK_BINDER : BINDER_TYPE_BINDER;
	}
	r = bc_parcel_write_raw(p, &obj, sizeof(obj));
	if (r == 0 && p->proto->stability != STABILITY_NONE)
		r = bc_parcel_write_uint32(
			p, stability_word(p->proto, b ? bc__binder_wire_stability(b, p->partition) : 0));
	if (r < 0) {
		if (listed)
			p->n_offs--;
		truncate_to(p, start);
		return r;
	}
	if (b)
		p->binders[p->n_binders++] = bc_binder_ref(b);
	return 0;
}

int bc_parcel_write_binder(bc_parcel *p, bc_binder *b) { return write_binder(p, b, false); }

int bc_parcel_write_weak_binder(bc_parcel *p, bc_binder *b) { return write_binder(p, b, true); }

int bc_parcel_write_fd(bc_parcel *p, int fd, bool take_ownership)
{
	struct binder_fd_object obj;
	size_t start;
	int r;

	if (!p || fd < 0)
		return -EINVAL;
	if (p->flags & BINDERC_PARCEL_READONLY)
		return -EROFS;
	if (p->rpc)
		return bc__rpc_parcel_write_fd(p, fd, take_ownership);
	if (take_ownership) {
		r = grow((void **)&p->fds, &p->cap_fds, p->n_fds + 1, sizeof(int));
		if (r < 0)
			return r;
	}
	memset(&obj, 0, sizeof(obj));
	obj.hdr.type = BINDER_TYPE_FD;
	obj.pad_flags = 0x7f | FLAT_BINDER_FLAG_ACCEPTS_FDS;
	obj.fd = (uint32_t)fd;
	obj.cookie = take_ownership ? 1 : 0;
	start = p->size;
	r = add_offset(p, p->size);
	if (r < 0)
		return r;
	r = bc_parcel_write_raw(p, &obj, sizeof(obj));
	if (r < 0) {
		p->n_offs--;
		truncate_to(p, start);
		return r;
	}
	if (take_ownership)
		p->fds[p->n_fds++] = fd;
	return 0;
}

/* ---- reading ---------------------------------------------------------- */

/* Locate a flat object at the position.  *@listed tells whether the
 * offsets array lists it; unlisted objects must not overlap listed ones. */
static int peek_object(const bc_parcel *p, struct flat_binder_object *obj, bool *listed)
{
	size_t pos = p->pos, i;

	if (pos > p->size || BINDERC_OBJ_SIZE > p->size - pos)
		return -ENODATA;
	i = first_obj_after(p, pos);
	*listed = i < p->n_offs && p->offs[i] == pos;
	if (!*listed && i < p->n_offs && p->offs[i] < pos + BINDERC_OBJ_SIZE)
		return -EBADMSG;
	memcpy(obj, p->data + pos, sizeof(*obj));
	return 0;
}

/* A strong binder object's type for either strength. */
static uint32_t strong_type(uint32_t type)
{
	if (type == BINDER_TYPE_WEAK_BINDER)
		return BINDER_TYPE_BINDER;
	if (type == BINDER_TYPE_WEAK_HANDLE)
		return BINDER_TYPE_HANDLE;
	return type;
}

/* Resolve a binder object to a bc_binder in a parcel that we wrote: the
 * one that flattens to the same object, whatever its kind. */
static bc_binder *find_held(const bc_parcel *p, const struct flat_binder_object *obj)
{
	for (size_t i = 0; i < p->n_binders; i++) {
		bc_binder *b = p->binders[i];
		struct flat_binder_object mine;

		if (bc__binder_flatten(b, false, &mine) < 0)
			continue;
		if (mine.hdr.type != strong_type(obj->hdr.type))
			continue;
		if (mine.hdr.type == BINDER_TYPE_HANDLE ? mine.handle == obj->handle
							: mine.binder == obj->binder && mine.cookie == obj->cookie)
			return b;
	}
	return NULL;
}

static int stability_level(uint32_t w)
{
	if (w == BINDERC_STABILITY_UNDECLARED || w == BINDERC_STABILITY_VENDOR || w == BINDERC_STABILITY_SYSTEM ||
	    w == BINDERC_STABILITY_VINTF)
		return (int)w;
	if ((w & 0x00ffffffu) == 1)
		return (int)(w >> 24);
	return (int)w;
}

/* Common part of strong and weak binder reads.  On success the position is
 * past the object (and stability word), obj and stab are filled and is_null
 * tells a null binder. */
static int read_binder_object(bc_parcel *p, bool weak_ok, struct flat_binder_object *obj, int *stab, bool *is_null)
{
	size_t start = p->pos;
	bool listed;
	int r;

	r = peek_object(p, obj, &listed);
	if (r < 0)
		return r;
	switch (obj->hdr.type) {
	case BINDER_TYPE_BINDER:
	case BINDER_TYPE_HANDLE:
		break;
	case BINDER_TYPE_WEAK_BINDER:
	case BINDER_TYPE_WEAK_HANDLE:
		if (!weak_ok)
			return -EBADMSG;
		break;
	default:
		return -EBADMSG;
	}
	*is_null = (obj->hdr.type == BINDER_TYPE_BINDER || obj->hdr.type == BINDER_TYPE_WEAK_BINDER) &&
		   obj->binder == 0 && obj->cookie == 0;
	if (!listed && !*is_null && !is_context_handle(obj))
		return -EBADMSG;
	p->pos += BINDERC_OBJ_SIZE;
	*stab = 0;
	if (p->proto->stability != STABILITY_NONE) {
		uint32_t w;

		r = bc_parcel_read_uint32(p, &w);
		if (r < 0) {
			p->pos = start;
			return r;
		}
		*stab = stability_level(w);
	}
	return 0;
}

static int resolve(bc_parcel *p, const struct flat_binder_object *obj, bool strong, bc_binder **ret)
{
	bool local = obj->hdr.type == BINDER_TYPE_BINDER || obj->hdr.type == BINDER_TYPE_WEAK_BINDER;

	if (!(p->flags & BINDERC_PARCEL_KERNEL)) {
		bc_binder *b = find_held(p, obj);

		if (!b)
			return p->n_binders || local ? -EBADMSG : -ENODEV;
		*ret = b;
		return 1; /* caller takes its own reference */
	}
	if (local)
		return bc__local_from_cookie(p->proc, (uintptr_t)obj->binder, (uintptr_t)obj->cookie, strong, ret);
	/* Handle 0 in the context manager's own process is itself (the
	 * driver gives it no handle 0, and refuses it one). */
	if (obj->handle == 0 && p->proc->ctx_obj) {
		bc_binder *self = p->proc->ctx_obj;

		if (strong && !bc__binder_strong_inc(self))
			return -ESRCH;
		if (!strong)
			bc__binder_weak_inc(self);
		*ret = self;
		return 0;
	}
	return bc__proxy_get(p->proc, obj->handle, strong, ret);
}

int bc_parcel_read_binder(bc_parcel *p, bc_binder **ret)
{
	struct flat_binder_object obj;
	size_t start;
	bc_binder *b = NULL;
	bool is_null;
	int stab, r;

	if (!p)
		return -EINVAL;
	if (p->rpc)
		return bc__rpc_parcel_read_binder(p, ret);
	start = p->pos;
	r = read_binder_object(p, false, &obj, &stab, &is_null);
	if (r < 0)
		return r;
	if (!is_null) {
		r = resolve(p, &obj, true, &b);
		if (r < 0) {
			p->pos = start;
			return r;
		}
		if (r == 1) {
			if (!bc__binder_strong_inc(b)) {
				p->pos = start;
				return -ESRCH;
			}
		}
		if (p->flags & BINDERC_PARCEL_KERNEL)
			bc__binder_set_stability_raw(b, stab);
	}
	if (ret)
		*ret = b;
	else
		bc_binder_unref(b);
	return 0;
}

int bc_parcel_read_weak_binder(bc_parcel *p, bc_weak **ret)
{
	struct flat_binder_object obj;
	size_t start;
	bc_binder *b = NULL;
	bc_weak *w = NULL;
	bool is_null, weak_type;
	int stab, r;

	if (!p)
		return -EINVAL;
	start = p->pos;
	r = read_binder_object(p, true, &obj, &stab, &is_null);
	if (r < 0)
		return r;
	if (!is_null) {
		weak_type = obj.hdr.type == BINDER_TYPE_WEAK_BINDER || obj.hdr.type == BINDER_TYPE_WEAK_HANDLE;
		r = resolve(p, &obj, !weak_type, &b);
		if (r < 0) {
			p->pos = start;
			return r;
		}
		if (r == 1) {
			/* borrowed from the parcel */
			r = bc_weak_new(b, &w);
		} else if (!weak_type) {
			/* a strong reference: turn it into a weak one */
			r = bc_weak_new(b, &w);
			bc_binder_unref(b);
		} else {
			/* resolve() gave us one weak count on b: wrap it */
			r = bc__binder_weak_take(b, &w);
			if (r < 0)
				bc__binder_weak_dec(b);
		}
		if (r < 0) {
			p->pos = start;
			return r;
		}
	}
	if (ret)
		*ret = w;
	else
		bc_weak_unref(w);
	return 0;
}

static int read_fd_object(bc_parcel *p, int *ret)
{
	struct binder_fd_object obj;
	bool listed;
	int r;

	if (!p)
		return -EINVAL;
	if (p->rpc)
		return bc__rpc_parcel_read_fd(p, ret);
	r = peek_object(p, (struct flat_binder_object *)(void *)&obj, &listed);
	if (r < 0)
		return r;
	if (!listed || obj.hdr.type != BINDER_TYPE_FD)
		return -EBADMSG;
	p->pos += BINDERC_OBJ_SIZE;
	*ret = (int)obj.fd;
	return 0;
}

int bc_parcel_read_fd(bc_parcel *p, int *ret)
{
	int fd, r = read_fd_object(p, &fd);

	if (r == 0 && ret)
		*ret = fd;
	return r;
}

int bc_parcel_read_dup_fd(bc_parcel *p, int *ret)
{
	size_t start = p ? p->pos : 0;
	int fd, nfd, r = read_fd_object(p, &fd);

	if (r < 0)
		return r;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (nfd < 0) {
		p->pos = start;
		return -errno;
	}
	if (ret)
		*ret = nfd;
	else
		close(nfd);
	return 0;
}
