/* SPDX-License-Identifier: MIT */
/* A raw peer for the RPC binder tests: byte streams built by hand (with
 * the wire module's encoders), written into one end of a socketpair
 * before the library reads the other end. */
#ifndef BINDERC_RPCRAW_H
#define BINDERC_RPCRAW_H

#include "rpc_wire.h"
#include "rpct.h"

struct raw {
	uint8_t b[4096];
	size_t n;
};

static inline void raw_put(struct raw *r, const void *p, size_t n)
{
	cr_assert_leq(r->n + n, sizeof(r->b));
	if (n)
		memcpy(r->b + r->n, p, n);
	r->n += n;
}

static inline void raw_u32(struct raw *r, uint32_t v)
{
	uint8_t b[4];

	bc__put_le32(b, v);
	raw_put(r, b, 4);
}

static inline void raw_u64(struct raw *r, uint64_t v)
{
	uint8_t b[8];

	bc__put_le64(b, v);
	raw_put(r, b, 8);
}

/* A client's set-up: header (new session, fd mode NONE) and "cci". */
static inline void raw_client_setup(struct raw *r, uint32_t version)
{
	struct bc_rpc_conn_header h = { .version = version };
	uint8_t b[BC_RPC_CONN_HEADER_SIZE + BC_RPC_CONN_INIT_SIZE];

	bc__rpc_conn_header_encode(&h, b);
	bc__rpc_conn_init_encode(b + BC_RPC_CONN_HEADER_SIZE);
	raw_put(r, b, sizeof(b));
}

static inline void raw_cmd(struct raw *r, uint32_t cmd, uint32_t body_size)
{
	uint8_t b[BC_RPC_WIRE_HEADER_SIZE];

	bc__rpc_wire_header_encode(cmd, body_size, b);
	raw_put(r, b, sizeof(b));
}

/* A TRANSACT (version >= 1 layout) with @n bytes of parcel data. */
static inline void raw_transact(struct raw *r, uint64_t addr, uint32_t code, uint32_t flags, uint64_t async,
				const void *data, size_t n)
{
	struct bc_rpc_transaction t = {
		.address = addr, .code = code, .flags = flags, .async_number = async, .data_size = (uint32_t)n
	};
	uint8_t b[BC_RPC_TRANSACTION_SIZE];

	raw_cmd(r, BC_RPC_CMD_TRANSACT, (uint32_t)(sizeof(b) + n));
	bc__rpc_transaction_encode(&t, b);
	raw_put(r, b, sizeof(b));
	raw_put(r, data, n);
}

/* A REPLY at @version with @n bytes of parcel data. */
static inline void raw_reply(struct raw *r, uint32_t version, int32_t status, const void *data, size_t n)
{
	uint8_t b[BC_RPC_REPLY_SIZE];
	size_t fixed = bc__rpc_reply_size(version);

	raw_cmd(r, BC_RPC_CMD_REPLY, (uint32_t)(fixed + n));
	bc__rpc_reply_encode(status, (uint32_t)n, version, b);
	raw_put(r, b, fixed);
	raw_put(r, data, n);
}

/* What a server answers to a client's set-up at @version: the version,
 * GET_MAX_THREADS (1), GET_SESSION_ID (32 bytes). */
static inline void raw_server_setup(struct raw *r, uint32_t version)
{
	uint8_t b[BC_RPC_NEW_SESSION_RESPONSE_SIZE], id[4 + 32];
	uint32_t one = 0;

	bc__rpc_new_session_response_encode(version, b);
	raw_put(r, b, sizeof(b));
	bc__put_le32((uint8_t *)&one, 1);
	raw_reply(r, version, 0, &one, 4);
	memset(id, 0xab, sizeof(id));
	bc__put_le32(id, 32);
	raw_reply(r, version, 0, id, sizeof(id));
}

/* A socketpair; @r written into [1] and [1]'s sending side shut, so that
 * the library reading [0] meets the end of the stream after it. */
static inline void raw_feed(const struct raw *r, int sv[2])
{
	size_t off = 0;

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	while (off < r->n) {
		ssize_t n = write(sv[1], r->b + off, r->n - off);

		cr_assert_gt(n, 0);
		off += (size_t)n;
	}
	cr_assert_eq(shutdown(sv[1], SHUT_WR), 0);
}

/* Serve the client stream @r with a fresh adder as root, fds allowed or
 * not; the result. */
static inline int raw_serve_fds(const struct raw *r, uint32_t cap, bool fds, struct raw *answer)
{
	struct rpct_adder a;
	bc_rpc_server *srv = NULL;
	int sv[2], res;

	rpct_adder_new(&a);
	raw_feed(r, sv);
	cr_assert_eq(bc_rpc_server_new(a.self, &srv), 0);
	cr_assert_eq(bc_rpc_server_set_max_version(srv, cap), 0);
	cr_assert_eq(bc_rpc_server_set_fds(srv, fds), 0);
	res = bc_rpc_server_serve_fd(srv, sv[0]);
	if (answer) {
		ssize_t n = read(sv[1], answer->b, sizeof(answer->b));

		answer->n = n > 0 ? (size_t)n : 0;
	}
	close(sv[1]);
	bc_rpc_server_unref(srv);
	bc_binder_unref(a.self);
	/* whatever happened, the object was given back */
	cr_assert_eq(atomic_load(&a.destroyed), 1);
	return res;
}

static inline int raw_serve(const struct raw *r, uint32_t cap, struct raw *answer)
{
	return raw_serve_fds(r, cap, false, answer);
}

#endif
