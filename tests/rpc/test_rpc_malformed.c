/* SPDX-License-Identifier: MIT */
/*
 * Malformed and truncated RPC streams end their session, and only it,
 * with a clear error; plus the bytes our client and server put on the
 * wire, against those rpc-binder-wire.md observed between two Android 14
 * programs.
 */
#include "rpcraw.h"

/* ---- the bytes on the wire ------------------------------------------------ */

/* Our server answers the observed session start byte for byte. */
Test(rpc_raw, server_answers_as_observed)
{
	static const uint8_t want[] = {
		1, 0, 0, 0, 0, 0, 0, 0, /* RpcNewSessionResponse: version 1 */
		1, 0, 0, 0, 0x18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* REPLY, body 24 */
		0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
	};
	struct raw in = { .n = 0 }, out;

	raw_client_setup(&in, 1);
	raw_transact(&in, 0, BC_RPC_SPECIAL_GET_MAX_THREADS, 0, 0, NULL, 0);
	cr_assert_eq(raw_serve(&in, 1, &out), 0);
	th_assert_bytes(out.b, out.n, want, sizeof(want));
}

/* Our client's first bytes are the observed ones (fd mode NONE), then
 * GET_SESSION_ID. */
Test(rpc_raw, client_sends_as_observed)
{
	static const uint8_t want[] = {
		1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* header: v1, outgoing, fd mode 0, new */
		0x63, 0x63, 0x69, 0, 0, 0, 0, 0, /* "cci" */
		0, 0, 0, 0, 0x28, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* TRANSACT, body 40 */
		0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* address 0, code 1 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0x28, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* TRANSACT, body 40 */
		0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* address 0, code 2 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	struct raw srv = { .n = 0 }, out;
	bc_rpc_session *s = NULL;
	int sv[2];
	ssize_t n;

	raw_server_setup(&srv, 1);
	raw_feed(&srv, sv);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], 1, 0, &s), 0);
	n = read(sv[1], out.b, sizeof(out.b));
	cr_assert_gt(n, 0);
	th_assert_bytes(out.b, (size_t)n, want, sizeof(want));
	bc_rpc_session_unref(s);
	close(sv[1]);
}

/* ---- a server meets a bad client ------------------------------------------ */

Test(rpc_raw, server_setup_refused)
{
	struct raw r = { .n = 0 };
	uint8_t hdr[16] = { 1 };

	cr_assert_eq(raw_serve(&r, 1, NULL), -EPROTO); /* nothing at all */
	raw_put(&r, hdr, 8);
	cr_assert_eq(raw_serve(&r, 1, NULL), -EPROTO); /* half a header */
	r.n = 0;
	hdr[4] = 0x80; /* an unknown option */
	raw_put(&r, hdr, 16);
	cr_assert_eq(raw_serve(&r, 1, NULL), -EBADMSG);
	r.n = 0;
	hdr[4] = BC_RPC_CONN_OPTION_INCOMING; /* a new session on an incoming connection */
	raw_put(&r, hdr, 16);
	cr_assert_eq(raw_serve(&r, 1, NULL), -EBADMSG);
	r.n = 0;
	hdr[4] = 0;
	hdr[14] = 32; /* a join: unknown session */
	raw_put(&r, hdr, 16);
	raw_put(&r, r.b + 200, 32);
	cr_assert_eq(raw_serve(&r, 1, NULL), -ENOENT);
	r.n = 0;
	hdr[14] = 0;
	hdr[5] = BC_RPC_FD_MODE_UNIX; /* fds are not served */
	raw_put(&r, hdr, 16);
	cr_assert_eq(raw_serve(&r, 1, NULL), -EOPNOTSUPP);
	r.n = 0;
	hdr[5] = 0;
	raw_put(&r, hdr, 16);
	raw_put(&r, "ccx\0\0\0\0\0", 8); /* a wrong init message */
	cr_assert_eq(raw_serve(&r, 1, NULL), -EBADMSG);
	r.n = 0;
	raw_put(&r, hdr, 16);
	raw_put(&r, "cci", 4); /* cut */
	cr_assert_eq(raw_serve(&r, 1, NULL), -EPROTO);
}

/* A valid set-up and then @tail: what serving it returns. */
static int serve_after_setup(const void *tail, size_t n)
{
	struct raw r = { .n = 0 };

	raw_client_setup(&r, 1);
	raw_put(&r, tail, n);
	return raw_serve(&r, 1, NULL);
}

Test(rpc_raw, server_commands_refused)
{
	struct raw t = { .n = 0 };
	uint8_t zeros[64] = { 0 };

	cr_assert_eq(serve_after_setup(NULL, 0), 0); /* the client just goes */
	raw_cmd(&t, 3, 0); /* an unknown command */
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_cmd(&t, BC_RPC_CMD_TRANSACT, BC_RPC_MAX_BODY + 1); /* too big */
	cr_assert_eq(serve_after_setup(t.b, t.n), -EMSGSIZE);
	t.n = 0;
	raw_cmd(&t, BC_RPC_CMD_TRANSACT, 40); /* the body cut short */
	raw_put(&t, zeros, 20);
	cr_assert_eq(serve_after_setup(t.b, t.n), -EPROTO);
	t.n = 0;
	raw_cmd(&t, BC_RPC_CMD_TRANSACT, 30); /* a body too small */
	raw_put(&t, zeros, 30);
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_cmd(&t, BC_RPC_CMD_REPLY, 20); /* a reply nobody asked for */
	raw_put(&t, zeros, 20);
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_cmd(&t, BC_RPC_CMD_DEC_STRONG, 12); /* a short DEC_STRONG */
	raw_put(&t, zeros, 12);
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_transact(&t, bc__rpc_addr(3, 0), RPCT_ADD, 0, 0, NULL, 0); /* the root, never sent */
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_transact(&t, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	raw_cmd(&t, BC_RPC_CMD_TRANSACT, 44); /* parcel size beyond the body */
	raw_put(&t, zeros, 24);
	raw_u32(&t, 8);
	raw_put(&t, zeros, 16);
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_transact(&t, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	/* out of order: held for #0..#4 (more connections may join and bring
	 * them), never run, freed with the session */
	raw_transact(&t, bc__rpc_addr(3, 0), RPCT_RECORD, BC_RPC_FLAG_ONEWAY, 5, zeros, 4);
	cr_assert_eq(serve_after_setup(t.b, t.n), 0);
	t.n = 0;
	raw_transact(&t, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	raw_transact(&t, bc__rpc_addr(3, 0), RPCT_RECORD, BC_RPC_FLAG_ONEWAY, 0, zeros, 4);
	raw_transact(&t, bc__rpc_addr(3, 0), RPCT_RECORD, BC_RPC_FLAG_ONEWAY, 1, zeros, 4);
	/* used (0 again would be a restart: test_rpc_async.c) */
	raw_transact(&t, bc__rpc_addr(3, 0), RPCT_RECORD, BC_RPC_FLAG_ONEWAY, 1, zeros, 4);
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
	t.n = 0;
	raw_transact(&t, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	raw_transact(&t, bc__rpc_addr(0x13, 0), RPCT_ADD, 0, 0, zeros, 8); /* a bad address */
	cr_assert_eq(serve_after_setup(t.b, t.n), -EBADMSG);
}

/* A well-behaved raw client: root, a call, the reference given back. */
Test(rpc_raw, server_full_session)
{
	struct raw t = { .n = 0 }, out;
	uint8_t args[8];
	uint8_t dec[BC_RPC_DEC_STRONG_SIZE];

	bc__put_le32(args, 5);
	bc__put_le32(args + 4, 6);
	raw_client_setup(&t, 1);
	raw_transact(&t, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	raw_transact(&t, bc__rpc_addr(3, 0), RPCT_ADD, 0, 0, args, 8);
	raw_cmd(&t, BC_RPC_CMD_DEC_STRONG, BC_RPC_DEC_STRONG_SIZE);
	bc__rpc_dec_strong_encode(bc__rpc_addr(3, 0), 1, dec);
	raw_put(&t, dec, sizeof(dec));
	/* the server ends the session here: what follows is not read */
	raw_cmd(&t, 3, 0);
	cr_assert_eq(raw_serve(&t, 1, &out), 0);
	/* version; GET_ROOT's reply: int32 1, address 3, stability SYSTEM;
	 * the call's target given back, then its reply: 11 */
	{
		static const uint8_t want[] = {
			1, 0, 0, 0, 0, 0, 0, 0,
			1, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0x0c, 0, 0, 0,
			2, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
			1, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0,
		};

		th_assert_bytes(out.b, out.n, want, sizeof(want));
	}
}

/* ---- a client meets a bad server ------------------------------------------ */

/* Connect to the server stream @r; the raw server's end stays open
 * (our client's writes need a reader) in *@peer, or is closed if NULL. */
static int connect_peer(const struct raw *r, uint32_t version, bc_rpc_session **ret, int *peer)
{
	int sv[2], res;

	raw_feed(r, sv);
	res = bc_rpc_session_connect_fd(sv[0], version, 0, ret);
	if (peer)
		*peer = sv[1];
	else
		close(sv[1]);
	return res;
}

static int connect_to(const struct raw *r, uint32_t version, bc_rpc_session **ret)
{
	return connect_peer(r, version, ret, NULL);
}

Test(rpc_raw, client_setup_refused)
{
	struct raw r = { .n = 0 };
	bc_rpc_session *s = NULL;
	uint8_t id[4 + 32]; /* 31 bytes and their padding */

	cr_assert_eq(connect_to(&r, 1, &s), -EPIPE); /* the server hung up */
	raw_server_setup(&r, 2); /* above the proposal */
	cr_assert_eq(connect_to(&r, 1, &s), -EPROTONOSUPPORT);
	r.n = 0;
	raw_u32(&r, BC_RPC_V_EXPERIMENTAL);
	raw_u32(&r, 0);
	cr_assert_eq(connect_to(&r, 2, &s), -EPROTONOSUPPORT);
	r.n = 0;
	raw_u32(&r, 1);
	raw_u32(&r, 0);
	raw_reply(&r, 0, 0, "\1\0\0\0", 4); /* a version-0 reply at version 1 */
	cr_assert_eq(connect_to(&r, 1, &s), -EBADMSG);
	r.n = 0;
	raw_u32(&r, 1);
	raw_u32(&r, 0);
	raw_reply(&r, 1, 0, "\1\0\0\0", 4);
	memset(id, 0, sizeof(id));
	bc__put_le32(id, 31); /* a session id of 31 bytes */
	raw_reply(&r, 1, 0, id, sizeof(id));
	cr_assert_eq(connect_to(&r, 1, &s), -EBADMSG);
	r.n = 0;
	raw_u32(&r, 1);
	raw_u32(&r, 0);
	raw_cmd(&r, 7, 0); /* an unknown command */
	cr_assert_eq(connect_to(&r, 1, &s), -EBADMSG);
	r.n = 0;
	raw_u32(&r, 1);
	raw_u32(&r, 0);
	raw_cmd(&r, BC_RPC_CMD_REPLY, 20); /* cut */
	cr_assert_eq(connect_to(&r, 1, &s), -EPROTO);
	cr_assert_null(s);
}

/* The root as a bad server sends it: what get_root says, and that the
 * session is over afterwards. */
static void bad_root(uint64_t addr, int32_t stability, int want)
{
	struct raw r = { .n = 0 };
	bc_rpc_session *s = NULL;
	bc_binder *b = NULL;
	struct raw p = { .n = 0 };
	int peer;

	raw_server_setup(&r, 1);
	raw_u32(&p, 1);
	raw_u64(&p, addr);
	raw_u32(&p, (uint32_t)stability);
	raw_reply(&r, 1, 0, p.b, p.n);
	cr_assert_eq(connect_peer(&r, 1, &s, &peer), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &b), want);
	cr_assert_null(b);
	cr_assert_eq(bc_rpc_session_get_error(s), want);
	cr_assert_eq(bc_rpc_session_get_root(s, &b), -EPIPE);
	bc_rpc_session_unref(s);
	close(peer);
}

Test(rpc_raw, client_root_refused)
{
	bad_root(bc__rpc_addr(1, 0), BINDERC_STABILITY_SYSTEM, -EBADMSG); /* not the server's address */
	bad_root(bc__rpc_addr(3 | 4, 0), BINDERC_STABILITY_SYSTEM, -EBADMSG); /* unknown option bit */
	bad_root(bc__rpc_addr(3, 0), 5, -EBADMSG);			     /* no stability level */
}

/* A reply cut in the middle ends the session; calls then say -EPIPE. */
Test(rpc_raw, client_truncated_reply)
{
	struct raw r = { .n = 0 };
	struct raw p = { .n = 0 };
	bc_rpc_session *s = NULL;
	bc_binder *b = NULL;
	bc_error err;
	int32_t v;
	int peer;

	raw_server_setup(&r, 1);
	raw_u32(&p, 1);
	raw_u64(&p, bc__rpc_addr(3, 0));
	raw_u32(&p, BINDERC_STABILITY_SYSTEM);
	raw_reply(&r, 1, 0, p.b, p.n);
	raw_cmd(&r, BC_RPC_CMD_REPLY, 24);
	raw_put(&r, p.b, 10);
	cr_assert_eq(connect_peer(&r, 1, &s, &peer), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &b), 0);
	cr_assert_eq(bc_binder_transact(b, RPCT_ADD, NULL, NULL, 0, &err), -EPROTO);
	cr_assert_eq(err.origin, BINDERC_ERROR_TRANSPORT);
	cr_assert_eq(bc_rpc_session_get_error(s), -EPROTO);
	cr_assert(!bc_binder_is_alive(b));
	cr_assert_eq(rpct_add(b, 1, 2, &v), -EPIPE);
	bc_binder_unref(b);
	bc_rpc_session_unref(s);
	close(peer);
}

/* GET_ROOT's reply at each version: v0 a 4-byte status, v1 the 20-byte
 * reply, v2 the same and the object table listing the binder at 0. */
Test(rpc_raw, server_root_reply_by_version)
{
	static const uint8_t root_obj[] = { 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0x0c, 0, 0, 0 };
	static const uint8_t v0[] = {
		0, 0, 0, 0, 0, 0, 0, 0, /* version 0 */
		1, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* REPLY, 4 + 16 */
		0, 0, 0, 0,
	};
	static const uint8_t v1[] = {
		1, 0, 0, 0, 0, 0, 0, 0,
		1, 0, 0, 0, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* REPLY, 20 + 16 */
		0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t v2[] = {
		2, 0, 0, 0, 0, 0, 0, 0,
		1, 0, 0, 0, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* REPLY, 20 + 16 + 4 */
		0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	const uint8_t *want[] = { v0, v1, v2 };
	size_t want_n[] = { sizeof(v0), sizeof(v1), sizeof(v2) };

	for (uint32_t v = 0; v <= 2; v++) {
		struct raw in = { .n = 0 }, out, exp = { .n = 0 };

		raw_client_setup(&in, v);
		raw_transact(&in, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
		cr_assert_eq(raw_serve(&in, 2, &out), 0);
		raw_put(&exp, want[v], want_n[v]);
		raw_put(&exp, root_obj, sizeof(root_obj));
		if (v == 2)
			raw_u32(&exp, 0); /* the table: a binder at offset 0 */
		th_assert_bytes(out.b, out.n, exp.b, exp.n);
	}
}

/* Fds the session did not ask for, and object tables that do not match
 * the fds that came, end the session. */
static int serve_with_fd(const struct raw *r, bool allow_fds, size_t fd_at)
{
	struct rpct_adder a;
	bc_rpc_server *srv = NULL;
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { .iov_base = (void *)(r->b + fd_at), .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			      .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	int sv[2], pfd[2], res;

	rpct_adder_new(&a);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(pipe(pfd), 0);
	cr_assert_eq(write(sv[1], r->b, fd_at), (ssize_t)fd_at);
	memset(&ctl, 0, sizeof(ctl));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pfd[0], sizeof(int));
	cr_assert_eq(sendmsg(sv[1], &msg, 0), 1);
	cr_assert_eq(write(sv[1], r->b + fd_at + 1, r->n - fd_at - 1), (ssize_t)(r->n - fd_at - 1));
	cr_assert_eq(shutdown(sv[1], SHUT_WR), 0);
	close(pfd[0]);
	close(pfd[1]);
	cr_assert_eq(bc_rpc_server_new(a.self, &srv), 0);
	cr_assert_eq(bc_rpc_server_set_fds(srv, allow_fds), 0);
	res = bc_rpc_server_serve_fd(srv, sv[0]);
	close(sv[1]);
	bc_rpc_server_unref(srv);
	bc_binder_unref(a.self);
	cr_assert_eq(atomic_load(&a.destroyed), 1);
	return res;
}

Test(rpc_raw, server_fds_refused)
{
	struct raw r = { .n = 0 };
	struct bc_rpc_conn_header h = { .version = 1, .fd_mode = BC_RPC_FD_MODE_UNIX };
	uint8_t hdr[BC_RPC_CONN_HEADER_SIZE + BC_RPC_CONN_INIT_SIZE];
	uint8_t fdobj[8] = { 2, 0, 0, 0, 0, 0, 0, 0 };
	size_t at;

	/* an fd on a session without fd transport */
	raw_client_setup(&r, 1);
	at = r.n;
	raw_transact(&r, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	cr_assert_eq(serve_with_fd(&r, false, at), -EBADMSG);
	/* fd mode UNIX: an fd whose message lists no table entry */
	r.n = 0;
	bc__rpc_conn_header_encode(&h, hdr);
	bc__rpc_conn_init_encode(hdr + BC_RPC_CONN_HEADER_SIZE);
	raw_put(&r, hdr, sizeof(hdr));
	raw_transact(&r, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	at = r.n;
	raw_transact(&r, bc__rpc_addr(3, 0), RPCT_FD, 0, 0, fdobj, 8);
	cr_assert_eq(serve_with_fd(&r, true, at), -EBADMSG);
	/* the same with its table entry: the handler reads 4 bytes from an
	 * empty pipe whose writer is closed, and fails; the session goes on
	 * until the client leaves */
	r.n = 0;
	raw_put(&r, hdr, sizeof(hdr));
	raw_transact(&r, 0, BC_RPC_SPECIAL_GET_ROOT, 0, 0, NULL, 0);
	at = r.n;
	raw_cmd(&r, BC_RPC_CMD_TRANSACT, 40 + 8 + 4);
	{
		struct bc_rpc_transaction t = { .address = bc__rpc_addr(3, 0), .code = RPCT_FD, .data_size = 8 };
		uint8_t fixed[BC_RPC_TRANSACTION_SIZE];

		bc__rpc_transaction_encode(&t, fixed);
		raw_put(&r, fixed, sizeof(fixed));
	}
	raw_put(&r, fdobj, 8);
	raw_u32(&r, 0);
	cr_assert_eq(serve_with_fd(&r, true, at), 0);
}
