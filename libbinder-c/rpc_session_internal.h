/* SPDX-License-Identifier: MIT */
/*
 * What the pieces of an RPC session share (private to rpc_session.c,
 * rpc_msg.c, rpc_nodes.c, rpc_parcel.c, rpc_dec.c, rpc_async.c,
 * rpc_dispatch.c and rpc_call.c): a message's parcel going out and the
 * fds coming in with one, and the functions one piece calls in another.
 * What the rest of the library calls is in rpc_internal.h.
 */
#ifndef BINDERC_RPC_SESSION_INTERNAL_H
#define BINDERC_RPC_SESSION_INTERNAL_H

#include "rpc_internal.h"

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

/* ---- rpc_msg.c: commands on the wire ------------------------------------ */
/* One command: header, fixed part, parcel data (@op may be NULL), object
 * table; the fds of @op with the first bytes. */
int bc__rpc_send_cmd(struct rpc_conn *cn, uint32_t cmd, const void *fixed, size_t flen, const struct out_parcel *op);
/* bc__rpc_flush_decs(), then bc__rpc_send_cmd(): the same bytes, in one
 * write where the command carries no fds. */
int bc__rpc_send_cmd_after_decs(bc_rpc_session *s, struct rpc_conn *cn, uint32_t cmd, const void *fixed, size_t flen,
				const struct out_parcel *op);
/* The next command; *@body is in @cn's read buffer, or for a large one
 * in a buffer of its own (cn->big, which the parcel of its data may
 * take), valid until the next read on @cn (a handler's nested call reads
 * there: take what is needed before it runs); the fds in @rx the
 * caller's to take or close (closed here on an error). */
int bc__rpc_read_cmd(bc_rpc_session *s, struct rpc_conn *cn, struct bc_rpc_wire_header *h, const uint8_t **body,
		     struct rx_fds *rx);
void bc__rpc_rx_close(struct rx_fds *rx);

/* ---- rpc_nodes.c: the object table (_locked: mu held) -------------------- */
struct rpc_node *bc__rpc_node_of_addr_locked(bc_rpc_session *s, uint64_t addr);
/* Forget @n if it holds neither an object nor a proxy. */
void bc__rpc_node_gc_locked(bc_rpc_session *s, struct rpc_node *n);
/* The address of our object @b going out (allocated the first time);
 * one more reference counted as sent. */
int bc__rpc_binder_leaving(bc_rpc_session *s, bc_binder *b, uint64_t *ret);
/* The object the peer names by @addr: ours, or the proxy of its own. */
int bc__rpc_binder_entering(bc_rpc_session *s, uint64_t addr, int stability, bc_binder **ret);

/* ---- rpc_parcel.c: parcels of a session ---------------------------------- */
int bc__rpc_parcel_new(bc_rpc_session *s, bc_parcel **ret);
/* A received parcel: @pl's data, with the fds in @rx (taken, on an error
 * too) and the object table.  The data is copied, unless *@block (@block
 * not NULL) is the command's own buffer, which @pl lies in (struct
 * rpc_conn's big): then the parcel takes it. */
int bc__rpc_parcel_received(bc_rpc_session *s, const struct bc_rpc_payload *pl, struct rx_fds *rx, uint8_t **block,
			    bc_parcel **ret);
/* @p as it goes on the wire (NULL: empty); bc__rpc_out_done() after. */
int bc__rpc_parcel_out(bc_rpc_session *s, bc_parcel *p, struct out_parcel *op);
void bc__rpc_out_done(struct out_parcel *op);
/* Whether a message's object table fits the @n_fds fds that came. */
int bc__rpc_check_table(bc_rpc_session *s, const struct bc_rpc_payload *pl, size_t n_fds);

/* ---- rpc_dec.c: DEC_STRONG ------------------------------------------------ */
/* Send the DEC_STRONGs waiting, on @cn (held by the caller). */
int bc__rpc_flush_decs(bc_rpc_session *s, struct rpc_conn *cn);
/* ... on a free connection to call on, if there is one. */
void bc__rpc_try_flush(bc_rpc_session *s);
/* A DEC_STRONG the peer sent. */
int bc__rpc_process_dec_strong(bc_rpc_session *s, const uint8_t *body, size_t len);

/* ---- rpc_nodes.c: pins --------------------------------------------------- */
/* Pin the nodes of our objects that request @data carries, for its call
 * (bc__rpc_pins_to_reply() then moves them to the reply, if any). */
void bc__rpc_pin_request(bc_rpc_session *s, const bc_parcel *data);
/* The call is over: the pins go to @reply (freed with it), or with no
 * reply (NULL) are dropped now. */
void bc__rpc_pins_to_reply(bc_rpc_session *s, const bc_parcel *data, bc_parcel *reply);

/* ---- rpc_async.c: oneway calls in the order of their numbers ------------ */
void bc__rpc_async_free(struct rpc_async *a);
/* Hold oneway call @t (its *@body and the fds in @rx taken) until its
 * turn (mu held): -EBADMSG for a number twice, -ENOBUFS beyond the
 * limits. */
int bc__rpc_async_hold_locked(bc_rpc_session *s, struct rpc_conn *cn, const struct bc_rpc_transaction *t,
			      uint8_t **body, size_t len, struct rx_fds *rx);
/* A oneway call to @addr has run: the next one held for it, if any. */
bool bc__rpc_async_next(bc_rpc_session *s, uint64_t addr, struct rpc_async *next, bc_binder **b);
/* Whether a oneway call to @addr is held (mu held). */
bool bc__rpc_async_held_locked(const bc_rpc_session *s, uint64_t addr);

/* ---- rpc_dispatch.c: the command loop ------------------------------------ */
/* Execute commands on @cn until a REPLY (@reply_body set, where
 * bc__rpc_read_cmd() puts a body) or, when @reply_body is NULL (serving),
 * until the peer goes, or after one command (@once). */
int bc__rpc_run(bc_rpc_session *s, struct rpc_conn *cn, const uint8_t **reply_body, size_t *reply_len,
		struct rx_fds *reply_rx, bool once);

#endif
