/* SPDX-License-Identifier: MIT */
/*
 * An RPC binder session: its connections (rpc_conn.c), the table of
 * object addresses both sides know, and the command loop that runs
 * whenever a thread holds a connection: a caller waiting for a reply
 * executes the TRANSACTs (nested calls) and DEC_STRONGs that come first,
 * as Android's RpcState::waitForReply does; a thread serving a
 * connection does the same until the session ends.
 *
 * Any failed read or write, and any protocol violation, ends the whole
 * session (Android does the same: the stream cannot be resynchronised).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_internal.h"

int bc__rpc_session_new(bool is_server, bc_rpc_session **ret)
{
	bc_rpc_session *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	atomic_init(&s->refs, 1);
	atomic_init(&s->n_conns, 0);
	atomic_init(&s->next_call, 0);
	atomic_init(&s->conn_waiters, 0);
	s->is_server = is_server;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->conn_cv, NULL);
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
void bc__rpc_drop_nodes(bc_rpc_session *s)
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

static void async_free(struct rpc_async *a)
{
	for (size_t i = 0; i < a->n_fds; i++)
		close(a->fds[i]);
	free(a->fds);
	free(a->body);
}

bool bc__rpc_session_put(bc_rpc_session *s)
{
	size_t n;

	if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
		return false;
	/* No proxy is left (each holds a reference), and no thread of ours
	 * is running a command (each holds one meanwhile). */
	bc__rpc_watcher_stop(s);
	n = atomic_load(&s->n_conns);
	if (!atomic_load(&s->dead))
		bc__rpc_fail(s, -ESHUTDOWN); /* wakes the readers */
	for (size_t i = 0; i < n; i++) {
		struct rpc_conn *c = s->conns[i];

		if (!c->has_reader)
			continue;
		/* a reader dropping the last reference returns at once */
		if (pthread_equal(pthread_self(), c->reader))
			pthread_detach(c->reader);
		else
			pthread_join(c->reader, NULL);
	}
	bc__rpc_drop_nodes(s);
	for (size_t i = 0; i < n; i++)
		bc__rpc_conn_free(s->conns[i]);
	for (size_t i = 0; i < s->n_async; i++)
		async_free(&s->async_q[i]);
	free(s->async_q);
	bc_binder_unref(s->root);
	free(s->nodes);
	free(s->pending);
	pthread_cond_destroy(&s->conn_cv);
	pthread_mutex_destroy(&s->mu);
	free(s);
	return true;
}

bc_rpc_session *bc_rpc_session_unref(bc_rpc_session *s)
{
	bc__rpc_session_put(s);
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
		size_t n = atomic_load_explicit(&s->n_conns, memory_order_acquire);

		/* wakes the threads blocked on the sockets; the fds stay ours
		 * (a connection added later sees dead and shuts itself) */
		for (size_t i = 0; i < n; i++)
			shutdown(s->conns[i]->fd, SHUT_RDWR);
	}
}

void bc__rpc_ended(bc_rpc_session *s)
{
	bc__rpc_drop_nodes(s);
	bc__rpc_send_obituaries(s);
}

void bc_rpc_session_shutdown(bc_rpc_session *s)
{
	if (!s)
		return;
	bc__rpc_fail(s, -ESHUTDOWN);
	bc__rpc_ended(s);
}

/* ---- messages ------------------------------------------------------------ */

/* What follows a command's fixed part: parcel data, and at version 2 the
 * object table listing its binders. */
struct out_parcel {
	const void *data;
	size_t size;
	uint32_t *offs; /* the object table (allocated) */
	size_t n_offs;
	const int *fds;
	size_t n_fds;
};

/* Bytes with fds (SCM_RIGHTS) on the first sendmsg(), the rest after. */
static int send_fds(struct rpc_conn *cn, const void *buf, size_t len, const int *fds, size_t n_fds)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int) * BC_RPC_MAX_FDS)];
	} ctl;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	memset(&ctl, 0, sizeof(ctl));
	msg.msg_control = ctl.buf;
	msg.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n_fds);
	for (;;) {
		n = sendmsg(cn->fd, &msg, MSG_NOSIGNAL | (bc__rpc_drains(cn) ? MSG_DONTWAIT : 0));
		if (n >= 0)
			break;
		if (errno == EINTR)
			continue;
		if (bc__rpc_drains(cn) && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int r = bc__rpc_send_blocked(cn);

			if (r < 0)
				return r;
			continue;
		}
		return errno == ECONNRESET ? -EPIPE : -errno;
	}
	return bc__rpc_send(cn, (const uint8_t *)buf + n, len - (size_t)n);
}

/* One command: header, fixed part, parcel data, object table. */
static int send_cmd(struct rpc_conn *cn, uint32_t cmd, const void *fixed, size_t flen, const struct out_parcel *op)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE];
	size_t dlen = op ? op->size : 0, n = op ? op->n_offs : 0;
	int r;

	bc__rpc_wire_header_encode(cmd, (uint32_t)(flen + dlen + 4 * n), hdr);
	if (op && op->n_fds)
		r = send_fds(cn, hdr, sizeof(hdr), op->fds, op->n_fds);
	else
		r = bc__rpc_send(cn, hdr, sizeof(hdr));
	if (r == 0)
		r = bc__rpc_send(cn, fixed, flen);
	if (r == 0 && dlen)
		r = bc__rpc_send(cn, op->data, dlen);
	for (size_t i = 0; r == 0 && i < n; i++) {
		uint8_t w[4];

		bc__put_le32(w, op->offs[i]);
		r = bc__rpc_send(cn, w, sizeof(w));
	}
	return r;
}

/* The fds that came with a message's header (fd mode UNIX). */
struct rx_fds {
	int fd[BC_RPC_MAX_FDS];
	size_t n;
};

static void rx_close(struct rx_fds *rx)
{
	while (rx->n)
		close(rx->fd[--rx->n]);
}

/* A command header, and the fds sent with its bytes (RpcState reads fds
 * only there).  An end of stream before it is -EPIPE, inside it -EPROTO. */
static int recv_header(bc_rpc_session *s, struct rpc_conn *cn, uint8_t *hdr, struct rx_fds *rx)
{
	size_t got = 0;

	rx->n = 0;
	while (got < BC_RPC_WIRE_HEADER_SIZE) {
		union {
			struct cmsghdr align;
			char buf[CMSG_SPACE(sizeof(int) * BC_RPC_MAX_FDS)];
		} ctl;
		struct iovec iov = { .iov_base = hdr + got, .iov_len = BC_RPC_WIRE_HEADER_SIZE - got };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
				      .msg_controllen = sizeof(ctl.buf) };
		ssize_t n = recvmsg(cn->fd, &msg, MSG_CMSG_CLOEXEC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			size_t k;

			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (size_t i = 0; i < k; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
				if (rx->n < BC_RPC_MAX_FDS)
					rx->fd[rx->n++] = fd;
				else
					close(fd);
			}
		}
		if (msg.msg_flags & MSG_CTRUNC)
			return -EBADMSG; /* fds were lost: the message cannot be used */
		if (n == 0)
			return got == 0 ? -EPIPE : -EPROTO;
		got += (size_t)n;
	}
	/* fds without fd transport are a violation (Android's fd-less
	 * sessions never read them) */
	if (rx->n && s->fd_mode != BC_RPC_FD_MODE_UNIX)
		return -EBADMSG;
	return 0;
}

/* The next command; *@body is the caller's to free, the fds in @rx the
 * caller's to take or close (closed here on an error). */
static int read_cmd(bc_rpc_session *s, struct rpc_conn *cn, struct bc_rpc_wire_header *h, uint8_t **body,
		    struct rx_fds *rx)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE];
	int r = recv_header(s, cn, hdr, rx);

	*body = NULL;
	if (r == 0 && rx->n && bc__get_le32(hdr) == BC_RPC_CMD_DEC_STRONG)
		r = -EBADMSG;
	if (r < 0) {
		rx_close(rx);
		return r;
	}
	r = bc__rpc_wire_header_decode(hdr, h);
	/* one byte more, so that an empty body has a buffer too */
	if (r == 0 && !(*body = malloc(h->body_size + 1u)))
		r = -ENOMEM;
	if (r == 0)
		r = bc__rpc_recv(cn, *body, h->body_size, false);
	if (r < 0) {
		free(*body);
		*body = NULL;
		rx_close(rx);
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
static void rpc_fds_free(struct bc_rpc_fds *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++)
		close(x->fds[i]);
	free(x->fds);
	free(x->offs);
	free(x->table);
	free(x);
}

/* ... with the fds that came with the message, which it takes (on an
 * error too), and its object table. */
static int rpc_parcel_received(bc_rpc_session *s, const struct bc_rpc_payload *pl, struct rx_fds *rx, bc_parcel **ret)
{
	struct bc_rpc_fds *x = NULL;
	int r = bc_parcel_new_from_data(pl->data, pl->data_size, NULL, 0, ret);

	if (r == 0 && (rx->n || pl->n_table)) {
		x = calloc(1, sizeof(*x));
		if (x) {
			x->fds = malloc((rx->n ? rx->n : 1) * sizeof(int));
			x->table = malloc((pl->n_table ? pl->n_table : 1) * sizeof(uint32_t));
		}
		if (!x || !x->fds || !x->table) {
			rpc_fds_free(x);
			bc_parcel_unref(*ret);
			*ret = NULL;
			r = -ENOMEM;
		} else {
			memcpy(x->fds, rx->fd, rx->n * sizeof(int));
			x->n = rx->n;
			rx->n = 0;
			for (size_t i = 0; i < pl->n_table; i++)
				x->table[i] = bc__get_le32(pl->table + 4 * i);
			x->n_table = pl->n_table;
		}
	}
	rx_close(rx);
	if (r == 0) {
		(*ret)->rpc = bc_rpc_session_ref(s);
		(*ret)->rpc_fds = x;
	}
	return r;
}

void bc__rpc_parcel_release(bc_parcel *p)
{
	free(p->rpc_offs);
	p->rpc_offs = NULL;
	rpc_fds_free(p->rpc_fds);
	p->rpc_fds = NULL;
	p->rpc = bc_rpc_session_unref(p->rpc);
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

/* Send the DEC_STRONGs waiting on @cn (the caller holds it). */
static int flush_decs(bc_rpc_session *s, struct rpc_conn *cn)
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
		r = send_cmd(cn, BC_RPC_CMD_DEC_STRONG, body, sizeof(body), NULL);
		if (r < 0)
			return r;
	}
}

/* Flush on a connection to call on that is free (never the caller's
 * own: a trylock of it fails): its holder flushes before it lets go
 * otherwise, and a serving thread before its next reply. */
static void try_flush(bc_rpc_session *s)
{
	struct rpc_conn *cn;

	if (atomic_load(&s->dead))
		return;
	while (bc__rpc_call_conn(s, false, &cn) == 0) {
		int r = flush_decs(s, cn);

		bc__rpc_call_conn_put(cn);
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
		/* one DEC_STRONG per address, however many wait: oneway calls
		 * leave theirs pending until a reply carries them (below) */
		for (size_t i = 0; i < s->n_pending && !done; i++) {
			if (s->pending[i].addr == addr && s->pending[i].amount <= UINT32_MAX - amount) {
				s->pending[i].amount += amount;
				done = true;
			}
		}
		if (done) {
			pthread_mutex_unlock(&s->mu);
			break;
		}
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

static void out_done(struct out_parcel *op)
{
	free(op->offs);
	op->offs = NULL;
}

/* Whether the object table fits the fds that came: as many entries as
 * fds at version 1 (fds only), at least as many at 2 (binders too). */
static int check_table(bc_rpc_session *s, const struct bc_rpc_payload *pl, size_t n_fds)
{
	if (s->version == BC_RPC_V1 && pl->n_table != n_fds)
		return -EBADMSG;
	if (pl->n_table < n_fds || (s->version == BC_RPC_V0 && n_fds))
		return -EBADMSG;
	return 0;
}

static int send_reply(bc_rpc_session *s, struct rpc_conn *cn, int32_t status, bc_parcel *reply)
{
	uint8_t fixed[BC_RPC_REPLY_SIZE];
	struct out_parcel op;
	int r;

	memset(&op, 0, sizeof(op));
	/* as libbinder does when its reply fails validation */
	if (status == 0 && parcel_out(s, reply, &op) < 0)
		status = -EINVAL;
	if (status != 0) {
		out_done(&op);
		memset(&op, 0, sizeof(op));
	}
	bc__rpc_reply_encode(status, (uint32_t)op.size, s->version, fixed);
	r = send_cmd(cn, BC_RPC_CMD_REPLY, fixed, bc__rpc_reply_size(s->version), &op);
	out_done(&op);
	return r;
}

/* A special transaction (address 0); the reply's status. */
static int32_t special(bc_rpc_session *s, uint32_t code, bc_parcel *reply)
{
	uint32_t n;

	switch (code) {
	case BC_RPC_SPECIAL_GET_ROOT:
		/* a client session has no root: status 0, empty parcel */
		return s->is_server ? bc_parcel_write_binder(reply, s->root) : 0;
	case BC_RPC_SPECIAL_GET_MAX_THREADS:
		/* a server: the connections it serves per session; a client:
		 * the incoming connections it offers */
		pthread_mutex_lock(&s->mu);
		n = s->is_server ? s->max_threads : s->n_serve;
		pthread_mutex_unlock(&s->mu);
		return bc_parcel_write_int32(reply, (int32_t)n);
	case BC_RPC_SPECIAL_GET_SESSION_ID:
		return bc_parcel_write_byte_array(reply, s->id, sizeof(s->id));
	default:
		return s->is_server ? -EBADMSG /* UNKNOWN_TRANSACTION */ : 0;
	}
}

/* Run a call on our object @b (a strong reference, dropped here) that
 * came on @cn: its status (the handler's). */
static int32_t run_local(bc_rpc_session *s, struct rpc_conn *cn, bc_binder *b, const struct bc_rpc_transaction *t,
			 const struct bc_rpc_payload *pl, struct rx_fds *rx, bc_parcel **ret_reply)
{
	bool oneway = t->flags & BC_RPC_FLAG_ONEWAY;
	bc_parcel *in = NULL;
	bc_txn *txn = NULL;
	int r = rpc_parcel_received(s, pl, rx, &in);

	if (r == 0)
		/* no identity on the wire: the socket's peer (SO_PEERCRED), else
		 * pid 0 and an euid that is nobody's (0 would read as root to a
		 * handler checking permissions); pid 0 for oneway calls, as the
		 * kernel reports them */
		r = bc__txn_new(NULL, t->code, t->flags & BC_RPC_FLAG_ONEWAY, oneway ? 0 : cn->peer_pid, cn->peer_euid,
				NULL, &txn);
	if (r == 0) {
		/* Nobody waits on @cn for a oneway call's end: its handler's
		 * calls must not go there nested (Android's never do), but on a
		 * connection to call on. */
		bool hide = oneway && bc__rpc_own_push(s, NULL);

		txn->reply->rpc = bc_rpc_session_ref(s);
		r = bc__local_dispatch(b, txn, t->code, in, txn->reply);
		if (r == BINDERC_TXN_DEFERRED)
			r = bc__txn_wait(txn);
		if (hide)
			bc__rpc_own_pop();
		if (r == 0 && ret_reply)
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

/* Hold oneway call @t (its body *@body and the fds in @rx, both taken)
 * until the calls numbered before it to the same object have run (mu
 * held).  Several connections carry oneway calls in any order -- and a
 * session of one connection may not stay one: the client's joins may
 * reach us after calls it made on them, so an early number is never a
 * violation by itself; the limits bound what a peer can make us hold. */
static int async_hold_locked(bc_rpc_session *s, struct rpc_conn *cn, const struct bc_rpc_transaction *t,
			     uint8_t **body, size_t len, struct rx_fds *rx)
{
	struct rpc_async *a;

	for (size_t i = 0; i < s->n_async; i++)
		if (s->async_q[i].addr == t->address && s->async_q[i].number == t->async_number)
			return -EBADMSG; /* the same number twice */
	if (s->n_async == BC_RPC_MAX_ASYNC_QUEUED || len > BC_RPC_MAX_ASYNC_BYTES - s->async_bytes)
		return -ENOBUFS;
	if (s->n_async == s->cap_async) {
		/* rare (calls overtaking each other), so allocated here */
		size_t cap = s->cap_async ? s->cap_async * 2 : 8;
		struct rpc_async *nq = realloc(s->async_q, cap * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		s->async_q = nq;
		s->cap_async = cap;
	}
	a = &s->async_q[s->n_async];
	memset(a, 0, sizeof(*a));
	if (rx->n) {
		a->fds = malloc(rx->n * sizeof(int));
		if (!a->fds)
			return -ENOMEM;
		memcpy(a->fds, rx->fd, rx->n * sizeof(int));
		a->n_fds = rx->n;
		rx->n = 0;
	}
	a->addr = t->address;
	a->number = t->async_number;
	a->body = *body;
	a->len = len;
	a->conn = cn;
	*body = NULL;
	s->n_async++;
	s->async_bytes += len;
	return 0;
}

/* A oneway call to @addr has run: count it, and take the next one held
 * for the object, if it came already (*@next, removed from the queue;
 * with a strong reference on the object in *@b). */
static bool async_next(bc_rpc_session *s, uint64_t addr, struct rpc_async *next, bc_binder **b)
{
	struct rpc_node *n;
	bool found = false;

	pthread_mutex_lock(&s->mu);
	n = node_of_addr_locked(s, addr);
	if (n) {
		n->async_next++;
		for (size_t i = 0; i < s->n_async && !found; i++) {
			if (s->async_q[i].addr == addr && s->async_q[i].number == n->async_next) {
				*next = s->async_q[i];
				s->async_bytes -= next->len;
				s->async_q[i] = s->async_q[--s->n_async];
				found = true;
			}
		}
		*b = found && n->local && bc__binder_strong_inc(n->local) ? n->local : NULL;
		n->async_running = found && *b;
	}
	pthread_mutex_unlock(&s->mu);
	if (found && !*b) {
		async_free(next); /* the object went meanwhile */
		found = false;
	}
	return found;
}

/* Run a call on our object at @t->address: its status (the handler's);
 * *@fatal for a violation that ends the session.  A oneway call that
 * came before its turn is held (its body and fds taken). */
static int32_t call_local(bc_rpc_session *s, struct rpc_conn *cn, const struct bc_rpc_transaction *t,
			  const struct bc_rpc_payload *pl, uint8_t **body, size_t len, struct rx_fds *rx,
			  bc_parcel **ret_reply, int *fatal)
{
	bool oneway = t->flags & BC_RPC_FLAG_ONEWAY, held = false;
	bc_binder *b = NULL;
	struct rpc_node *n;
	int32_t status;
	int r = 0;

	pthread_mutex_lock(&s->mu);
	n = node_of_addr_locked(s, t->address);
	if (!n || !n->local) {
		/* a proxy's address, or an object that is gone: Android ends
		 * the session too */
		r = -EBADMSG;
	} else if (oneway && t->async_number < n->async_next) {
		r = -EBADMSG; /* a number that was used */
	} else if (oneway && (t->async_number != n->async_next || n->async_running)) {
		r = async_hold_locked(s, cn, t, body, len, rx);
		held = r == 0;
	} else {
		b = n->local;
		if (!bc__binder_strong_inc(b))
			b = NULL;
		else if (oneway)
			n->async_running = true;
	}
	pthread_mutex_unlock(&s->mu);
	if (r < 0 || !b)
		rx_close(rx);
	if (r < 0) {
		*fatal = r;
		return -EINVAL; /* BAD_VALUE */
	}
	if (held)
		return 0; /* oneway: nobody waits for a status */
	if (!b)
		return -EPIPE; /* DEAD_OBJECT */
	status = run_local(s, cn, b, t, pl, rx, ret_reply);
	if (oneway) {
		/* then the ones held for it, in their order, on this thread */
		struct rpc_async next;

		while (async_next(s, t->address, &next, &b)) {
			struct bc_rpc_transaction t2;
			struct bc_rpc_payload pl2;
			struct rx_fds rx2;

			/* checked when it came: it decodes the same again */
			r = bc__rpc_transaction_decode(next.body, next.len, s->version, &t2, &pl2);
			if (next.n_fds)
				memcpy(rx2.fd, next.fds, next.n_fds * sizeof(int));
			rx2.n = next.n_fds;
			next.n_fds = 0;
			if (r == 0)
				run_local(s, next.conn, b, &t2, &pl2, &rx2, NULL);
			else
				bc_binder_unref(b);
			rx_close(&rx2);
			async_free(&next);
		}
	}
	return status;
}

static int process_transact(bc_rpc_session *s, struct rpc_conn *cn, uint8_t **body, size_t len, struct rx_fds *rx)
{
	struct bc_rpc_transaction t;
	struct bc_rpc_payload pl;
	bc_parcel *reply = NULL;
	int32_t status;
	int fatal = 0, r;

	r = bc__rpc_transaction_decode(*body, len, s->version, &t, &pl);
	if (r == 0)
		r = check_table(s, &pl, rx->n);
	if (r < 0 || t.address == 0)
		rx_close(rx); /* special transactions carry no fds */
	if (r < 0)
		return r;
	if (t.address == 0) {
		r = rpc_parcel_new(s, &reply);
		if (r < 0)
			return r;
		status = special(s, t.code, reply);
	} else {
		status = call_local(s, cn, &t, &pl, body, len, rx, &reply, &fatal);
	}
	/* The DEC_STRONGs go before a reply, which the peer reads; after a
	 * oneway call nobody reads this connection, and a stream of them
	 * would fill the socket and stop us: they wait for the next reply,
	 * or for a free connection to call on. */
	if (t.flags & BC_RPC_FLAG_ONEWAY) {
		r = 0;
		try_flush(s);
	} else {
		r = flush_decs(s, cn);
		if (r == 0)
			r = send_reply(s, cn, status, reply);
	}
	bc_parcel_unref(reply);
	return fatal ? fatal : r;
}

/* ---- the command loop ------------------------------------------------------- */

/* Execute commands on @cn until a REPLY (@reply_body set; the caller
 * frees it) or, when @reply_body is NULL (serving), until the peer goes,
 * or after one command (@once). */
static int run(bc_rpc_session *s, struct rpc_conn *cn, uint8_t **reply_body, size_t *reply_len,
	       struct rx_fds *reply_rx, bool once)
{
	for (;;) {
		struct bc_rpc_wire_header h;
		struct rx_fds rx;
		uint8_t *body;
		int r;

		if (atomic_load(&s->drained) && !reply_body)
			return 0;
		r = read_cmd(s, cn, &h, &body, &rx);
		if (r == -EPIPE && !reply_body)
			return 0; /* the peer closed between messages */
		if (r < 0)
			return r;
		switch (h.command) {
		case BC_RPC_CMD_TRANSACT:
			r = process_transact(s, cn, &body, h.body_size, &rx);
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
			*reply_rx = rx;
			return 0;
		}
		rx_close(&rx);
		free(body);
		if (r < 0 || once)
			return r;
	}
}

int bc__rpc_drain_one(bc_rpc_session *s, struct rpc_conn *cn)
{
	struct bc_rpc_wire_header h;
	struct rx_fds rx;
	uint8_t *body;
	int r = read_cmd(s, cn, &h, &body, &rx);

	if (r == 0)
		r = h.command == BC_RPC_CMD_DEC_STRONG ? process_dec_strong(s, body, h.body_size) : -EBADMSG;
	rx_close(&rx);
	free(body);
	return r;
}

int bc__rpc_serve_one(bc_rpc_session *s, struct rpc_conn *cn)
{
	int r = run(s, cn, NULL, NULL, NULL, true);

	/* a clean end between messages ends the session all the same */
	return r == 0 && (atomic_load(&s->drained) || atomic_load(&s->dead)) ? -EPIPE : r;
}

int bc__rpc_serve(bc_rpc_session *s, struct rpc_conn *cn)
{
	int r, ended;

	/* Held while serving: no other thread writes between our messages */
	pthread_mutex_lock(&cn->mu);
	if (bc__rpc_own_push(s, cn)) {
		r = run(s, cn, NULL, NULL, NULL, false);
		bc__rpc_own_pop();
	} else {
		r = -ELOOP; /* served from inside too many other sessions' calls */
	}
	pthread_mutex_unlock(&cn->mu);
	/* ended from outside (a server's shutdown), or by another of its
	 * connections: the end we read was that */
	ended = atomic_load(&s->error);
	bc__rpc_fail(s, r < 0 ? r : -EPIPE);
	bc__rpc_ended(s);
	/* What ended the session first: a nested call's broken reply, say,
	 * rather than the failed write of the reply that followed. */
	if (r < 0)
		return atomic_load(&s->error);
	return ended == -EPIPE ? 0 : ended;
}

/* Send one call on @cn and wait for its reply (the caller holds @cn). */
static int call(bc_rpc_session *s, struct rpc_conn *cn, uint64_t addr, uint32_t code, const struct out_parcel *op,
		uint32_t flags, bc_parcel **ret_reply, int *ret_origin)
{
	struct bc_rpc_transaction t = { .address = addr, .code = code, .flags = flags, .data_size = (uint32_t)op->size };
	uint8_t fixed[BC_RPC_TRANSACTION_SIZE];
	struct bc_rpc_payload pl;
	struct rx_fds rx = { .n = 0 };
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
	r = flush_decs(s, cn);
	if (r == 0)
		r = send_cmd(cn, BC_RPC_CMD_TRANSACT, fixed, sizeof(fixed), op);
	if (r == 0 && !(flags & BC_RPC_FLAG_ONEWAY))
		r = run(s, cn, &body, &len, &rx, false);
	if (r == 0 && body)
		r = bc__rpc_reply_decode(body, len, s->version, &status, &pl);
	if (r == 0 && body)
		r = check_table(s, &pl, rx.n);
	if (r < 0) {
		rx_close(&rx);
		free(body);
		bc__rpc_fail(s, r);
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		return r;
	}
	if (body && status != 0) {
		*ret_origin = BINDERC_ERROR_REMOTE;
		r = status < 0 ? status : -EBADMSG;
	} else if (body && ret_reply) {
		r = rpc_parcel_received(s, &pl, &rx, ret_reply);
	}
	rx_close(&rx);
	free(body);
	return r;
}

int bc__rpc_transact(bc_rpc_session *s, uint64_t addr, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		     uint32_t flags, int *ret_origin)
{
	struct rpc_conn *cn = bc__rpc_owned(s);
	bool nested = cn != NULL;
	struct out_parcel op;
	int r = parcel_out(s, data, &op);

	if (r == 0 && atomic_load(&s->dead)) {
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		r = -EPIPE;
	}
	/* A handler's calls go on the connection its thread holds (nested);
	 * others on a free connection to call on.  A server has those only
	 * if its client offered incoming connections: without, only its
	 * handlers may call the client. */
	if (r == 0 && !nested) {
		r = bc__rpc_call_conn(s, true, &cn);
		if (r == -ENOTCONN)
			r = s->is_server ? -EWOULDBLOCK : -EPIPE;
	}
	if (r < 0) {
		out_done(&op);
		return r;
	}
	if (atomic_load(&s->dead)) {
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		r = -EPIPE;
	} else {
		r = call(s, cn, addr, code, &op, flags & BINDERC_FLAG_ONEWAY ? BC_RPC_FLAG_ONEWAY : 0, ret_reply,
			 ret_origin);
	}
	out_done(&op);
	if (!nested) {
		int f = atomic_load(&s->dead) ? 0 : flush_decs(s, cn);

		if (f < 0)
			bc__rpc_fail(s, f);
		bc__rpc_call_conn_put(cn);
		if (atomic_load(&s->dead))
			bc__rpc_ended(s);
		else
			try_flush(s);
	}
	return r;
}
