/* SPDX-License-Identifier: MIT */
/*
 * Commands on an RPC connection: a header, a fixed part, the parcel data
 * and the object table going out, with the fds (SCM_RIGHTS) on the first
 * bytes; a command read back, the fds only with its header, as
 * Android's RpcState reads them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_session_internal.h"

/* One command: header, fixed part, parcel data, object table. */
int bc__rpc_send_cmd(struct rpc_conn *cn, uint32_t cmd, const void *fixed, size_t flen, const struct out_parcel *op)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE], small[4 * 16], *table = small;
	size_t dlen = op ? op->size : 0, n = op ? op->n_offs : 0, k = 0;
	struct iovec iov[4];
	int r;

	/* (a table of more than 16 entries is rare: allocated) */
	if (n > sizeof(small) / 4 && !(table = malloc(4 * n)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		bc__put_le32(table + 4 * i, op->offs[i]);
	bc__rpc_wire_header_encode(cmd, (uint32_t)(flen + dlen + 4 * n), hdr);
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

void bc__rpc_rx_close(struct rx_fds *rx)
{
	while (rx->n)
		close(rx->fd[--rx->n]);
}

/* A command header, and the fds sent with its bytes (RpcState reads fds
 * only there).  An end of stream before it is -EPIPE, inside it -EPROTO. */
static int recv_header(bc_rpc_session *s, struct rpc_conn *cn, uint8_t *hdr, struct rx_fds *rx)
{
	int r;

	rx->n = 0;
	r = bc__rpc_recv_fds(cn, hdr, BC_RPC_WIRE_HEADER_SIZE, true, rx);
	if (r < 0)
		return r;
	/* fds without fd transport are a violation (Android's fd-less
	 * sessions never read them) */
	if (rx->n && s->fd_mode != BC_RPC_FD_MODE_UNIX)
		return -EBADMSG;
	return 0;
}

/* The next command; *@body is the caller's to free, the fds in @rx the
 * caller's to take or close (closed here on an error). */
int bc__rpc_read_cmd(bc_rpc_session *s, struct rpc_conn *cn, struct bc_rpc_wire_header *h, uint8_t **body,
		     struct rx_fds *rx)
{
	uint8_t hdr[BC_RPC_WIRE_HEADER_SIZE];
	int r = recv_header(s, cn, hdr, rx);

	*body = NULL;
	if (r == 0 && rx->n && bc__get_le32(hdr) == BC_RPC_CMD_DEC_STRONG)
		r = -EBADMSG;
	if (r < 0) {
		bc__rpc_rx_close(rx);
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
		bc__rpc_rx_close(rx);
	}
	return r;
}
