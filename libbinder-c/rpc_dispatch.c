/* SPDX-License-Identifier: MIT */
/*
 * The command loop of an RPC connection, run whenever a thread holds
 * one: a caller waiting for a reply executes the TRANSACTs (nested calls)
 * and DEC_STRONGs that come first, as Android's RpcState::waitForReply
 * does; a thread serving a connection does the same until the session
 * ends.  The calls that come in: special ones (address 0) and calls on
 * our objects, and their replies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpc_session_internal.h"

static int send_reply(bc_rpc_session *s, struct rpc_conn *cn, int32_t status, bc_parcel *reply)
{
	uint8_t fixed[BC_RPC_REPLY_SIZE];
	struct out_parcel op;
	int r;

	memset(&op, 0, sizeof(op));
	/* as libbinder does when its reply fails validation */
	if (status == 0 && bc__rpc_parcel_out(s, reply, &op) < 0)
		status = -EINVAL;
	if (status != 0) {
		bc__rpc_out_done(&op);
		memset(&op, 0, sizeof(op));
	}
	bc__rpc_reply_encode(status, (uint32_t)op.size, s->version, fixed);
	/* the DEC_STRONGs waiting go before it, in the same write */
	r = bc__rpc_send_cmd_after_decs(s, cn, BC_RPC_CMD_REPLY, fixed, bc__rpc_reply_size(s->version), &op);
	bc__rpc_out_done(&op);
	return r;
}

/* A special transaction (address 0); the reply's status. */
static int32_t special(bc_rpc_session *s, uint32_t code, bc_parcel *reply)
{
	bc_binder *root;
	uint32_t n;
	int32_t r;

	switch (code) {
	case BC_RPC_SPECIAL_GET_ROOT:
		/* a client session has no root: status 0, empty parcel */
		if (!s->is_server)
			return 0;
		/* (taken under mu: an ended session lets go of it) */
		pthread_mutex_lock(&s->mu);
		root = bc_binder_ref(s->root);
		pthread_mutex_unlock(&s->mu);
		r = bc_parcel_write_binder(reply, root);
		bc_binder_unref(root);
		return r;
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
 * came on @cn: its status (the handler's).  *@block: the command's own
 * buffer, if it has one (read now: taken by the request parcel). */
static int32_t run_local(bc_rpc_session *s, struct rpc_conn *cn, bc_binder *b, const struct bc_rpc_transaction *t,
			 const struct bc_rpc_payload *pl, struct rx_fds *rx, uint8_t **block, bc_parcel **ret_reply)
{
	bool oneway = t->flags & BC_RPC_FLAG_ONEWAY;
	bc_parcel *in = NULL;
	bc_txn *txn = NULL;
	int r = bc__rpc_parcel_received(s, pl, rx, block, &in);

	/* as the kernel clears such a call's buffer when it is freed */
	if (r == 0 && (t->flags & BC_RPC_FLAG_CLEAR_BUF))
		bc_parcel_mark_sensitive(in);
	if (r == 0)
		/* no identity on the wire: the socket's peer (SO_PEERCRED), else
		 * pid 0 and an euid that is nobody's (0 would read as root to a
		 * handler checking permissions); pid 0 for oneway calls, as the
		 * kernel reports them */
		r = bc__txn_new(NULL, t->code,
				(oneway ? BINDERC_FLAG_ONEWAY : 0) |
					(t->flags & BC_RPC_FLAG_CLEAR_BUF ? BINDERC_FLAG_CLEAR_BUF : 0),
				oneway ? 0 : cn->peer_pid, cn->peer_euid, NULL, &txn);
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

/* Run a call on our object at @t->address: its status (the handler's);
 * *@fatal for a violation that ends the session.  A oneway call that
 * came before its turn is held (a copy of its body, its fds taken). */
static int32_t call_local(bc_rpc_session *s, struct rpc_conn *cn, const struct bc_rpc_transaction *t,
			  const struct bc_rpc_payload *pl, const uint8_t *body, size_t len, struct rx_fds *rx,
			  bc_parcel **ret_reply, int *fatal)
{
	bool oneway = t->flags & BC_RPC_FLAG_ONEWAY, held = false;
	bc_binder *b = NULL;
	uint8_t *copy = NULL;
	struct rpc_node *n;
	int32_t status;
	int r = 0;

	pthread_mutex_lock(&s->mu);
	n = bc__rpc_node_of_addr_locked(s, t->address);
	if (!n || !n->local) {
		/* a proxy's address, or an object that is gone: Android ends
		 * the session too */
		r = -EBADMSG;
	} else if (oneway && t->async_number < n->async_next && t->async_number != 0) {
		r = -EBADMSG; /* a number that was used */
	} else if (oneway && t->async_number == 0 && n->async_next && !n->async_running &&
		   !bc__rpc_async_held_locked(s, t->address)) {
		/* numbering starts again (bc__rpc_async_next() says why) */
		n->async_next = 0;
		b = n->local;
		if (!bc__binder_strong_inc(b))
			b = NULL;
		else
			n->async_running = true;
	} else if (oneway && (t->async_number != n->async_next || n->async_running)) {
		/* (the body is the connection's read buffer's: a copy waits;
		 * rare, so allocated here, as the queue) */
		copy = malloc(len + 1u);
		if (copy)
			memcpy(copy, body, len);
		r = copy ? bc__rpc_async_hold_locked(s, cn, t, &copy, len, rx) : -ENOMEM;
		held = r == 0;
	} else {
		b = n->local;
		if (!bc__binder_strong_inc(b))
			b = NULL;
		else if (oneway)
			n->async_running = true;
	}
	pthread_mutex_unlock(&s->mu);
	free(copy); /* (NULL once held) */
	if (r < 0 || !b)
		bc__rpc_rx_close(rx);
	if (r < 0) {
		*fatal = r;
		return -EINVAL; /* BAD_VALUE */
	}
	if (held)
		return 0; /* oneway: nobody waits for a status */
	if (!b)
		return -EPIPE; /* DEAD_OBJECT */
	status = run_local(s, cn, b, t, pl, rx, &cn->big, ret_reply);
	if (oneway) {
		/* then the ones held for it, in their order, on this thread */
		struct rpc_async next;

		while (bc__rpc_async_next(s, t->address, &next, &b)) {
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
				run_local(s, next.conn, b, &t2, &pl2, &rx2, NULL, NULL);
			else
				bc_binder_unref(b);
			bc__rpc_rx_close(&rx2);
			bc__rpc_async_free(&next);
		}
	}
	return status;
}

static int process_transact(bc_rpc_session *s, struct rpc_conn *cn, const uint8_t *body, size_t len, struct rx_fds *rx)
{
	struct bc_rpc_transaction t;
	struct bc_rpc_payload pl;
	bc_parcel *reply = NULL;
	int32_t status;
	int fatal = 0, r;

	r = bc__rpc_transaction_decode(body, len, s->version, &t, &pl);
	if (r == 0)
		r = bc__rpc_check_table(s, &pl, rx->n);
	if (r < 0 || t.address == 0)
		bc__rpc_rx_close(rx); /* special transactions carry no fds */
	if (r < 0)
		return r;
	if (t.address == 0) {
		r = bc__rpc_parcel_new(s, &reply);
		if (r < 0)
			return r;
		status = special(s, t.code, reply);
	} else {
		status = call_local(s, cn, &t, &pl, body, len, rx, &reply, &fatal);
	}
	if (t.flags & BC_RPC_FLAG_CLEAR_BUF)
		bc__rpc_wipe_read(cn, body, len);
	/* The DEC_STRONGs go before a reply, which the peer reads; after a
	 * oneway call nobody reads this connection, and a stream of them
	 * would fill the socket and stop us: they wait for the next reply,
	 * or for a free connection to call on. */
	if (t.flags & BC_RPC_FLAG_ONEWAY) {
		r = 0;
		bc__rpc_try_flush(s);
	} else {
		r = send_reply(s, cn, status, reply);
	}
	bc_parcel_unref(reply);
	return fatal ? fatal : r;
}

/* ---- the command loop ------------------------------------------------------- */

/* Execute commands on @cn until a REPLY (@reply_body set, in @cn's read
 * buffer) or, when @reply_body is NULL (serving), until the peer goes,
 * or after one command (@once). */
int bc__rpc_run(bc_rpc_session *s, struct rpc_conn *cn, const uint8_t **reply_body, size_t *reply_len,
		struct rx_fds *reply_rx, bool once)
{
	/* (a reply's fds are read into the caller's: 1 KiB not copied) */
	struct rx_fds local, *rx = reply_rx ? reply_rx : &local;

	for (;;) {
		struct bc_rpc_wire_header h;
		const uint8_t *body;
		int r;

		if (atomic_load(&s->drained) && !reply_body)
			return 0;
		r = bc__rpc_read_cmd(s, cn, &h, &body, rx);
		/* the peer closed between messages: the end of serving, and
		 * for a single command's reader (a client's incoming
		 * connection, threaded or polled) the end of the session,
		 * which must not read the same end-of-file again */
		if (r == -EPIPE && !reply_body)
			return once ? -EPIPE : 0;
		if (r < 0)
			return r;
		switch (h.command) {
		case BC_RPC_CMD_TRANSACT:
			r = process_transact(s, cn, body, h.body_size, rx);
			break;
		case BC_RPC_CMD_DEC_STRONG:
			r = bc__rpc_process_dec_strong(s, body, h.body_size);
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
		bc__rpc_rx_close(rx);
		if (r < 0 || once)
			return r;
	}
}

int bc__rpc_drain_one(bc_rpc_session *s, struct rpc_conn *cn)
{
	struct bc_rpc_wire_header h;
	struct rx_fds rx;
	const uint8_t *body;
	int r = bc__rpc_read_cmd(s, cn, &h, &body, &rx);

	if (r == 0)
		r = h.command == BC_RPC_CMD_DEC_STRONG ? bc__rpc_process_dec_strong(s, body, h.body_size) : -EBADMSG;
	bc__rpc_rx_close(&rx);
	return r;
}

/* Serve @cn's commands (one, if @once) with @cn held: our handlers' calls
 * nest on it, and nobody else writes between its messages. */
static int serve_held(bc_rpc_session *s, struct rpc_conn *cn, bool once)
{
	int r;

	pthread_mutex_lock(&cn->mu);
	if (bc__rpc_own_push(s, cn)) {
		r = bc__rpc_run(s, cn, NULL, NULL, NULL, once);
		bc__rpc_own_pop();
	} else {
		r = -ELOOP; /* served from inside too many other sessions' calls */
	}
	pthread_mutex_unlock(&cn->mu);
	return r;
}

int bc__rpc_serve_one(bc_rpc_session *s, struct rpc_conn *cn)
{
	int r = serve_held(s, cn, true);

	/* a clean end between messages ends the session all the same */
	return r == 0 && (atomic_load(&s->drained) || atomic_load(&s->dead)) ? -EPIPE : r;
}

int bc__rpc_serve(bc_rpc_session *s, struct rpc_conn *cn)
{
	int r = serve_held(s, cn, false), ended;

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
