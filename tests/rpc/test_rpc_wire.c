/* SPDX-License-Identifier: MIT */
/*
 * Golden bytes of the RPC binder wire structures (libbinder-c/rpc_wire.c)
 * against /work/shared/research/rpc-binder-wire.md, which gives the bytes
 * two Android 14 programs exchanged ("Observed first bytes of a session")
 * and each structure's layout; and every check the decoders make.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "rpc_wire.h"

#define EXPECT(got, ...)                                                   \
	do {                                                               \
		static const uint8_t want_[] = { __VA_ARGS__ };            \
		th_assert_bytes((got), sizeof(want_), want_, sizeof(want_)); \
	} while (0)

/* ---- connection set-up ------------------------------------------------- */

Test(rpc_wire, conn_header_observed)
{
	/* 01000000 00 01 0000000000000000 0000: version 1, outgoing, fd mode
	 * UNIX, new session */
	static const uint8_t obs[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct bc_rpc_conn_header h = { .version = 1, .options = 0, .fd_mode = BC_RPC_FD_MODE_UNIX };
	uint8_t out[16];

	bc__rpc_conn_header_encode(&h, out);
	th_assert_bytes(out, 16, obs, 16);
	memset(&h, 0xff, sizeof(h));
	cr_assert_eq(bc__rpc_conn_header_decode(obs, &h), 0);
	cr_assert_eq(h.version, 1);
	cr_assert_eq(h.options, 0);
	cr_assert_eq(h.fd_mode, 1);
	cr_assert_eq(h.session_id_size, 0);
}

Test(rpc_wire, conn_header_join_incoming)
{
	struct bc_rpc_conn_header h = { .version = 2, .options = BC_RPC_CONN_OPTION_INCOMING, .session_id_size = 32 };
	uint8_t out[16];

	bc__rpc_conn_header_encode(&h, out);
	EXPECT(out, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0);
	cr_assert_eq(bc__rpc_conn_header_decode(out, &h), 0);
	cr_assert_eq(h.options, BC_RPC_CONN_OPTION_INCOMING);
	cr_assert_eq(h.session_id_size, 32);
}

Test(rpc_wire, conn_header_refused)
{
	struct bc_rpc_conn_header h;
	uint8_t in[16] = { 1 };

	in[4] = 2; /* an unknown option */
	cr_assert_eq(bc__rpc_conn_header_decode(in, &h), -EBADMSG);
	in[4] = 0;
	in[5] = 3; /* an unknown fd mode */
	cr_assert_eq(bc__rpc_conn_header_decode(in, &h), -EBADMSG);
	in[5] = 0;
	in[14] = 31; /* a session id of another size than 32 */
	cr_assert_eq(bc__rpc_conn_header_decode(in, &h), -EBADMSG);
	in[14] = 0;
	in[15] = 1; /* 256 */
	cr_assert_eq(bc__rpc_conn_header_decode(in, &h), -EBADMSG);
	in[15] = 0;
	memset(in + 6, 0xee, 8); /* reserved bytes are ignored */
	cr_assert_eq(bc__rpc_conn_header_decode(in, &h), 0);
}

Test(rpc_wire, new_session_response_and_cci)
{
	uint8_t out[8];
	uint32_t v = 99;

	bc__rpc_new_session_response_encode(1, out);
	EXPECT(out, 1, 0, 0, 0, 0, 0, 0, 0);
	bc__rpc_new_session_response_decode(out, &v);
	cr_assert_eq(v, 1);
	bc__rpc_conn_init_encode(out);
	EXPECT(out, 0x63, 0x63, 0x69, 0, 0, 0, 0, 0); /* "cci" */
	cr_assert_eq(bc__rpc_conn_init_check(out), 0);
	out[5] = 0x55; /* reserved */
	cr_assert_eq(bc__rpc_conn_init_check(out), 0);
	out[2] = 'x';
	cr_assert_eq(bc__rpc_conn_init_check(out), -EBADMSG);
}

Test(rpc_wire, version_negotiation)
{
	cr_assert_eq(bc__rpc_server_version(1, 1), 1);
	cr_assert_eq(bc__rpc_server_version(2, 1), 1); /* an Android 14 server */
	cr_assert_eq(bc__rpc_server_version(0, 2), 0); /* an Android 13 client */
	cr_assert_eq(bc__rpc_server_version(BC_RPC_V_EXPERIMENTAL, 2), 2);
	cr_assert(bc__rpc_client_accepts(2, 0));
	cr_assert(bc__rpc_client_accepts(2, 1));
	cr_assert(bc__rpc_client_accepts(2, 2));
	cr_assert(!bc__rpc_client_accepts(1, 2)); /* above the proposal */
	cr_assert(!bc__rpc_client_accepts(2, 3));
	cr_assert(!bc__rpc_client_accepts(BC_RPC_V_EXPERIMENTAL, BC_RPC_V_EXPERIMENTAL));
}

/* ---- framing ------------------------------------------------------------- */

Test(rpc_wire, wire_header_observed)
{
	struct bc_rpc_wire_header h;
	uint8_t out[16];

	bc__rpc_wire_header_encode(BC_RPC_CMD_TRANSACT, 40, out);
	EXPECT(out, 0, 0, 0, 0, 0x28, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	bc__rpc_wire_header_encode(BC_RPC_CMD_REPLY, 24, out);
	EXPECT(out, 1, 0, 0, 0, 0x18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	cr_assert_eq(bc__rpc_wire_header_decode(out, &h), 0);
	cr_assert_eq(h.command, BC_RPC_CMD_REPLY);
	cr_assert_eq(h.body_size, 24);
}

Test(rpc_wire, wire_header_refused)
{
	struct bc_rpc_wire_header h;
	uint8_t out[16];

	bc__rpc_wire_header_encode(3, 0, out); /* unknown command */
	cr_assert_eq(bc__rpc_wire_header_decode(out, &h), -EBADMSG);
	bc__rpc_wire_header_encode(BC_RPC_CMD_TRANSACT, BC_RPC_MAX_BODY, out);
	cr_assert_eq(bc__rpc_wire_header_decode(out, &h), 0);
	bc__rpc_wire_header_encode(BC_RPC_CMD_TRANSACT, BC_RPC_MAX_BODY + 1, out);
	cr_assert_eq(bc__rpc_wire_header_decode(out, &h), -EMSGSIZE);
	bc__rpc_wire_header_encode(BC_RPC_CMD_TRANSACT, UINT32_MAX, out);
	cr_assert_eq(bc__rpc_wire_header_decode(out, &h), -EMSGSIZE);
}

/* ---- addresses ----------------------------------------------------------- */

Test(rpc_wire, addresses)
{
	uint8_t out[16];

	/* a server's first object: options 3, id 0; a client's: 0x1 */
	cr_assert_eq(bc__rpc_addr(BC_RPC_ADDR_CREATED | BC_RPC_ADDR_FOR_SERVER, 0), 3);
	cr_assert_eq(bc__rpc_addr(BC_RPC_ADDR_CREATED, 0), 1);
	bc__rpc_dec_strong_encode(bc__rpc_addr(3, 7), 1, out);
	/* options first, then the id */
	EXPECT(out, 3, 0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
	cr_assert_eq(bc__rpc_addr_check(bc__rpc_addr(1, 5)), 0);
	cr_assert_eq(bc__rpc_addr_check(bc__rpc_addr(3, 0)), 0);
	cr_assert_eq(bc__rpc_addr_check(bc__rpc_addr(7, 0)), -EBADMSG);
	cr_assert_eq(bc__rpc_addr_check(bc__rpc_addr(0x80000001u, 0)), -EBADMSG);
	cr_assert_eq(bc__rpc_addr_check(bc__rpc_addr(2, 4)), -EBADMSG); /* not CREATED */
}

/* ---- TRANSACT ------------------------------------------------------------ */

/* The observed GET_MAX_THREADS: address 0, code 1, no data. */
static const uint8_t get_max_threads[40] = { 0, 0, 0, 0, 0, 0, 0, 0, 1 };

Test(rpc_wire, transaction_observed)
{
	struct bc_rpc_transaction t = { .code = BC_RPC_SPECIAL_GET_MAX_THREADS };
	struct bc_rpc_payload pl;
	uint8_t out[40];

	bc__rpc_transaction_encode(&t, out);
	th_assert_bytes(out, 40, get_max_threads, 40);
	for (uint32_t v = 0; v <= BC_RPC_V2; v++) {
		memset(&t, 0xff, sizeof(t));
		cr_assert_eq(bc__rpc_transaction_decode(get_max_threads, 40, v, &t, &pl), 0);
		cr_assert_eq(t.address, 0);
		cr_assert_eq(t.code, 1);
		cr_assert_eq(t.flags, 0);
		cr_assert_eq(t.async_number, 0);
		cr_assert_eq(pl.data_size, 0);
		cr_assert_eq(pl.n_table, 0);
	}
}

Test(rpc_wire, transaction_fields)
{
	struct bc_rpc_transaction t = {
		.address = bc__rpc_addr(3, 0x01020304),
		.code = 0x5f504e47, /* '_PNG' */
		.flags = BC_RPC_FLAG_ONEWAY,
		.async_number = 0x1122334455667788ull,
		.data_size = 8,
	};
	uint8_t body[40 + 8 + 4] = { 0 };
	struct bc_rpc_payload pl;

	bc__rpc_transaction_encode(&t, body);
	EXPECT(body, 3, 0, 0, 0, 4, 3, 2, 1, 0x47, 0x4e, 0x50, 0x5f, 1, 0, 0, 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22,
	       0x11, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	memcpy(body + 40, "abcdefgh", 8);
	/* v1: 8 bytes of data, then 4 bytes = one table entry (at 0) */
	cr_assert_eq(bc__rpc_transaction_decode(body, 52, BC_RPC_V1, &t, &pl), 0);
	cr_assert_eq(pl.n_table, 1);
	/* v2: a table entry at offset 4 (the type word fits in the data) */
	bc__put_le32(body + 48, 4);
	cr_assert_eq(bc__rpc_transaction_decode(body, 52, BC_RPC_V2, &t, &pl), 0);
	cr_assert_eq(pl.data_size, 8);
	cr_assert_eq(pl.n_table, 1);
	cr_assert(memcmp(pl.data, "abcdefgh", 8) == 0);
	/* v0: everything after the 40 bytes is data; the size field is not read */
	cr_assert_eq(bc__rpc_transaction_decode(body, 52, BC_RPC_V0, &t, &pl), 0);
	cr_assert_eq(pl.data_size, 12);
	cr_assert_eq(t.data_size, 12);
	cr_assert_eq(pl.n_table, 0);
	/* v1 without a table */
	cr_assert_eq(bc__rpc_transaction_decode(body, 48, BC_RPC_V1, &t, &pl), 0);
	cr_assert_eq(pl.data_size, 8);
}

Test(rpc_wire, transaction_refused)
{
	struct bc_rpc_transaction t = { .address = 3, .data_size = 8 };
	uint8_t body[60] = { 0 };
	struct bc_rpc_payload pl;

	bc__rpc_transaction_encode(&t, body);
	cr_assert_eq(bc__rpc_transaction_decode(body, 39, BC_RPC_V0, &t, &pl), -EBADMSG); /* short */
	cr_assert_eq(bc__rpc_transaction_decode(body, 47, BC_RPC_V1, &t, &pl), -EBADMSG); /* data cut */
	cr_assert_eq(bc__rpc_transaction_decode(body, 50, BC_RPC_V2, &t, &pl), -EBADMSG); /* table not x4 */
	bc__put_le32(body + 24, UINT32_MAX); /* a size beyond the body */
	cr_assert_eq(bc__rpc_transaction_decode(body, 60, BC_RPC_V1, &t, &pl), -EBADMSG);
	bc__put_le32(body + 24, 8);
	bc__put_le32(body + 48, 6); /* entry not aligned */
	cr_assert_eq(bc__rpc_transaction_decode(body, 52, BC_RPC_V2, &t, &pl), -EBADMSG);
	bc__put_le32(body + 48, 8); /* type word past the data */
	cr_assert_eq(bc__rpc_transaction_decode(body, 52, BC_RPC_V2, &t, &pl), -EBADMSG);
	bc__put_le32(body + 48, 4);
	bc__put_le32(body + 52, 0); /* not increasing */
	cr_assert_eq(bc__rpc_transaction_decode(body, 56, BC_RPC_V2, &t, &pl), -EBADMSG);
	bc__put_le32(body + 52, 4);
	cr_assert_eq(bc__rpc_transaction_decode(body, 56, BC_RPC_V2, &t, &pl), -EBADMSG);
	bc__put_le64(body, bc__rpc_addr(0x10, 0)); /* unknown address bit */
	cr_assert_eq(bc__rpc_transaction_decode(body, 48, BC_RPC_V1, &t, &pl), -EBADMSG);
}

/* ---- REPLY ---------------------------------------------------------------- */

Test(rpc_wire, reply_observed)
{
	/* status 0, parcelDataSize 4, 12 reserved, int32 1 */
	static const uint8_t obs[24] = { 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 };
	struct bc_rpc_payload pl;
	uint8_t out[20];
	int32_t st = 9;

	bc__rpc_reply_encode(0, 4, BC_RPC_V1, out);
	th_assert_bytes(out, 20, obs, 20);
	cr_assert_eq(bc__rpc_reply_decode(obs, 24, BC_RPC_V1, &st, &pl), 0);
	cr_assert_eq(st, 0);
	cr_assert_eq(pl.data_size, 4);
	cr_assert_eq(bc__get_le32(pl.data), 1);
	cr_assert_eq(bc__rpc_reply_decode(obs, 24, BC_RPC_V2, &st, &pl), 0);
}

Test(rpc_wire, reply_v0)
{
	uint8_t body[20] = { 0 };
	struct bc_rpc_payload pl;
	int32_t st;

	cr_assert_eq(bc__rpc_reply_size(BC_RPC_V0), 4);
	cr_assert_eq(bc__rpc_reply_size(BC_RPC_V1), 20);
	bc__rpc_reply_encode(-74, 4, BC_RPC_V0, body); /* UNKNOWN_TRANSACTION */
	EXPECT(body, 0xb6, 0xff, 0xff, 0xff, 0, 0, 0, 0);
	bc__put_le32(body + 4, 42);
	cr_assert_eq(bc__rpc_reply_decode(body, 8, BC_RPC_V0, &st, &pl), 0);
	cr_assert_eq(st, -74);
	cr_assert_eq(pl.data_size, 4);
	cr_assert_eq(bc__rpc_reply_decode(body, 3, BC_RPC_V0, &st, &pl), -EBADMSG);
}

Test(rpc_wire, reply_refused)
{
	uint8_t body[28] = { 0 };
	struct bc_rpc_payload pl;
	int32_t st;

	cr_assert_eq(bc__rpc_reply_decode(body, 4, BC_RPC_V1, &st, &pl), -EBADMSG); /* a v0 reply at v1 */
	cr_assert_eq(bc__rpc_reply_decode(body, 19, BC_RPC_V1, &st, &pl), -EBADMSG);
	bc__put_le32(body + 4, 9); /* data beyond the body */
	cr_assert_eq(bc__rpc_reply_decode(body, 28, BC_RPC_V1, &st, &pl), -EBADMSG);
	bc__put_le32(body + 4, 6); /* 2 bytes left: not a table */
	cr_assert_eq(bc__rpc_reply_decode(body, 28, BC_RPC_V1, &st, &pl), -EBADMSG);
	bc__put_le32(body + 4, 4); /* one entry (at 0), one word of data */
	cr_assert_eq(bc__rpc_reply_decode(body, 28, BC_RPC_V1, &st, &pl), 0);
	cr_assert_eq(pl.n_table, 1);
	bc__put_le32(body + 24, 4); /* an entry whose type word is past the data */
	cr_assert_eq(bc__rpc_reply_decode(body, 28, BC_RPC_V1, &st, &pl), -EBADMSG);
	bc__put_le32(body + 4, 8);
	cr_assert_eq(bc__rpc_reply_decode(body, 28, BC_RPC_V1, &st, &pl), 0);
}

/* ---- DEC_STRONG ---------------------------------------------------------- */

Test(rpc_wire, dec_strong_observed)
{
	/* "DEC_STRONG address 0x3 amount 1" */
	uint8_t out[16];
	uint64_t a;
	uint32_t n;

	bc__rpc_dec_strong_encode(3, 1, out);
	EXPECT(out, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0);
	cr_assert_eq(bc__rpc_dec_strong_decode(out, 16, &a, &n), 0);
	cr_assert_eq(a, 3);
	cr_assert_eq(n, 1);
	cr_assert_eq(bc__rpc_dec_strong_decode(out, 15, &a, &n), -EBADMSG);
	cr_assert_eq(bc__rpc_dec_strong_decode(out, 17, &a, &n), -EBADMSG);
	out[0] = 0; /* the special address names no object */
	cr_assert_eq(bc__rpc_dec_strong_decode(out, 16, &a, &n), -EBADMSG);
}
