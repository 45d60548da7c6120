/* SPDX-License-Identifier: MIT */
/*
 * Calls that go out on an RPC session: on the connection a handler's
 * thread holds (nested), else on a free one to call on, waiting for the
 * reply while the command loop runs what comes first.
 */
#include <errno.h>
#include <stdlib.h>

#include "rpc_session_internal.h"

/* Send one call on @cn and wait for its reply (the caller holds @cn). */
static int call(bc_rpc_session *s, struct rpc_conn *cn, uint64_t addr, uint32_t code, const struct out_parcel *op,
		uint32_t flags, bc_parcel **ret_reply, int *ret_origin)
{
	struct bc_rpc_transaction t = {
		.address = addr, .code = code, .flags = flags, .data_size = (uint32_t)op->size
	};
	uint8_t fixed[BC_RPC_TRANSACTION_SIZE];
	struct bc_rpc_payload pl;
	struct rx_fds rx;           /* (n only: 1 KiB not cleared) */
	const uint8_t *body = NULL; /* the reply's, in @cn's read buffer */
	size_t len = 0;
	int32_t status;
	int r;

	rx.n = 0;
	if (addr && (flags & BC_RPC_FLAG_ONEWAY)) {
		struct rpc_node *n;

		pthread_mutex_lock(&s->mu);
		n = bc__rpc_node_of_addr_locked(s, addr);
		if (n)
			t.async_number = n->async_next++;
		pthread_mutex_unlock(&s->mu);
	}
	bc__rpc_transaction_encode(&t, fixed);
	/* the DEC_STRONGs waiting go first, in the same write */
	r = bc__rpc_send_cmd_after_decs(s, cn, BC_RPC_CMD_TRANSACT, fixed, sizeof(fixed), op);
	if (r == 0 && !(flags & BC_RPC_FLAG_ONEWAY))
		r = bc__rpc_run(s, cn, &body, &len, &rx, false);
	if (r == 0 && body)
		r = bc__rpc_reply_decode(body, len, s->version, &status, &pl);
	if (r == 0 && body)
		r = bc__rpc_check_table(s, &pl, rx.n);
	if (r < 0) {
		bc__rpc_rx_close(&rx);
		bc__rpc_fail(s, r);
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		return r;
	}
	if (body && status != 0) {
		*ret_origin = BINDERC_ERROR_REMOTE;
		r = status < 0 ? status : -EBADMSG;
	} else if (body && ret_reply) {
		r = bc__rpc_parcel_received(s, &pl, &rx, &cn->big, ret_reply);
		if (r == 0 && (flags & BC_RPC_FLAG_CLEAR_BUF))
			bc_parcel_mark_sensitive(*ret_reply);
	}
	if (body && (flags & BC_RPC_FLAG_CLEAR_BUF))
		bc__rpc_wipe_read(cn, body, len);
	bc__rpc_rx_close(&rx);
	return r;
}

int bc__rpc_transact(bc_rpc_session *s, uint64_t addr, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		     uint32_t flags, int *ret_origin)
{
	struct rpc_conn *cn = bc__rpc_owned(s);
	bool nested = cn != NULL;
	struct out_parcel op;
	int r = bc__rpc_parcel_out(s, data, &op);

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
		bc__rpc_out_done(&op);
		return r;
	}
	if (atomic_load(&s->dead)) {
		*ret_origin = BINDERC_ERROR_TRANSPORT;
		r = -EPIPE;
	} else {
		bool pin = !(flags & BINDERC_FLAG_ONEWAY) && data;

		if (pin)
			bc__rpc_pin_request(s, data);
		r = call(s, cn, addr, code, &op,
			 (flags & BINDERC_FLAG_ONEWAY ? BC_RPC_FLAG_ONEWAY : 0) |
				 (flags & BINDERC_FLAG_CLEAR_BUF ? BC_RPC_FLAG_CLEAR_BUF : 0),
			 ret_reply, ret_origin);
		if (pin)
			bc__rpc_pins_to_reply(s, data, r == 0 && ret_reply ? *ret_reply : NULL);
	}
	bc__rpc_out_done(&op);
	if (!nested) {
		int f = atomic_load(&s->dead) ? 0 : bc__rpc_flush_decs(s, cn);

		if (f < 0)
			bc__rpc_fail(s, f);
		bc__rpc_call_conn_put(cn);
		if (atomic_load(&s->dead))
			bc__rpc_ended(s);
		else
			bc__rpc_try_flush(s);
	}
	return r;
}
