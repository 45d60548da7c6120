/* SPDX-License-Identifier: MIT */
/*
 * Parcels of an RPC session: binders in them as session addresses, fds
 * (fd mode UNIX) by index with the message's object table, and a parcel
 * checked and laid out for the wire.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpc_session_internal.h"

/* A new parcel of session @s. */
int bc__rpc_parcel_new(bc_rpc_session *s, bc_parcel **ret)
{
	int r = bc_parcel_new(ret);

	if (r == 0)
		(*ret)->rpc = bc_rpc_session_ref(s);
	return r;
}

static void rpc_fds_free(struct bc_rpc_fds *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++)
		close(x->fds[i]);
	free(x->fds);
	free(x->offs);
	free(x->table);
	free(x->block);
	free(x);
}

/* The data of a received parcel: a copy in a parcel buffer of the
 * thread's cache (one small enough goes back there when the parcel is
 * freed, as a written one's: no allocation in a steady stream of
 * calls), or the command's own buffer *@block that @data lies in, taken
 * (a large command's data is not copied). */
static int received_data(bc_parcel *p, const void *data, size_t size, uint8_t **block)
{
	if (block && *block) {
		free(p->data);
		p->data = (uint8_t *)data;
		p->cap = size;
		return 0;
	}
	if (!p->data || p->cap < size) {
		size_t cap = size < 128 ? 128 : size;

		free(p->data);
		p->cap = 0;
		p->data = malloc(cap);
		if (!p->data)
			return -ENOMEM;
		p->cap = cap;
	}
	if (size)
		memcpy(p->data, data, size);
	return 0;
}

/* A received parcel of session @s, read-only, with the fds that came with
 * the message, which it takes (on an error too), and its object table. */
int bc__rpc_parcel_received(bc_rpc_session *s, const struct bc_rpc_payload *pl, struct rx_fds *rx, uint8_t **block,
			    bc_parcel **ret)
{
	struct bc_rpc_fds *x = NULL;
	bc_parcel *p = NULL;
	bool take = block && *block;
	int r = bc_parcel_new(&p);

	if (r == 0 && (rx->n || pl->n_table || take)) {
		x = calloc(1, sizeof(*x));
		if (x && rx->n)
			x->fds = malloc(rx->n * sizeof(int));
		if (x && pl->n_table)
			x->table = malloc(pl->n_table * sizeof(uint32_t));
		if (!x || (rx->n && !x->fds) || (pl->n_table && !x->table)) {
			rpc_fds_free(x);
			x = NULL;
			r = -ENOMEM;
		} else {
			if (rx->n)
				memcpy(x->fds, rx->fd, rx->n * sizeof(int));
			x->n = rx->n;
			rx->n = 0;
			for (size_t i = 0; i < pl->n_table; i++)
				x->table[i] = bc__get_le32(pl->table + 4 * i);
			x->n_table = pl->n_table;
		}
	}
	if (r == 0)
		r = received_data(p, pl->data, pl->data_size, take ? block : NULL);
	if (r == 0 && take) {
		x->block = *block;
		*block = NULL;
	}
	bc__rpc_rx_close(rx);
	if (r < 0) {
		rpc_fds_free(x);
		bc_parcel_unref(p);
		*ret = NULL;
		return r;
	}
	p->flags |= BINDERC_PARCEL_READONLY;
	p->size = pl->data_size;
	p->rpc = bc_rpc_session_ref(s);
	p->rpc_fds = x;
	*ret = p;
	return 0;
}

void bc__rpc_parcel_release(bc_parcel *p)
{
	if (p->rpc_pins)
		bc__rpc_unpin(p->rpc, p->rpc_pins, p->n_rpc_pins);
	free(p->rpc_pins);
	p->rpc_pins = NULL;
	p->n_rpc_pins = 0;
	free(p->rpc_offs);
	p->rpc_offs = NULL;
	if (p->rpc_fds && p->rpc_fds->block) {
		/* the data lies in the command's buffer, freed here */
		p->data = NULL;
		p->cap = 0;
	}
	rpc_fds_free(p->rpc_fds);
	p->rpc_fds = NULL;
	p->rpc = bc_rpc_session_unref(p->rpc);
	/* A received parcel's buffer is a cached one (received_data()): it
	 * goes back as a written parcel's does, not freed as a copy's. */
	p->flags &= ~BINDERC_PARCEL_READONLY;
}

/* int32 2 (TYPE_NATIVE_FILE_DESCRIPTOR), int32 index; the fd goes with
 * the message (fd mode UNIX, version 1 on).  Without ownership a
 * duplicate is kept, so that the parcel always closes what it holds. */
int bc__rpc_parcel_write_fd(bc_parcel *p, int fd, bool take_ownership)
{
	bc_rpc_session *s = p->rpc;
	struct bc_rpc_fds *x = p->rpc_fds;
	size_t start = p->size;
	int nfd, r;

	/* FDS_NOT_ALLOWED; and version 0 has no table to list them */
	if (s->fd_mode != BC_RPC_FD_MODE_UNIX || s->version < BC_RPC_V1)
		return -EOPNOTSUPP;
	if (!x) {
		x = calloc(1, sizeof(*x));
		if (!x)
			return -ENOMEM;
		p->rpc_fds = x;
	}
	if (x->n == BC_RPC_MAX_FDS || start > UINT32_MAX - 8)
		return -EMSGSIZE;
	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 4;
		int *nf = realloc(x->fds, cap * sizeof(*nf));
		uint32_t *no;

		if (!nf)
			return -ENOMEM;
		x->fds = nf;
		no = realloc(x->offs, cap * sizeof(*no));
		if (!no)
			return -ENOMEM;
		x->offs = no;
		x->cap = cap;
	}
	r = bc_parcel_write_int32(p, 2);
	if (r == 0)
		r = bc_parcel_write_int32(p, (int32_t)x->n);
	if (r < 0) {
		p->size = start;
		return r;
	}
	nfd = take_ownership ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (nfd < 0) {
		p->size = start;
		return -errno;
	}
	x->fds[x->n] = nfd;
	x->offs[x->n++] = (uint32_t)start;
	return 0;
}

/* The fd of a received parcel, owned by it; only at a position the
 * message's object table lists (Parcel::readFileDescriptor). */
int bc__rpc_parcel_read_fd(bc_parcel *p, int *ret)
{
	struct bc_rpc_fds *x = p->rpc_fds;
	size_t start = p->pos;
	int32_t type = 0, idx = -1;
	bool listed = false;
	int r = bc_parcel_read_int32(p, &type);

	if (r == 0)
		r = bc_parcel_read_int32(p, &idx);
	for (size_t i = 0; r == 0 && x && i < x->n_table && !listed; i++)
		listed = x->table[i] == start;
	if (r == 0 && (type != 2 || !listed || idx < 0 || (size_t)idx >= x->n))
		r = -EBADMSG;
	if (r < 0) {
		p->pos = start;
		return r;
	}
	*ret = x->fds[idx];
	return 0;
}

/* int32 1, u64 address, int32 stability; a null binder is int32 0 and a
 * stability of 0 (Parcel::flattenBinder, finishFlattenBinder). */
int bc__rpc_parcel_write_binder(bc_parcel *p, bc_binder *b, bool weak)
{
	bc_rpc_session *s = p->rpc;
	struct bc_rpc_proxy *x = NULL;
	size_t start = p->size;
	uint64_t addr = 0;
	int r;

	if (weak)
		return -EOPNOTSUPP; /* RPC binder has no weak references */
	if (!b) {
		r = bc_parcel_write_int32(p, 0);
		if (r == 0)
			r = bc_parcel_write_int32(p, 0);
		goto out;
	}
	if (b->ops == &bc__rpc_proxy_ops) {
		/* only the session's own proxies: no forwarding (as Android) */
		x = BINDERC_CONTAINER_OF(b, struct bc_rpc_proxy, base);
		if (x->s != s)
			return -EXDEV;
		addr = x->addr;
	} else if (!bc__as_local(b)) {
		return -EXDEV; /* a kernel handle */
	}
	if (start > UINT32_MAX - BC_RPC_BINDER_OBJ_SIZE)
		return -EMSGSIZE;
	if (p->n_binders == p->cap_binders) {
		/* @binders and @rpc_offs grow together */
		size_t cap = p->cap_binders ? p->cap_binders * 2 : 4;
		bc_binder **nb = realloc(p->binders, cap * sizeof(*nb));
		uint32_t *no;

		if (!nb)
			return -ENOMEM;
		p->binders = nb;
		no = realloc(p->rpc_offs, cap * sizeof(*no));
		if (!no)
			return -ENOMEM;
		p->rpc_offs = no;
		p->cap_binders = cap;
	}
	r = bc_parcel_write_int32(p, 1);
	if (r == 0)
		r = bc_parcel_write_uint64(p, addr);
	if (r == 0)
		r = bc_parcel_write_int32(p, bc__binder_wire_stability(b, p->partition));
	/* our object's address is allocated (and counted as sent) last, once
	 * nothing can fail */
	if (r == 0 && !x) {
		r = bc__rpc_binder_leaving(s, b, &addr);
		if (r == 0)
			bc__put_le64(p->data + start + 4, addr);
	}
	if (r == 0) {
		p->rpc_offs[p->n_binders] = (uint32_t)start;
		p->binders[p->n_binders++] = bc_binder_ref(b);
	}
out:
	if (r < 0)
		p->size = start;
	return r;
}

int bc__rpc_parcel_read_binder(bc_parcel *p, bc_binder **ret)
{
	size_t start = p->pos;
	int32_t present = 0, stability = 0;
	uint64_t addr = 0;
	bc_binder *b = NULL;
	int r = bc_parcel_read_int32(p, &present);

	if (r == 0 && present == 1)
		r = bc_parcel_read_uint64(p, &addr);
	if (r == 0)
		r = bc_parcel_read_int32(p, &stability);
	if (r == 0 && present != 0 && present != 1)
		r = -EBADMSG;
	if (r == 0 && present)
		r = bc__rpc_binder_entering(p->rpc, addr, stability, &b);
	if (r < 0) {
		p->pos = start;
		return r;
	}
	if (ret)
		*ret = b;
	else
		bc_binder_unref(b);
	return 0;
}

/* ---- parcels going out ---------------------------------------------------------------- */

/* A parcel for the wire: binders only as addresses of this session, no
 * kernel objects, no fds. */
int bc__rpc_parcel_out(bc_rpc_session *s, bc_parcel *p, struct out_parcel *op)
{
	size_t n_offs = 0;

	memset(op, 0, sizeof(*op));
	if (!p)
		return 0;
	bc_parcel_offsets(p, &n_offs);
	if (n_offs || (p->rpc && p->rpc != s))
		return -EXDEV;
	op->data = bc_parcel_data(p);
	op->size = bc_parcel_size(p);
	if (p->rpc_fds && p->rpc_fds->n) {
		/* no table at version 0 (RpcState::validateParcel) */
		if (s->version < BC_RPC_V1 || s->fd_mode != BC_RPC_FD_MODE_UNIX)
			return -EOPNOTSUPP;
		op->fds = p->rpc_fds->fds;
		op->n_fds = p->rpc_fds->n;
	}
	/* The table: the fds' positions, and from version 2 on the binders'
	 * too, in the order they were written. */
	{
		size_t nb = p->rpc && s->version >= BC_RPC_V2 ? p->n_binders : 0, nf = op->n_fds, i = 0, j = 0;

		if (nb + nf) {
			op->offs = malloc((nb + nf) * sizeof(*op->offs));
			if (!op->offs)
				return -ENOMEM;
		}
		while (i < nb || j < nf) {
			if (j == nf || (i < nb && p->rpc_offs[i] < p->rpc_fds->offs[j]))
				op->offs[op->n_offs++] = p->rpc_offs[i++];
			else
				op->offs[op->n_offs++] = p->rpc_fds->offs[j++];
		}
	}
	if (op->size + 4 * op->n_offs > BC_RPC_MAX_BODY - BC_RPC_TRANSACTION_SIZE)
		return -EMSGSIZE;
	return 0;
}

void bc__rpc_out_done(struct out_parcel *op)
{
	free(op->offs);
	op->offs = NULL;
}

/* Whether the object table fits the fds that came: as many entries as
 * fds at version 1 (fds only), at least as many at 2 (binders too). */
int bc__rpc_check_table(bc_rpc_session *s, const struct bc_rpc_payload *pl, size_t n_fds)
{
	if (s->version == BC_RPC_V1 && pl->n_table != n_fds)
		return -EBADMSG;
	if (pl->n_table < n_fds || (s->version == BC_RPC_V0 && n_fds))
		return -EBADMSG;
	return 0;
}
