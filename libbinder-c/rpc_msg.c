/* SPDX-License-Identifier: MIT */
/*
 * Commands on an RPC connection: a header, a fixed part, the parcel data
 * and the object table going out, with the fds (SCM_RIGHTS) on the first
 * bytes, after the DEC_STRONGs waiting, all in one write; a command read
 * back into the connection's read buffer, the fds only with its header,
 * as Android's RpcState reads them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_session_internal.h"

/* DEC_STRONGs that go out in the write of the command after them; more
 * than this many waiting go first, one write each (bc__rpc_flush_decs). */
#define DECS_AHEAD 8
#define DEC_CMD_SIZE (BC_RPC_WIRE_HEADER_SIZE + BC_RPC_DEC_STRONG_SIZE)

/* @pre (@plen bytes of whole commands), then one command: header, fixed
 * part, parcel data, object table. */
static int send_cmd(struct rpc_conn *cn, const void *pre, size_t plen, uint32_t cmd, const void *fixed, size_t flen,
		    const struct out_parcel *op)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE], small[4 * 16], *table = small;
	size_t dlen = op ? op->size : 0, n = op ? op->n_offs : 0, k = 0;
	struct iovec iov[5];
	int r;

	/* (a table of more than 16 entries is rare: allocated) */
	if (n > sizeof(small) / 4 && !(table = malloc(4 * n)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		bc__put_le32(table + 4 * i, op->offs[i]);
	bc__rpc_wire_header_encode(cmd, (uint32_t)(flen + dlen + 4 * n), hdr);
	if (plen)
		iov[k++] = (struct iovec){ .iov_base = (void *)pre, .iov_len = plen };
	iov[k++] = (struct iovec){ .iov_base = hdr, .iov_len = sizeof(hdr) };
	if (flen)
		iov[k++] = (struct iovec){ .iov_base = (void *)fixed, .iov_len = flen };
	if (dlen)
		iov[k++] = (struct iovec){ .iov_base = (void *)op->data, .iov_len = dlen };
	if (n)
		iov[k++] = (struct iovec){ .iov_base = table, .iov_len = 4 * n };
	r = bc__rpc_sendv(cn, iov, k, op ? op->fds : NULL, op ? op->n_fds : 0);
	if (table != small)
		free(table);
	return r;
}

/* One command: header, fixed part, parcel data, object table. */
int bc__rpc_send_cmd(struct rpc_conn *cn, uint32_t cmd, const void *fixed, size_t flen, const struct out_parcel *op)
{
	return send_cmd(cn, NULL, 0, cmd, fixed, flen, op);
}

int bc__rpc_send_cmd_after_decs(bc_rpc_session *s, struct rpc_conn *cn, uint32_t cmd, const void *fixed, size_t flen,
				const struct out_parcel *op)
{
	uint8_t pre[DECS_AHEAD][DEC_CMD_SIZE];
	struct rpc_dec d[DECS_AHEAD];
	size_t nd = 0;
	int r;

	/* the fds go with the command's first bytes, which a DEC_STRONG's
	 * must not be: those go first, in writes of their own */
	if ((op && op->n_fds) || !atomic_load(&s->n_pending)) {
		r = bc__rpc_flush_decs(s, cn);
		return r < 0 ? r : send_cmd(cn, NULL, 0, cmd, fixed, flen, op);
	}
	for (;;) {
		pthread_mutex_lock(&s->mu);
		if (s->n_pending <= DECS_AHEAD)
			break;
		pthread_mutex_unlock(&s->mu);
		r = bc__rpc_flush_decs(s, cn);
		if (r < 0)
			return r;
	}
	/* in bc__rpc_flush_decs()'s order: the last queued first */
	while (s->n_pending)
		d[nd++] = s->pending[--s->n_pending];
	pthread_mutex_unlock(&s->mu);
	for (size_t i = 0; i < nd; i++) {
		bc__rpc_wire_header_encode(BC_RPC_CMD_DEC_STRONG, BC_RPC_DEC_STRONG_SIZE, pre[i]);
		bc__rpc_dec_strong_encode(d[i].addr, d[i].amount, pre[i] + BC_RPC_WIRE_HEADER_SIZE);
	}
	return send_cmd(cn, pre, nd * DEC_CMD_SIZE, cmd, fixed, flen, op);
}

void bc__rpc_rx_close(struct rx_fds *rx)
{
	while (rx->n)
		close(rx->fd[--rx->n]);
}

void bc__rpc_wipe_read(struct rpc_conn *cn, const uint8_t *p, size_t len)
{
	/* only bytes of @cn's own buffers: the pointer says which */
	uintptr_t a = (uintptr_t)p, lo = (uintptr_t)cn->rbuf;

	if (cn->rbuf && a >= lo && a - lo <= cn->rcap && len <= cn->rcap - (a - lo))
		bc__wipe(cn->rbuf + (a - lo), len);
}

/* A command of @need bytes, larger than the read buffer, into a buffer
 * of its own (cn->big): what the buffer holds of it first, then the rest
 * read exactly (nothing after it: the next command's bytes, and fds,
 * stay in the socket). */
static int read_big(struct rpc_conn *cn, size_t need, struct rx_fds *rx)
{
	size_t have = cn->rlen - cn->rpos;
	uint8_t *b = malloc(need);

	if (!b)
		return -ENOMEM;
	memcpy(b, cn->rbuf + cn->rpos, have);
	cn->rpos = cn->rlen = 0;
	cn->big = b;
	while (have < need) {
		ssize_t n = cn->ops->read(cn, b + have, need - have, rx);

		if (n < 0)
			return (int)n;
		if (n == 0)
			return -EPROTO; /* the stream was cut inside the body */
		have += (size_t)n;
	}
	return 0;
}

/*
 * The next command, into @cn's read buffer.  Without fd transport each
 * read takes as much as the buffer holds: a command and its body in one
 * system call, and what came after it kept for the next.  With fds, each
 * read stops at the command's end (header, then body), so that the fds
 * that come with a header are that command's (RpcState reads fds only
 * there, and the kernel hands out a message's fds with its first bytes):
 * a read past the command could take the next command's fds with it.
 * Every length is checked before it is used (the header's body size by
 * bc__rpc_wire_header_decode(), at most BC_RPC_MAX_BODY).
 */
int bc__rpc_read_cmd(bc_rpc_session *s, struct rpc_conn *cn, struct bc_rpc_wire_header *h, const uint8_t **body,
		     struct rx_fds *rx)
{
	bool fdless = s->fd_mode != BC_RPC_FD_MODE_UNIX;
	/* A polled server's connection reads ahead below, in its transport
	 * (rpc_pollbuf.c), and its poll loop counts only the bytes held
	 * there: a read ahead here too would hide the next command from it. */
	bool greedy = fdless && !cn->polled;
	size_t need;
	int r;

	*body = NULL;
	rx->n = 0;
	/* the last large command's buffer, if no parcel took it */
	free(cn->big);
	cn->big = NULL;
	/* an end of stream before the header is -EPIPE, inside it -EPROTO */
	r = bc__rpc_fill(cn, BC_RPC_WIRE_HEADER_SIZE, greedy, true, rx);
	/* fds without fd transport are a violation (Android's fd-less
	 * sessions never read them); a DEC_STRONG carries none */
	if (r == 0 && rx->n && (fdless || bc__get_le32(cn->rbuf + cn->rpos) == BC_RPC_CMD_DEC_STRONG))
		r = -EBADMSG;
	if (r == 0)
		r = bc__rpc_wire_header_decode(cn->rbuf + cn->rpos, h);
	need = BC_RPC_WIRE_HEADER_SIZE + (r == 0 ? h->body_size : 0);
	/* (the body's fds are dropped with fd transport: only the header's
	 * count; without, any is a violation) */
	if (r == 0 && need > BC_RPC_RBUF_SIZE)
		r = read_big(cn, need, fdless ? rx : NULL);
	else if (r == 0)
		r = bc__rpc_fill(cn, need, greedy, false, fdless ? rx : NULL);
	if (r == 0 && rx->n && fdless)
		r = -EBADMSG;
	if (r < 0) {
		bc__rpc_rx_close(rx);
		return r;
	}
	if (cn->big) {
		*body = cn->big + BC_RPC_WIRE_HEADER_SIZE;
	} else {
		*body = cn->rbuf + cn->rpos + BC_RPC_WIRE_HEADER_SIZE;
		cn->rpos += need;
	}
	return 0;
}
