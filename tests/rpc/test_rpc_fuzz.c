/* SPDX-License-Identifier: MIT */
/*
 * A short fuzz run over the RPC stream readers: valid client and server
 * streams, mutated (bytes flipped, words replaced, cut short) with a
 * fixed-seed generator (RPC_FUZZ_SEED picks another, RPC_FUZZ_ITERS a
 * longer run), fed to our server and our client.  Whatever comes, the
 * session ends with one of the documented errors, never a crash, a leak
 * or a sanitizer report.
 */
#include <stdlib.h>

#include "rpcraw.h"

static uint64_t rng;

static uint32_t next(void)
{
	/* xorshift64*: enough for choosing mutations */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static void seed(void)
{
	const char *e = getenv("RPC_FUZZ_SEED");

	rng = e ? strtoull(e, NULL, 0) : 0x62696e646572ull;
	if (!rng)
		rng = 1;
}

static unsigned iterations(void)
{
	const char *e = getenv("RPC_FUZZ_ITERS");

	return e ? (unsigned)strtoul(e, NULL, 0) : 600;
}

static void mutate(struct raw *r)
{
	unsigned n = 1 + next() % 4;

	for (unsigned i = 0; i < n && r->n; i++) {
		size_t at = next() % r->n;

		switch (next() % 4) {
		case 0: /* flip a byte */
			r->b[at] ^= (uint8_t)(1u << (next() % 8));
			break;
		case 1: /* a random byte */
			r->b[at] = (uint8_t)next();
			break;
		case 2: /* a boundary word */
			if (at + 4 <= r->n) {
				static const uint32_t words[] = { 0, 1, 2, 3, 0xffffffffu, 0x80000000u, 100000, 100001, 40 };

				bc__put_le32(r->b + at, words[next() % (sizeof(words) / sizeof(words[0]))]);
			}
			break;
		default: /* cut */
			r->n = at;
			break;
		}
	}
}

Test(rpc_fuzz, server_reader)
{
	struct raw base = { .n = 0 };
	uint8_t args[8] = { 5, 0, 0, 0, 6, 0, 0, 0 };
	uint8_t dec[BC_RPC_DEC_STRONG_SIZE];

	raw_client_setup(&base, 1);
	raw_transact(&base, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	raw_transact(&base, 0, BC_RPC_SPECIAL_GET_SESSION_ID, 0, 0, NULL, 0);
	raw_transact(&base, bc__rpc_addr(3, 0), RPCT_ADD, 0, 0, args, 8);
	raw_transact(&base, bc__rpc_addr(3, 0), RPCT_RECORD, BC_RPC_FLAG_ONEWAY, 0, args, 4);
	raw_transact(&base, bc__rpc_addr(3, 0), 0x5f504e47, 0, 0, NULL, 0);
	{
		/* a callback object of the client's: the server calls it back
		 * (code 1, 21) and reads the reply written here, 42 */
		struct raw p = { .n = 0 };
		uint8_t answer[4] = { 42, 0, 0, 0 };

		raw_u32(&p, 1);
		raw_u64(&p, bc__rpc_addr(BC_RPC_ADDR_CREATED, 0));
		raw_u32(&p, BINDERC_STABILITY_SYSTEM);
		raw_u32(&p, 21);
		raw_transact(&base, bc__rpc_addr(3, 0), RPCT_CALL_BACK, 0, 0, p.b, p.n);
		raw_reply(&base, 1, 0, answer, 4);
	}
	{
		/* an fd object the table does not list: the handler's read
		 * fails (mutations may list it, or make a table of it) */
		uint8_t fdobj[8] = { 2, 0, 0, 0, 0, 0, 0, 0 };

		raw_transact(&base, bc__rpc_addr(3, 0), RPCT_FD, 0, 0, fdobj, 8);
	}
	raw_cmd(&base, BC_RPC_CMD_DEC_STRONG, BC_RPC_DEC_STRONG_SIZE);
	bc__rpc_dec_strong_encode(bc__rpc_addr(3, 0), 1, dec);
	raw_put(&base, dec, sizeof(dec));
	cr_assert_eq(raw_serve(&base, 1, NULL), 0);
	seed();
	for (unsigned i = 0, n = iterations(); i < n; i++) {
		struct raw r = base;
		int res;

		/* half the runs in fd mode UNIX: tables and fd objects matter */
		if (i % 2)
			r.b[5] = BC_RPC_FD_MODE_UNIX;
		mutate(&r);
		res = raw_serve_fds(&r, next() % 3, next() % 4 != 0, NULL);
		/* -EPIPE: the stream ended while a call back to the client
		 * waited for its reply */
		cr_assert(res == 0 || res == -EBADMSG || res == -EMSGSIZE || res == -EPROTO || res == -ENOENT ||
				  res == -EOPNOTSUPP || res == -EPIPE,
			  "iteration %u: %d", i, res);
	}
}

Test(rpc_fuzz, client_reader)
{
	struct raw base = { .n = 0 }, p = { .n = 0 };
	uint8_t sum[4] = { 11, 0, 0, 0 };

	raw_server_setup(&base, 1);
	raw_u32(&p, 1);
	raw_u64(&p, bc__rpc_addr(3, 0));
	raw_u32(&p, BINDERC_STABILITY_SYSTEM);
	raw_reply(&base, 1, 0, p.b, p.n);
	raw_cmd(&base, BC_RPC_CMD_DEC_STRONG, BC_RPC_DEC_STRONG_SIZE);
	{
		uint8_t dec[BC_RPC_DEC_STRONG_SIZE];

		bc__rpc_dec_strong_encode(bc__rpc_addr(3, 0), 1, dec);
		raw_put(&base, dec, sizeof(dec));
	}
	/* the server's own calls while the client waits: the client answers */
	raw_transact(&base, 0, BC_RPC_SPECIAL_GET_MAX_THREADS, 0, 0, NULL, 0);
	raw_transact(&base, 0, BC_RPC_SPECIAL_GET_ROOT, BC_RPC_FLAG_ONEWAY, 0, NULL, 0);
	raw_reply(&base, 1, 0, sum, 4);
	seed();
	for (unsigned i = 0, n = iterations(); i < n; i++) {
		struct raw r = base;
		bc_rpc_session *s = NULL;
		bc_binder *b = NULL;
		int32_t v = 0;
		int sv[2], res;

		if (i)
			mutate(&r);
		raw_feed(&r, sv);
		res = bc_rpc_session_connect_fd(sv[0], 1 + next() % 2, i % 2 ? BINDERC_RPC_FDS : 0, &s);
		if (res == 0)
			res = bc_rpc_session_get_root(s, &b);
		if (res == 0 && b)
			res = rpct_add(b, 5, 6, &v);
		if (i == 0)
			cr_assert(res == 0 && v == 11, "the unmutated stream: %d", res);
		/* a mutated status word may be any status: only never positive */
		cr_assert_leq(res, 0, "iteration %u: %d", i, res);
		if (s && bc_rpc_session_get_error(s))
			cr_assert(!b || !bc_binder_is_alive(b));
		bc_binder_unref(b);
		bc_rpc_session_unref(s);
		close(sv[1]);
	}
}
