/* SPDX-License-Identifier: MIT */
/*
 * Joins a server must refuse, written by hand: an unknown session id, a
 * session id of the wrong size, a session that has ended, connections
 * beyond the server's per-session limits.  Each refused connection is
 * closed; the session it named goes on.
 */
#include <poll.h>

#include "rpc_internal.h"
#include "rpcraw.h"

/* A join header for session @id (of @id_size bytes), then "cci" if
 * outgoing. */
static void raw_join(struct raw *r, const uint8_t *id, uint16_t id_size, bool incoming)
{
	uint8_t b[BC_RPC_CONN_HEADER_SIZE];

	/* encoded by hand: the encoder takes only what is valid */
	memset(b, 0, sizeof(b));
	bc__put_le32(b, 1);
	b[4] = incoming ? BC_RPC_CONN_OPTION_INCOMING : 0;
	b[14] = (uint8_t)(id_size & 0xff);
	b[15] = (uint8_t)(id_size >> 8);
	raw_put(r, b, sizeof(b));
	raw_put(r, id, id_size);
	if (!incoming) {
		bc__rpc_conn_init_encode(b);
		raw_put(r, b, BC_RPC_CONN_INIT_SIZE);
	}
}

/* Connect to @addr, send @r, and wait (bounded) for the server to close
 * the connection; true if it did, having sent nothing but, for an
 * accepted incoming join, "cci". */
static bool refused(const char *addr, const struct raw *r)
{
	int64_t end = th_now_ms() + TH_HANG_MS;
	uint8_t buf[64];
	size_t got = 0;
	int fd = -1;

	cr_assert_eq(bc_rpc_connect(addr, 0, &fd), 0);
	cr_assert_eq(send(fd, r->b, r->n, MSG_NOSIGNAL), (ssize_t)r->n);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int64_t left = end - th_now_ms();
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) != 1)
			break; /* still open: not refused */
		n = recv(fd, buf + got, sizeof(buf) - got, 0);
		if (n <= 0) {
			close(fd);
			return got == 0;
		}
		got += (size_t)n;
		if (got == sizeof(buf))
			break;
	}
	close(fd);
	return false;
}

struct fixture {
	struct rpct_adder a;
	struct joiner j;
	char addr[96];
	bc_rpc_session *s;
	bc_binder *root;
};

static void setup(struct fixture *f, unsigned max_incoming)
{
	memset(f, 0, sizeof(*f));
	rpct_adder_new(&f->a);
	joiner_start(&f->j, f->a.self, 0, f->addr, sizeof(f->addr));
	cr_assert_eq(bc_rpc_server_set_max_incoming(f->j.srv, max_incoming), 0);
	cr_assert_eq(bc_rpc_session_connect(f->addr, BINDERC_RPC_VERSION_DEFAULT, 0, &f->s), 0);
	cr_assert_eq(bc_rpc_session_get_root(f->s, &f->root), 0);
}

static void still_works(struct fixture *f)
{
	int32_t v = 0;

	cr_assert_eq(rpct_add(f->root, 30, 12, &v), 0);
	cr_assert_eq(v, 42);
	cr_assert_eq(bc_rpc_session_get_error(f->s), 0);
}

static void teardown(struct fixture *f)
{
	bc_binder_unref(f->root);
	bc_rpc_session_unref(f->s);
	cr_assert_eq(joiner_stop(&f->j), 0);
	bc_binder_unref(f->a.self);
}

Test(rpc_join, unknown_and_malformed_ids)
{
	struct fixture f;
	struct raw r = { .n = 0 };
	uint8_t id[64];

	setup(&f, 1);
	memcpy(id, f.s->id, 32);
	id[31] ^= 1; /* one bit off */
	raw_join(&r, id, 32, false);
	cr_assert(refused(f.addr, &r));
	r.n = 0;
	raw_join(&r, id, 32, true);
	cr_assert(refused(f.addr, &r));
	/* the right id at a size no session id has */
	r.n = 0;
	memcpy(id, f.s->id, 32);
	raw_join(&r, id, 16, false);
	cr_assert(refused(f.addr, &r));
	r.n = 0;
	raw_join(&r, id, 33, false);
	cr_assert(refused(f.addr, &r));
	still_works(&f);
	teardown(&f);
}

/* The server serves one connection per session (its default): a second
 * outgoing one, sent by hand past the library's own check, is closed. */
Test(rpc_join, beyond_limits)
{
	struct fixture f;
	struct raw r = { .n = 0 };

	setup(&f, 1);
	raw_join(&r, f.s->id, 32, false);
	cr_assert(refused(f.addr, &r));
	still_works(&f);
	/* one incoming connection is allowed, a second is not */
	cr_assert_eq(bc_rpc_session_join(f.s, f.addr, 0, true), 0);
	r.n = 0;
	raw_join(&r, f.s->id, 32, true);
	cr_assert(refused(f.addr, &r));
	still_works(&f);
	teardown(&f);
}

Test(rpc_join, no_incoming_allowed)
{
	struct fixture f;

	setup(&f, 0);
	cr_assert_eq(bc_rpc_session_join(f.s, f.addr, 0, true), -EPIPE);
	still_works(&f);
	teardown(&f);
}

/* A session that has ended cannot be joined. */
Test(rpc_join, ended_session)
{
	struct fixture f;
	struct raw r = { .n = 0 };
	uint8_t id[32];
	int64_t end;
	bool ok;

	setup(&f, 1);
	memcpy(id, f.s->id, 32);
	bc_binder_unref(f.root);
	f.root = NULL;
	bc_rpc_session_shutdown(f.s);
	raw_join(&r, id, 32, true);
	/* its end may take the server a moment to see: until it does, a
	 * join may still be taken (and the session's end then closes it) */
	end = th_now_ms() + TH_HANG_MS;
	while (!(ok = refused(f.addr, &r)) && th_nap_until(end))
		;
	cr_assert(ok);
	cr_assert_eq(bc_rpc_session_get_error(f.s), -ESHUTDOWN);
	bc_rpc_session_unref(f.s);
	f.s = NULL;
	cr_assert_eq(joiner_stop(&f.j), 0);
	bc_binder_unref(f.a.self);
}
