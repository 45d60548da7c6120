/* SPDX-License-Identifier: MIT */
/*
 * An RPC binder session: one connection (a connected stream socket), the
 * table of object addresses both sides know, and the command loop that
 * runs whenever a thread owns the connection: a client waiting for a
 * reply executes the TRANSACTs (nested calls) and DEC_STRONGs that come
 * first, as Android's RpcState::waitForReply does; a server thread does
 * the same until the client goes.
 *
 * Any failed read or write, and any protocol violation, ends the whole
 * session (Android does the same: the stream cannot be resynchronised).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_internal.h"

/* The session whose connection this thread owns, for calls made by a
 * handler running inside the command loop (they go on the same
 * connection, nested, as in Android). */
static _Thread_local bc_rpc_session *tl_owned;

int bc__rpc_session_new(int fd, bool is_server, bc_rpc_session **ret)
{
	bc_rpc_session *s = calloc(1, sizeof(*s));

	if (!s) {
		close(fd);
		return -ENOMEM;
	}
	atomic_init(&s->refs, 1);
	s->fd = fd;
	s->is_server = is_server;
	pthread_mutex_init(&s->conn_mu, NULL);
	pthread_mutex_init(&s->mu, NULL);
	atomic_init(&s->dead, false);
	atomic_init(&s->error, 0);
	atomic_init(&s->drained, false);
	*ret = s;
	return 0;
}

bc_rpc_session *bc_rpc_session_ref(bc_rpc_session *s)
{
	if (s)
		atomic_fetch_add(&s->refs, 1);
	return s;
}

/* Give every held object back (the session is over: the peer will not
 * give them back) and forget them, so that an object holding a proxy of
 * its own session does not keep that session for ever. */
static void drop_nodes(bc_rpc_session *s)
{
	for (;;) {
		bc_binder *b = NULL;

		pthread_mutex_lock(&s->mu);
		for (size_t i = 0; i < s->n_nodes && !b; i++) {
			if (s->nodes[i].local && s->nodes[i].sent) {
				b = s->nodes[i].local;
				s->nodes[i].sent = 0;
				s->nodes[i].local = NULL;
			}
		}
		pthread_mutex_unlock(&s->mu);
		if (!b)
			break;
		bc_binder_unref(b);
	}
}

bc_rpc_session *bc_rpc_session_unref(bc_rpc_session *s)
{
	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return NULL;
	/* No proxy is left (each holds a reference). */
	drop_nodes(s);
	close(s->fd);
	bc_binder_unref(s->root);
	free(s->nodes);
	free(s->pending);
	pthread_mutex_destroy(&s->conn_mu);
	pthread_mutex_destroy(&s->mu);
	free(s);
	return NULL;
}

uint32_t bc_rpc_session_get_version(const bc_rpc_session *s)
{
	return s ? s->version : 0;
}

int bc_rpc_session_get_error(const bc_rpc_session *s)
{
	return s ? atomic_load(&s->error) : -EINVAL;
}

void bc__rpc_fail(bc_rpc_session *s, int err)
{
	int none = 0;

	atomic_compare_exchange_strong(&s->error, &none, err);
	if (!atomic_exchange(&s->dead, true)) {
		if (err != -EPIPE && err != -ESHUTDOWN)
			/* a peer's status may be any int32: no strerror() */
			bc__log("rpc session ended: %d", err);
		/* wakes a thread blocked on the socket; the fd stays ours */
		shutdown(s->fd, SHUT_RDWR);
	}
}

void bc_rpc_session_shutdown(bc_rpc_session *s)
{
	if (!s)
		return;
	bc__rpc_fail(s, -ESHUTDOWN);
	drop_nodes(s);
}

/* ---- the socket ------------------------------------------------------------ */

int bc__rpc_send(bc_rpc_session *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(s->fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int bc__rpc_recv(bc_rpc_session *s, void *buf, size_t len, bool boundary)
{
	uint8_t *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(s->fd, p + got, len - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		if (n == 0)
			/* inside a structure, the stream was cut */
			return got == 0 && boundary ? -EPIPE : -EPROTO;
		got += (size_t)n;
	}
	return 0;
}

/* What follows a command's fixed part: parcel data, and at version 2 the
 * object table listing its binders. */
struct out_parcel {
	const void *data;
	size_t size;
	const uint32_t *offs;
	size_t n_offs;
};

/* One command: header, fixed part, parcel data, object table. */
static int send_cmd(bc_rpc_session *s, uint32_t cmd, const void *fixed, size_t flen, const struct out_parcel *op)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE];
	size_t dlen = op ? op->size : 0, n = op ? op->n_offs : 0;
	int r;

	bc__rpc_wire_header_encode(cmd, (uint32_t)(flen + dlen + 4 * n), hdr);
	r = bc__rpc_send(s, hdr, sizeof(hdr));
	if (r == 0)
		r = bc__rpc_send(s, fixed, flen);
	if (r == 0 && dlen)
		r = bc__rpc_send(s, op->data, dlen);
	for (size_t i = 0; r == 0 && i < n; i++) {
		uint8_t w[4];

		bc__put_le32(w, op->offs[i]);
		r = bc__rpc_send(s, w, sizeof(w));
	}
	return r;
}

/* The next command; *@body is the caller's to free.  @boundary: an end
 * of stream before it is a clean end. */
static int read_cmd(bc_rpc_session *s, struct bc_rpc_wire_header *h, uint8_t **body)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE];
	int r = bc__rpc_recv(s, hdr, sizeof(hdr), true);

	*body = NULL;
	if (r < 0)
		return r;
	r = bc__rpc_wire_header_decode(hdr, h);
	if (r < 0)
		return r;
	/* one byte more, so that an empty body has a buffer too */
	*body = malloc(h->body_size + 1u);
	if (!*body)
		return -ENOMEM;
	r = bc__rpc_recv(s, *body, h->body_size, false);
	if (r < 0) {
		free(*body);
		*body = NULL;
	}
	return r;
}

/* ---- the object table (mu held) ------------------------------------------ */

static struct rpc_node *node_of_addr_locked(bc_rpc_session *s, uint64_t addr)
{
	for (size_t i = 0; i < s->n_nodes; i++)
		if (s->nodes[i].addr == addr)
			return &s->nodes[i];
	return NULL;
}

static struct rpc_node *node_of_local_locked(bc_rpc_session *s, bc_binder *b)
{
	for (size_t i = 0; i < s->n_nodes; i++)
		if (s->nodes[i].local == b)
			return &s->nodes[i];
	return NULL;
}

/* A node with neither an object held nor a proxy is forgotten
 * (RpcState::tryEraseNode). */
static void node_gc_locked(bc_rpc_session *s, struct rpc_node *n)
{
	if (n->local || n->proxy)
		return;
	*n = s->nodes[--s->n_nodes];
}

static struct rpc_node *node_add_locked(bc_rpc_session *s, uint64_t addr)
{
	struct rpc_node *n;

	if (s->n_nodes == s->cap_nodes)
		return NULL;
	n = &s->nodes[s->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->addr = addr;
	return n;
}

/* Room for one more node, made unlocked (no allocation under mu). */
static int reserve_node(bc_rpc_session *s)
{
	size_t cap;
	void *nb;

	pthread_mutex_lock(&s->mu);
	cap = s->n_nodes < s->cap_nodes ? 0 : (s->cap_nodes ? s->cap_nodes * 2 : 4);
	pthread_mutex_unlock(&s->mu);
	if (!cap)
		return 0;
	nb = malloc(cap * sizeof(*s->nodes));
	if (!nb)
		return -ENOMEM;
	pthread_mutex_lock(&s->mu);
	if (cap > s->cap_nodes) {
		if (s->n_nodes)
			memcpy(nb, s->nodes, s->n_nodes * sizeof(*s->nodes));
		free(s->nodes); /* a free of our own buffer: cheap and bounded */
		s->nodes = nb;
		s->cap_nodes = cap;
		nb = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	free(nb);
	return 0;
}

/* The address of our object @b, allocated the first time it goes out
 * (RpcState::onBinderLeaving); one more reference sent. */
static int binder_leaving(bc_rpc_session *s, bc_binder *b, uint64_t *ret)
{
	struct rpc_node *n;
	bool first = false;
	int r;

retry:
	r = reserve_node(s);
	if (r < 0)
		return r;
	pthread_mutex_lock(&s->mu);
	n = node_of_local_locked(s, b);
	if (!n && s->n_nodes == s->cap_nodes) {
		/* another thread took the room made */
		pthread_mutex_unlock(&s->mu);
		goto retry;
	}
	if (!n) {
		uint32_t opts = BC_RPC_ADDR_CREATED | (s->is_server ? BC_RPC_ADDR_FOR_SERVER : 0);
		uint64_t a;

		/* the next id not in use (the table is far below 2^32) */
		do
			a = bc__rpc_addr(opts, s->next_id++);
		while (node_of_addr_locked(s, a));
		n = node_add_locked(s, a);
		n->local = b;
	}
	first = n->sent++ == 0;
	*ret = n->addr;
	pthread_mutex_unlock(&s->mu);
	if (first)
		bc_binder_ref(b); /* held while the peer holds it */
	return 0;
}

/* The object the peer names by @addr (RpcState::onBinderEntering): ours
 * (given back at once), or the proxy of a peer's. */
static int binder_entering(bc_rpc_session *s, uint64_t addr, int stability, bc_binder **ret)
{
	struct bc_rpc_proxy *fresh;
	struct rpc_node *n;
	bc_binder *b = NULL;
	int r = bc__rpc_addr_check(addr);

	if (r < 0)
		return r;
	if (stability != BINDERC_STABILITY_VENDOR && stability != BINDERC_STABILITY_SYSTEM &&
	    stability != BINDERC_STABILITY_VINTF)
		return -EBADMSG;
	fresh = calloc(1, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
retry:
	r = reserve_node(s);
	if (r < 0) {
		free(fresh);
		return r;
	}
	pthread_mutex_lock(&s->mu);
	n = node_of_addr_locked(s, addr);
	if (!n && s->n_nodes == s->cap_nodes) {
		/* another thread took the room made */
		pthread_mutex_unlock(&s->mu);
		goto retry;
	}
	if (n && n->local) {
		b = n->local;
	} else if (n && n->proxy && bc__inc_not_zero(&n->proxy->base.strong)) {
		n->proxy->recd++;
		b = &n->proxy->base;
	} else if (!n && !!(bc__rpc_addr_options(addr) & BC_RPC_ADDR_FOR_SERVER) == s->is_server) {
		/* an address we would have allocated, but never did */
		r = -EBADMSG;
	} else {
		if (!n)
			n = node_add_locked(s, addr);
		/* else: the old proxy is on its way out; it gives back its own */
		fresh->base.ops = &bc__rpc_proxy_ops;
		atomic_init(&fresh->base.strong, 1);
		atomic_init(&fresh->base.weak, 1);
		atomic_init(&fresh->base.proc, NULL);
		fresh->base.stability = stability;
		fresh->s = bc_rpc_session_ref(s);
		fresh->addr = addr;
		fresh->recd = 1;
		n->proxy = fresh;
		b = &fresh->base;
		fresh = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	free(fresh);
	if (r < 0)
		return r;
	if (bc__as_local(b)) {
		/* ours came back: a strong reference for the caller, and the
		 * peer's sent reference returned right away */
		if (!bc__binder_strong_inc(b))
			return -EBADMSG;
		bc__rpc_queue_dec(s, addr, 1);
	}
	*ret = b;
	return 0;
}

void bc__rpc_forget_proxy(bc_rpc_session *s, struct bc_rpc_proxy *x)
{
	struct rpc_node *n;

	pthread_mutex_lock(&s->mu);
	n = node_of_addr_locked(s, x->addr);
	if (n && n->proxy == x) {
		n->proxy = NULL;
		node_gc_locked(s, n);
	}
	pthread_mutex_unlock(&s->mu);
}

/* ---- binders inside parcels ------------------------------------------------ */

/* A new parcel of session @s. */
static int rpc_parcel_new(bc_rpc_session *s, bc_parcel **ret)
{
	int r = bc_parcel_new(ret);

	if (r == 0)
		(*ret)->rpc = bc_rpc_session_ref(s);
	return r;
}

/* A received parcel of session @s (a copy of the body's bytes). */
static int rpc_parcel_received(bc_rpc_session *s, const struct bc_rpc_payload *pl, bc_parcel **ret)
{
	int r = bc_parcel_new_from_data(pl->data, pl->data_size, NULL, 0, ret);

	if (r == 0)
		(*ret)->rpc = bc_rpc_session_ref(s);
	return r;
}

void bc__rpc_parcel_release(bc_parcel *p)
{
	free(p->rpc_offs);
	p->rpc_offs = NULL;
	p->rpc = bc_rpc_session_unref(p->rpc);
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
		r = binder_leaving(s, b, &addr);
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
		r = binder_entering(p->rpc, addr, stability, &b);
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

/* ---- DEC_STRONG ------------------------------------------------------------ */

/* Send the DEC_STRONGs waiting (the caller owns the connection). */
static int flush_decs(bc_rpc_session *s)
{
	for (;;) {
		struct rpc_dec d;
		uint8_t body[BC_RPC_DEC_STRONG_SIZE];
		int r;

		pthread_mutex_lock(&s->mu);
		if (!s->n_pending) {
			pthread_mutex_unlock(&s->mu);
			return 0;
		}
		d = s->pending[--s->n_pending];
		pthread_mutex_unlock(&s->mu);
		bc__rpc_dec_strong_encode(d.addr, d.amount, body);
		r = send_cmd(s, BC_RPC_CMD_DEC_STRONG, body, sizeof(body), NULL);
		if (r < 0)
			return r;
	}
}

/* Flush from a thread that does not own the connection, if it is free:
 * the owner flushes before it lets go otherwise. */
static void try_flush(bc_rpc_session *s)
{
	if (tl_owned == s || atomic_load(&s->dead))
		return;
	while (pthread_mutex_trylock(&s->conn_mu) == 0) {
		int r;

		tl_owned = s;
		r = flush_decs(s);
		tl_owned = NULL;
		pthread_mutex_unlock(&s->conn_mu);
		if (r < 0)
			bc__rpc_fail(s, r);
		pthread_mutex_lock(&s->mu);
		r = s->n_pending != 0;
		pthread_mutex_unlock(&s->mu);
		if (!r || atomic_load(&s->dead))
			break;
	}
}

void bc__rpc_queue_dec(bc_rpc_session *s, uint64_t addr, uint32_t amount)
{
	struct rpc_dec *np = NULL;
	size_t np_cap = 0, want = 0;
	bool done = false;

	if (atomic_load(&s->dead) || !amount)
		return;
	while (!done) {
		pthread_mutex_lock(&s->mu);
		if (s->n_pending == s->cap_pending && np && np_cap > s->cap_pending) {
			/* the buffer made unlocked, if nobody grew it meanwhile */
			if (s->n_pending)
				memcpy(np, s->pending, s->n_pending * sizeof(*np));
			free(s->pending);
			s->pending = np;
			s->cap_pending = np_cap;
			np = NULL;
		}
		if (s->n_pending < s->cap_pending) {
			s->pending[s->n_pending++] = (struct rpc_dec){ addr, amount };
			done = true;
		} else {
			want = s->cap_pending ? s->cap_pending * 2 : 4;
		}
		pthread_mutex_unlock(&s->mu);
		if (!done) {
			free(np);
			np_cap = want;
			np = malloc(np_cap * sizeof(*np));
			if (!np)
				return; /* the peer keeps a reference: a leak, not an error */
		}
	}
	free(np);
	try_flush(s);
}

static int process_dec_strong(bc_rpc_session *s, const uint8_t *body, size_t len)
{
	bc_binder *drop = NULL;
	struct rpc_node *n;
	uint64_t addr;
	uint32_t amount;
	int r = bc__rpc_dec_strong_decode(body, len, &addr, &amount);

	if (r < 0)
		return r;
	pthread_mutex_lock(&s->mu);
	n = node_of_addr_locked(s, addr);
	/* Unknown addresses and amounts above what was sent are ignored, as
	 * in Android; for a proxy's address (a call's target given back) we
	 * count nothing, so there is nothing to lower. */
	if (n && n->local && amount <= n->sent) {
		n->sent -= amount;
		if (!n->sent) {
			drop = n->local;
			n->local = NULL;
			node_gc_locked(s, n);
		}
	}
	/* A server whose peer holds nothing more ends the session. */
	if (s->is_server && s->n_nodes == 0)
		atomic_store(&s->drained, true);
	pthread_mutex_unlock(&s->mu);
	bc_binder_unref(drop);
	return 0;
}

/* ---- TRANSACT ---------------------------------------------------------------- */

/* A parcel for the wire: binders only as addresses of this session, no
 * kernel objects, no fds. */
static int parcel_out(bc_rpc_session *s, bc_parcel *p, struct out_parcel *op)
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
	/* From version 2 on, the table lists where the binders are. */
	if (p->rpc && s->version >= BC_RPC_V2) {
		op->offs = p->rpc_offs;
		op->n_offs = p->n_binders;
	}
	if (op->size + 4 * op->n_offs > BC_RPC_MAX_BODY - BC_RPC_TRANSACTION_SIZE)
		return -EMSGSIZE;
	return 0;
}

static int send_reply(bc_rpc_session *s, int32_t status, bc_parcel *reply)
{
	uint8_t fixed[BC_RPC_REPLY_SIZE];
	struct out_parcel op;

	/* as libbinder does when its reply fails validation */
	if (status == 0 && parcel_out(s, reply, &op) < 0)
		status = -EINVAL;
	if (status != 0)
		memset(&op, 0, sizeof(op));
	bc__rpc_reply_encode(status, (uint32_t)op.size, s->version, fixed);
	return send_cmd(s, BC_RPC_CMD_REPLY, fixed, bc__rpc_reply_size(s->version), &op);
}

/* A special transaction (address 0); the reply's status. */
static int32_t special(bc_rpc_session *s, uint32_t code, bc_parcel *reply)
{
	switch (code) {
	case BC_RPC_SPECIAL_GET_ROOT:
		/* a client session has no root: status 0, empty parcel */
		return s->is_server ? bc_parcel_write_binder(reply, s->root) : 0;
	case BC_RPC_SPECIAL_GET_MAX_THREADS:
		/* one connection per session; a client offers no incoming one */
		return bc_parcel_write_int32(reply, s->is_server ? 1 : 0);
	case BC_RPC_SPECIAL_GET_SESSION_ID:
		return bc_parcel_write_byte_array(reply, s->id, sizeof(s->id));
	default:
		return s->is_server ? -EBADMSG /* UNKNOWN_TRANSACTION */ : 0;
	}
}

/* Run a call on our object at @t->address: its status (the handler's);
 * *@fatal for a violation that ends the session. */
static int32_t call_local(bc_rpc_session *s, const struct bc_rpc_transaction *t, const struct bc_rpc_payload *pl,
			  bc_parcel **ret_reply, int *fatal)
{
	bool oneway = t->flags & BC_RPC_FLAG_ONEWAY;
	bc_binder *b = NULL;
	struct rpc_node *n;
	bc_parcel *in = NULL;
	bc_txn *txn = NULL;
	int r = 0;

	pthread_mutex_lock(&s->mu);
	n = node_of_addr_locked(s, t->address);
	if (!n || !n->local) {
		/* a proxy's address, or an object that is gone: Android ends
		 * the session too */
		r = -EBADMSG;
	} else if (oneway && t->async_number != n->async_next) {
		/* one connection: oneway calls arrive in order or not at all */
		r = -EBADMSG;
	} else {
		if (oneway)
			n->async_next++;
		b = n->local;
		if (!bc__binder_strong_inc(b))
			b = NULL;
	}
	pthread_mutex_unlock(&s->mu);
	if (r < 0) {
		*fatal = r;
		return -EINVAL; /* BAD_VALUE */
	}
	if (!b)
		return -EPIPE; /* DEAD_OBJECT */
	r = rpc_parcel_received(s, pl, &in);
	if (r == 0)
		r = bc__txn_new(NULL, t->code, t->flags & BC_RPC_FLAG_ONEWAY, 0, 0, NULL, &txn);
	if (r == 0) {
		txn->reply->rpc = bc_rpc_session_ref(s);
		r = bc__local_dispatch(b, txn, t->code, in, txn->reply);
		if (r == BINDERC_TXN_DEFERRED)
			r = bc__txn_wait(txn);
		if (r == 0)
			*ret_reply = bc_parcel_ref(txn->reply);
	}
	bc_txn_unref(txn);
	bc_parcel_unref(in);
	bc_binder_unref(b);
	/* The target's reference that came with the call goes back at once,
	 * before the reply (RpcState::flushExcessBinderRefs). */
	bc__rpc_queue_dec(s, t->address, 1);
	return r;
}

static int process_transact(bc_rpc_session *s, const uint8_t *body, size_t len)
{
	struct bc_rpc_transaction t;
	struct bc_rpc_payload pl;
	bc_parcel *reply = NULL;
	int32_t status;
	int fatal = 0, r;

	r = bc__rpc_transaction_decode(body, len, s->version, &t, &pl);
	if (r < 0)
		return r;
	if (t.address == 0) {
		r = rpc_parcel_new(s, &reply);
		if (r < 0)
			return r;
		status = special(s, t.code, reply);
	} else {
		status = call_local(s, &t, &pl, &reply, &fatal);
	}
	r = flush_decs(s);
	if (r == 0 && !(t.flags & BC_RPC_FLAG_ONEWAY))
		r = send_reply(s, status, reply);
	bc_parcel_unref(reply);
	return fatal ? fatal : r;
}

/* ---- the command loop ------------------------------------------------------- */

/* Execute commands until a REPLY (@reply_body set; the caller frees it)
 * or, when @reply_body is NULL (a server), until the peer goes. */
static int run(bc_rpc_session *s, uint8_t **reply_body, size_t *reply_len)
{
	for (;;) {
		struct bc_rpc_wire_header h;
		uint8_t *body;
		int r;

		if (atomic_load(&s->drained) && !reply_body)
			return 0;
		r = read_cmd(s, &h, &body);
		if (r == -EPIPE && !reply_body)
			return 0; /* the client closed between messages */
		if (r < 0)
			return r;
		switch (h.command) {
		case BC_RPC_CMD_TRANSACT:
			r = process_transact(s, body, h.body_size);
			break;
		case BC_RPC_CMD_DEC_STRONG:
			r = process_dec_strong(s, body, h.body_size);
			break;
		default: /* BC_RPC_CMD_REPLY */
			if (!reply_body) {
				r = -EBADMSG; /* nothing was asked */
				break;
			}
			*reply_body = body;
			*reply_len = h.body_size;
			return 0;
		}
		free(body);
		if (r < 0)
			return r;
	}
}

int bc__rpc_serve(bc_rpc_session *s)
{
	int r;

	tl_owned = s;
	r = run(s, NULL, NULL);
	tl_owned = NULL;
	bc__rpc_fail(s, r < 0 ? r : -EPIPE);
	drop_nodes(s);
	/* What ended the session first: a nested call's broken reply, say,
	 * rather than the failed write of the reply that followed. */
	return r < 0 ? atomic_load(&s->error) : 0;
}

/* Send one call and wait for its reply (the caller owns the connection). */
static int call(bc_rpc_session *s, uint64_t addr, uint32_t code, const struct out_parcel *op, uint32_t flags,
		bc_parcel **ret_reply, int *ret_origin)
{
	struct bc_rpc_transaction t = { .address = addr, .code = code, .flags = flags, .data_size = (uint32_t)op->size };
	uint8_t fixed[BC_RPC_TRANSACTION_SIZE];
	struct bc_rpc_payload pl;
	uint8_t *body = NULL;
	size_t len = 0;
	int32_t status;
	int r;

	if (addr && (flags & BC_RPC_FLAG_ONEWAY)) {
		struct rpc_node *n;

		pthread_mutex_lock(&s->mu);
		n = node_of_addr_locked(s, addr);
		if (n)
			t.async_number = n->async_next++;
		pthread_mutex_unlock(&s->mu);
	}
	bc__rpc_transaction_encode(&t, fixed);
	r = flush_decs(s);
	if (r == 0)
		r = send_cmd(s, BC_RPC_CMD_TRANSACT, fixed, sizeof(fixed), op);
	if (r == 0 && !(flags & BC_RPC_FLAG_ONEWAY))
		r = run(s, &body, &len);
	if (r == 0 && body)
		r = bc__rpc_reply_decode(body, len, s->version, &status, &pl);
	if (r < 0) {
		free(body);
		bc__rpc_fail(s, r);
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		return r;
	}
	if (body && status != 0) {
		*ret_origin = BINDERC_ERROR_REMOTE;
		r = status < 0 ? status : -EBADMSG;
	} else if (body && ret_reply) {
		r = rpc_parcel_received(s, &pl, ret_reply);
	}
	free(body);
	return r;
}

int bc__rpc_transact(bc_rpc_session *s, uint64_t addr, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		     uint32_t flags, int *ret_origin)
{
	bool nested = tl_owned == s;
	struct out_parcel op;
	int r = parcel_out(s, data, &op);

	if (r < 0)
		return r;
	if (atomic_load(&s->dead)) {
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		return -EPIPE;
	}
	if (!nested) {
		/* A server's one connection is read by its serving thread:
		 * only that thread's handlers may call the client. */
		if (s->is_server)
			return -EWOULDBLOCK;
		pthread_mutex_lock(&s->conn_mu);
		tl_owned = s;
	}
	if (atomic_load(&s->dead)) {
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		r = -EPIPE;
	} else {
		r = call(s, addr, code, &op, flags & BINDERC_FLAG_ONEWAY ? BC_RPC_FLAG_ONEWAY : 0, ret_reply, ret_origin);
	}
	if (!nested) {
		int f = atomic_load(&s->dead) ? 0 : flush_decs(s);

		if (f < 0)
			bc__rpc_fail(s, f);
		tl_owned = NULL;
		pthread_mutex_unlock(&s->conn_mu);
		if (atomic_load(&s->dead))
			drop_nodes(s);
		else
			try_flush(s);
	}
	return r;
}

/* ---- the client's calls -------------------------------------------------------- */

int bc_rpc_session_get_root(bc_rpc_session *s, bc_binder **ret)
{
	bc_parcel *reply = NULL;
	int origin = BINDERC_ERROR_LOCAL;
	int r;

	if (!s || !ret)
		return -EINVAL;
	*ret = NULL;
	r = bc__rpc_transact(s, 0, BC_RPC_SPECIAL_GET_ROOT, NULL, &reply, 0, &origin);
	/* a client session answers GET_ROOT with an empty parcel */
	if (r == 0 && bc_parcel_remaining(reply))
		r = bc_parcel_read_binder(reply, ret);
	/* a root the session cannot take: the server is not to be trusted */
	if (r == -EBADMSG)
		bc__rpc_fail(s, r);
	bc_parcel_unref(reply);
	return r;
}

/* A special call during set-up, its reply in *@ret. */
static int setup_call(bc_rpc_session *s, uint32_t code, bc_parcel **ret)
{
	int origin = BINDERC_ERROR_LOCAL;

	return bc__rpc_transact(s, 0, code, NULL, ret, 0, &origin);
}

int bc_rpc_session_connect_fd(int fd, uint32_t max_version, bc_rpc_session **ret)
{
	struct bc_rpc_conn_header h = { .version = max_version, .fd_mode = BC_RPC_FD_MODE_NONE };
	uint8_t out[BC_RPC_CONN_HEADER_SIZE + BC_RPC_CONN_INIT_SIZE], resp[BC_RPC_NEW_SESSION_RESPONSE_SIZE];
	bc_parcel *reply = NULL;
	bc_rpc_session *s;
	const void *id = NULL;
	size_t id_len = 0;
	int32_t threads;
	int r;

	if (fd < 0 || !ret || max_version > BC_RPC_V_MAX) {
		if (fd >= 0)
			close(fd);
		return -EINVAL;
	}
	r = bc__rpc_session_new(fd, false, &s);
	if (r < 0)
		return r;
	/* header and "cci" first, the answer after (as Android's client) */
	bc__rpc_conn_header_encode(&h, out);
	bc__rpc_conn_init_encode(out + BC_RPC_CONN_HEADER_SIZE);
	r = bc__rpc_send(s, out, sizeof(out));
	if (r == 0)
		r = bc__rpc_recv(s, resp, sizeof(resp), false);
	if (r == -EPROTO)
		r = -EPIPE; /* nothing came back */
	if (r == 0) {
		bc__rpc_new_session_response_decode(resp, &s->version);
		if (!bc__rpc_client_accepts(max_version, s->version))
			r = -EPROTONOSUPPORT;
	}
	/* what Android's client asks next; a session uses one connection,
	 * so the thread count is only checked */
	if (r == 0)
		r = setup_call(s, BC_RPC_SPECIAL_GET_MAX_THREADS, &reply);
	if (r == 0)
		r = bc_parcel_read_int32(reply, &threads);
	reply = bc_parcel_unref(reply);
	if (r == 0)
		r = setup_call(s, BC_RPC_SPECIAL_GET_SESSION_ID, &reply);
	if (r == 0)
		r = bc_parcel_read_byte_array(reply, &id, &id_len);
	if (r == 0 && id_len != BC_RPC_SESSION_ID_SIZE)
		r = -EBADMSG;
	if (r == 0)
		memcpy(s->id, id, id_len);
	bc_parcel_unref(reply);
	if (r < 0) {
		bc__rpc_fail(s, r);
		bc_rpc_session_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}
