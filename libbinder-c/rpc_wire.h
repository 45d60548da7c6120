/* SPDX-License-Identifier: MIT */
/*
 * The RPC binder wire format (Android's libbinder over sockets, protocol
 * versions 0, 1 and 2), in one place: every fixed structure that travels
 * on a session's socket, encoded and decoded byte by byte.  The layout is
 * /work/shared/research/rpc-binder-wire.md's (Android 14,
 * RpcWireFormat.h): little-endian, no padding, reserved bytes written as
 * zero and ignored on receipt.
 *
 * Encoders cannot fail (their input is ours).  Decoders take bytes from
 * the peer and check every length, count, address and version in them;
 * they return 0, or -EBADMSG for a malformed structure (the session must
 * end: the stream cannot be resynchronised), -EMSGSIZE for a body above
 * the cap, -EPROTONOSUPPORT for a version nobody here speaks.  The
 * session code (rpc_msg.c, rpc_dispatch.c, rpc_server.c...) does only
 * I/O and state.
 */
#ifndef BINDERC_RPC_WIRE_H
#define BINDERC_RPC_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- versions ----------------------------------------------------------- */
#define BC_RPC_V0 0u /* Android 13: REPLY = status + data, no object table */
#define BC_RPC_V1 1u /* Android 14/15: explicit parcel sizes, object table */
#define BC_RPC_V2 2u /* Android 16: binder positions in the object table too */
#define BC_RPC_V_MAX BC_RPC_V2
/* Android's unstable experimental version: never proposed or accepted. */
#define BC_RPC_V_EXPERIMENTAL 0xF0000000u

/* ---- connection set-up ------------------------------------------------- */
#define BC_RPC_CONN_HEADER_SIZE 16
#define BC_RPC_CONN_OPTION_INCOMING 0x1u
#define BC_RPC_FD_MODE_NONE 0u
#define BC_RPC_FD_MODE_UNIX 1u
#define BC_RPC_FD_MODE_TRUSTY 2u
/* The only session id size a join may carry (kSessionIdBytes). */
#define BC_RPC_SESSION_ID_SIZE 32

struct bc_rpc_conn_header {
	uint32_t version;
	uint8_t options;
	uint8_t fd_mode;
	uint16_t session_id_size; /* 0: new session */
};

#define BC_RPC_NEW_SESSION_RESPONSE_SIZE 8
#define BC_RPC_CONN_INIT_SIZE 8 /* "cci\0" + 4 reserved */

void bc__rpc_conn_header_encode(const struct bc_rpc_conn_header *h, uint8_t out[BC_RPC_CONN_HEADER_SIZE]);
/* Checks: option bits, fd mode, session id size (0 or 32). */
int bc__rpc_conn_header_decode(const uint8_t in[BC_RPC_CONN_HEADER_SIZE], struct bc_rpc_conn_header *h);
void bc__rpc_new_session_response_encode(uint32_t version, uint8_t out[BC_RPC_NEW_SESSION_RESPONSE_SIZE]);
/* The raw version; bc__rpc_client_accepts() judges it. */
void bc__rpc_new_session_response_decode(const uint8_t in[BC_RPC_NEW_SESSION_RESPONSE_SIZE], uint32_t *version);
void bc__rpc_conn_init_encode(uint8_t out[BC_RPC_CONN_INIT_SIZE]);
/* 0 if the 4 message bytes are "cci\0", else -EBADMSG. */
int bc__rpc_conn_init_check(const uint8_t in[BC_RPC_CONN_INIT_SIZE]);

/* The version a server answers to a client's proposal: min(proposal, its
 * cap), as Android's RpcServer does. */
uint32_t bc__rpc_server_version(uint32_t proposed, uint32_t server_cap);
/* Whether a client that proposed @proposed accepts the answer @answered:
 * not above the proposal, and a version spoken here. */
bool bc__rpc_client_accepts(uint32_t proposed, uint32_t answered);

/* ---- framing ------------------------------------------------------------- */
#define BC_RPC_WIRE_HEADER_SIZE 16
#define BC_RPC_CMD_TRANSACT 0u
#define BC_RPC_CMD_REPLY 1u
#define BC_RPC_CMD_DEC_STRONG 2u
/* Largest body a receiver takes (RpcState::CommandData). */
#define BC_RPC_MAX_BODY 100000u

struct bc_rpc_wire_header {
	uint32_t command;
	uint32_t body_size;
};

void bc__rpc_wire_header_encode(uint32_t command, uint32_t body_size, uint8_t out[BC_RPC_WIRE_HEADER_SIZE]);
/* Checks: a known command (-EBADMSG), a body of at most BC_RPC_MAX_BODY
 * (-EMSGSIZE). */
int bc__rpc_wire_header_decode(const uint8_t in[BC_RPC_WIRE_HEADER_SIZE], struct bc_rpc_wire_header *h);

/* ---- object addresses --------------------------------------------------- */
#define BC_RPC_ADDR_CREATED 0x1u
#define BC_RPC_ADDR_FOR_SERVER 0x2u

/* An address as its 8 wire bytes read little-endian: options in the low
 * 32 bits, the id in the high 32 (RpcWireAddress::toRaw).  0 is the
 * special-transaction address. */
static inline uint64_t bc__rpc_addr(uint32_t options, uint32_t id)
{
	return (uint64_t)options | (uint64_t)id << 32;
}
static inline uint32_t bc__rpc_addr_options(uint64_t a)
{
	return (uint32_t)a;
}
static inline uint32_t bc__rpc_addr_id(uint64_t a)
{
	return (uint32_t)(a >> 32);
}
/* A non-zero address from the peer: only the CREATED and FOR_SERVER
 * bits, CREATED set (Android only refuses unknown bits; a non-zero
 * address without CREATED is never allocated by anyone). */
int bc__rpc_addr_check(uint64_t a);

/* ---- TRANSACT ------------------------------------------------------------ */
#define BC_RPC_TRANSACTION_SIZE 40
#define BC_RPC_FLAG_ONEWAY 0x1u
/* Android's FLAG_CLEAR_BUF, carried as it is (= BINDERC_FLAG_CLEAR_BUF) */
#define BC_RPC_FLAG_CLEAR_BUF 0x20u
#define BC_RPC_SPECIAL_GET_ROOT 0u
#define BC_RPC_SPECIAL_GET_MAX_THREADS 1u
#define BC_RPC_SPECIAL_GET_SESSION_ID 2u

struct bc_rpc_transaction {
	uint64_t address; /* 0: special transaction */
	uint32_t code;
	uint32_t flags;
	uint64_t async_number;
	uint32_t data_size; /* the parcel data's bytes (filled in at every version) */
};

/* What follows a transaction's or reply's fixed part, as pointers into
 * the body: the parcel data, then (version >= 1) the object table. */
struct bc_rpc_payload {
	const uint8_t *data;
	size_t data_size;
	const uint8_t *table; /* u32 little-endian offsets */
	size_t n_table;
};

void bc__rpc_transaction_encode(const struct bc_rpc_transaction *t, uint8_t out[BC_RPC_TRANSACTION_SIZE]);
/* A TRANSACT body of @len bytes at @version.  Checks: at least 40
 * bytes, the address (bc__rpc_addr_check unless 0), and at version >= 1
 * the parcel size and the object table (bc__rpc_table_check).  At
 * version 0 the whole rest is data and data_size is not trusted. */
int bc__rpc_transaction_decode(const uint8_t *body, size_t len, uint32_t version, struct bc_rpc_transaction *t,
			       struct bc_rpc_payload *pl);

/* ---- REPLY ---------------------------------------------------------------- */
#define BC_RPC_REPLY_V0_SIZE 4
#define BC_RPC_REPLY_SIZE 20

/* The size of a REPLY's fixed part at @version. */
static inline size_t bc__rpc_reply_size(uint32_t version)
{
	return version == BC_RPC_V0 ? BC_RPC_REPLY_V0_SIZE : BC_RPC_REPLY_SIZE;
}
/* Writes bc__rpc_reply_size(@version) bytes. */
void bc__rpc_reply_encode(int32_t status, uint32_t data_size, uint32_t version, uint8_t out[BC_RPC_REPLY_SIZE]);
int bc__rpc_reply_decode(const uint8_t *body, size_t len, uint32_t version, int32_t *status,
			 struct bc_rpc_payload *pl);

/* ---- DEC_STRONG ---------------------------------------------------------- */
#define BC_RPC_DEC_STRONG_SIZE 16

void bc__rpc_dec_strong_encode(uint64_t address, uint32_t amount, uint8_t out[BC_RPC_DEC_STRONG_SIZE]);
/* Checks: exactly 16 bytes, a valid address. */
int bc__rpc_dec_strong_decode(const uint8_t *body, size_t len, uint64_t *address, uint32_t *amount);

/* ---- the object table ---------------------------------------------------- */
/* Each entry 4-aligned with its 4-byte type word inside the data, and
 * increasing.  How many there must be depends on the fds that came with
 * the message (version 1 lists fds only, version 2 binders too): the
 * session checks that. */
int bc__rpc_table_check(const struct bc_rpc_payload *pl, uint32_t version);

/* ---- binder objects inside a parcel ------------------------------------- */
/* int32 1, u64 address, int32 stability (or int32 0 for null). */
#define BC_RPC_BINDER_OBJ_SIZE 16

/* ---- little-endian helpers ---------------------------------------------- */
static inline void bc__put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}
static inline void bc__put_le64(uint8_t *p, uint64_t v)
{
	bc__put_le32(p, (uint32_t)v);
	bc__put_le32(p + 4, (uint32_t)(v >> 32));
}
static inline uint32_t bc__get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t bc__get_le64(const uint8_t *p)
{
	return (uint64_t)bc__get_le32(p) | (uint64_t)bc__get_le32(p + 4) << 32;
}

#endif
