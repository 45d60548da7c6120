/* SPDX-License-Identifier: MIT */
/*
 * RPC binder wire structures: encoders and checking decoders
 * (rpc_wire.h says what each checks and why).
 */
#include <errno.h>
#include <string.h>

#include "rpc_wire.h"

/* ---- connection set-up ------------------------------------------------- */

void bc__rpc_conn_header_encode(const struct bc_rpc_conn_header *h, uint8_t out[BC_RPC_CONN_HEADER_SIZE])
{
	memset(out, 0, BC_RPC_CONN_HEADER_SIZE);
	bc__put_le32(out, h->version);
	out[4] = h->options;
	out[5] = h->fd_mode;
	/* 6..13 reserved */
	out[14] = (uint8_t)h->session_id_size;
	out[15] = (uint8_t)(h->session_id_size >> 8);
}

int bc__rpc_conn_header_decode(const uint8_t in[BC_RPC_CONN_HEADER_SIZE], struct bc_rpc_conn_header *h)
{
	h->version = bc__get_le32(in);
	h->options = in[4];
	h->fd_mode = in[5];
	h->session_id_size = (uint16_t)(in[14] | in[15] << 8);
	if (h->options & ~BC_RPC_CONN_OPTION_INCOMING)
		return -EBADMSG;
	if (h->fd_mode > BC_RPC_FD_MODE_TRUSTY)
		return -EBADMSG;
	/* Any other size names no session (Android drops the connection). */
	if (h->session_id_size != 0 && h->session_id_size != BC_RPC_SESSION_ID_SIZE)
		return -EBADMSG;
	return 0;
}

void bc__rpc_new_session_response_encode(uint32_t version, uint8_t out[BC_RPC_NEW_SESSION_RESPONSE_SIZE])
{
	memset(out, 0, BC_RPC_NEW_SESSION_RESPONSE_SIZE);
	bc__put_le32(out, version);
}

void bc__rpc_new_session_response_decode(const uint8_t in[BC_RPC_NEW_SESSION_RESPONSE_SIZE], uint32_t *version)
{
	*version = bc__get_le32(in);
}

static const uint8_t conn_init_msg[4] = { 'c', 'c', 'i', 0 };

void bc__rpc_conn_init_encode(uint8_t out[BC_RPC_CONN_INIT_SIZE])
{
	memset(out, 0, BC_RPC_CONN_INIT_SIZE);
	memcpy(out, conn_init_msg, sizeof(conn_init_msg));
}

int bc__rpc_conn_init_check(const uint8_t in[BC_RPC_CONN_INIT_SIZE])
{
	return memcmp(in, conn_init_msg, sizeof(conn_init_msg)) == 0 ? 0 : -EBADMSG;
}

uint32_t bc__rpc_server_version(uint32_t proposed, uint32_t server_cap)
{
	return proposed < server_cap ? proposed : server_cap;
}

bool bc__rpc_client_accepts(uint32_t proposed, uint32_t answered)
{
	/* The experimental version is above every cap of ours, so refused. */
	return answered <= proposed && answered <= BC_RPC_V_MAX;
}

/* ---- framing ------------------------------------------------------------- */

void bc__rpc_wire_header_encode(uint32_t command, uint32_t body_size, uint8_t out[BC_RPC_WIRE_HEADER_SIZE])
{
	memset(out, 0, BC_RPC_WIRE_HEADER_SIZE);
	bc__put_le32(out, command);
	bc__put_le32(out + 4, body_size);
}

int bc__rpc_wire_header_decode(const uint8_t in[BC_RPC_WIRE_HEADER_SIZE], struct bc_rpc_wire_header *h)
{
	h->command = bc__get_le32(in);
	h->body_size = bc__get_le32(in + 4);
	if (h->command > BC_RPC_CMD_DEC_STRONG)
		return -EBADMSG;
	if (h->body_size > BC_RPC_MAX_BODY)
		return -EMSGSIZE;
	return 0;
}

/* ---- addresses ----------------------------------------------------------- */

int bc__rpc_addr_check(uint64_t a)
{
	uint32_t o = bc__rpc_addr_options(a);

	if (o & ~(BC_RPC_ADDR_CREATED | BC_RPC_ADDR_FOR_SERVER))
		return -EBADMSG;
	if (!(o & BC_RPC_ADDR_CREATED))
		return -EBADMSG;
	return 0;
}

/* ---- the object table ---------------------------------------------------- */

int bc__rpc_table_check(const struct bc_rpc_payload *pl, uint32_t version)
{
	uint32_t prev = 0;

	(void)version; /* how many entries a message needs is the session's */
	for (size_t i = 0; i < pl->n_table; i++) {
		uint32_t off = bc__get_le32(pl->table + 4 * i);

		if (off % 4 || (size_t)off + 4 > pl->data_size || (i > 0 && off <= prev))
			return -EBADMSG;
		prev = off;
	}
	return 0;
}

/* Split what follows a fixed part of @fixed bytes into data and table:
 * @data_size of data, then u32 entries filling the rest exactly. */
static int split_payload(const uint8_t *body, size_t len, size_t fixed, uint32_t data_size, uint32_t version,
			 struct bc_rpc_payload *pl)
{
	size_t rest = len - fixed;

	pl->data = body + fixed;
	if (version == BC_RPC_V0) {
		/* no explicit size, no table: everything is parcel data */
		pl->data_size = rest;
		pl->table = NULL;
		pl->n_table = 0;
		return 0;
	}
	if (data_size > rest || (rest - data_size) % 4)
		return -EBADMSG;
	pl->data_size = data_size;
	pl->table = body + fixed + data_size;
	pl->n_table = (rest - data_size) / 4;
	return bc__rpc_table_check(pl, version);
}

/* ---- TRANSACT ------------------------------------------------------------ */

void bc__rpc_transaction_encode(const struct bc_rpc_transaction *t, uint8_t out[BC_RPC_TRANSACTION_SIZE])
{
	memset(out, 0, BC_RPC_TRANSACTION_SIZE);
	bc__put_le64(out, t->address);
	bc__put_le32(out + 8, t->code);
	bc__put_le32(out + 12, t->flags);
	bc__put_le64(out + 16, t->async_number);
	/* Android 14 writes the size at version 0 too (13 reads it as reserved). */
	bc__put_le32(out + 24, t->data_size);
	/* 28..39 reserved */
}

int bc__rpc_transaction_decode(const uint8_t *body, size_t len, uint32_t version, struct bc_rpc_transaction *t,
			       struct bc_rpc_payload *pl)
{
	int r;

	if (len < BC_RPC_TRANSACTION_SIZE)
		return -EBADMSG;
	t->address = bc__get_le64(body);
	t->code = bc__get_le32(body + 8);
	t->flags = bc__get_le32(body + 12);
	t->async_number = bc__get_le64(body + 16);
	t->data_size = bc__get_le32(body + 24);
	if (t->address != 0 && (r = bc__rpc_addr_check(t->address)) < 0)
		return r;
	r = split_payload(body, len, BC_RPC_TRANSACTION_SIZE, t->data_size, version, pl);
	if (r == 0 && version == BC_RPC_V0)
		t->data_size = (uint32_t)pl->data_size;
	return r;
}

/* ---- REPLY ---------------------------------------------------------------- */

void bc__rpc_reply_encode(int32_t status, uint32_t data_size, uint32_t version, uint8_t out[BC_RPC_REPLY_SIZE])
{
	memset(out, 0, bc__rpc_reply_size(version));
	bc__put_le32(out, (uint32_t)status);
	if (version != BC_RPC_V0)
		bc__put_le32(out + 4, data_size);
}

int bc__rpc_reply_decode(const uint8_t *body, size_t len, uint32_t version, int32_t *status,
			 struct bc_rpc_payload *pl)
{
	size_t fixed = bc__rpc_reply_size(version);

	if (len < fixed)
		return -EBADMSG;
	*status = (int32_t)bc__get_le32(body);
	return split_payload(body, len, fixed, version == BC_RPC_V0 ? 0 : bc__get_le32(body + 4), version, pl);
}

/* ---- DEC_STRONG ---------------------------------------------------------- */

void bc__rpc_dec_strong_encode(uint64_t address, uint32_t amount, uint8_t out[BC_RPC_DEC_STRONG_SIZE])
{
	memset(out, 0, BC_RPC_DEC_STRONG_SIZE);
	bc__put_le64(out, address);
	bc__put_le32(out + 8, amount);
}

int bc__rpc_dec_strong_decode(const uint8_t *body, size_t len, uint64_t *address, uint32_t *amount)
{
	if (len != BC_RPC_DEC_STRONG_SIZE)
		return -EBADMSG;
	*address = bc__get_le64(body);
	*amount = bc__get_le32(body + 8);
	return bc__rpc_addr_check(*address);
}
