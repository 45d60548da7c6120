/* SPDX-License-Identifier: MIT */
/*
 * Oneway numbers from a peer that breaks them, on a session of two
 * connections (where calls may overtake each other, so an early number
 * is held, not refused): a held call runs after the ones before it; a
 * number used already, one held twice, and more held calls or bytes than
 * the limits end the session.  The bytes are written by hand on the
 * client's second connection (taken from the library's session, under
 * its lock, so no library thread writes between them).
 */
#include "rpc_internal.h"
#include "rpcraw.h"

struct fixture {
	struct rpct_adder a;
	struct joiner j;
	bc_rpc_session *s;
	bc_binder *root;
	bc_slot *death;
	atomic_int deaths;
	struct rpc_conn *c2; /* held while the test writes on it */
};

static void on_death(void *u)
{
	atomic_fetch_add((atomic_int *)u, 1);
}

static void setup(struct fixture *f)
{
	char addr[96];

	memset(f, 0, sizeof(*f));
	rpct_adder_new(&f->a);
	joiner_start(&f->j, f->a.self, 0, addr, sizeof(addr));
	cr_assert_eq(bc_rpc_server_set_max_threads(f->j.srv, 2), 0);
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, 0, &f->s), 0);
	cr_assert_eq(atomic_load(&f->s->n_conns), 2);
	cr_assert_eq(bc_rpc_session_get_root(f->s, &f->root), 0);
	cr_assert_eq(bc_binder_link_to_death(f->root, on_death, &f->deaths, &f->death), 0);
	f->c2 = f->s->conns[1];
	pthread_mutex_lock(&f->c2->mu);
}

/* Write @r on the second connection (the server reads it at once):
 * false if the server has ended the session meanwhile. */
static bool put(struct fixture *f, const struct raw *r)
{
	size_t off = 0;

	while (off < r->n) {
		ssize_t n = send(f->c2->fd, r->b + off, r->n - off, MSG_NOSIGNAL);

		if (n <= 0)
			return false;
		off += (size_t)n;
	}
	return true;
}

/* A oneway RPCT_RECORD of @v to the root, numbered @num. */
static void record(struct fixture *f, uint64_t num, int32_t v)
{
	struct raw r = { .n = 0 };
	uint8_t d[4];

	bc__put_le32(d, (uint32_t)v);
	raw_transact(&r, bc__rpc_addr(3, 0), RPCT_RECORD, BC_RPC_FLAG_ONEWAY, num, d, 4);
	(void)put(f, &r); /* a session ended by an earlier one shows later */
}

static void wait_death(struct fixture *f)
{
	int64_t end = th_now_ms() + TH_HANG_MS;

	while (atomic_load(&f->deaths) == 0 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&f->deaths), 1, "the session did not end");
}

static void teardown(struct fixture *f)
{
	pthread_mutex_unlock(&f->c2->mu);
	bc_slot_unref(f->death);
	bc_binder_unref(f->root);
	bc_rpc_session_unref(f->s);
	cr_assert_eq(joiner_stop(&f->j), 0);
	bc_binder_unref(f->a.self);
}

/* #1 comes first: held until #0 has run, then run after it. */
Test(rpc_async, early_number_held)
{
	struct fixture f;
	bc_parcel *d = NULL, *reply = NULL;
	int32_t v = 0;
	int64_t end;

	setup(&f);
	record(&f, 1, 99);
	/* #0 through the library, on the first connection */
	cr_assert_eq(bc_binder_new_parcel(f.root, &d), 0);
	cr_assert_eq(bc_parcel_write_int32(d, 7), 0);
	cr_assert_eq(bc_binder_transact(f.root, RPCT_RECORD, d, NULL, BINDERC_FLAG_ONEWAY, NULL), 0);
	bc_parcel_unref(d);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&f.a.recorded) != 99 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&f.a.recorded), 99);
	/* the session goes on */
	cr_assert_eq(bc_binder_transact(f.root, RPCT_GET_RECORD, NULL, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 99);
	bc_parcel_unref(reply);
	cr_assert_eq(atomic_load(&f.deaths), 0);
	teardown(&f);
}

static void wait_recorded(struct fixture *f, int v)
{
	int64_t end = th_now_ms() + TH_HANG_MS;

	while (atomic_load(&f->a.recorded) != v && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&f->a.recorded), v);
}

/* A number that has run already ends the session. */
Test(rpc_async, used_number)
{
	struct fixture f;

	setup(&f);
	record(&f, 0, 1);
	record(&f, 1, 2);
	wait_recorded(&f, 2);
	record(&f, 1, 3);
	wait_death(&f);
	teardown(&f);
}

/* 0 again, once the calls before it have run, is the peer's numbering
 * starting over (its node was recreated while ours stayed): it runs, and
 * so do the numbers after it; the session goes on. */
Test(rpc_async, numbering_starts_again_at_zero)
{
	struct fixture f;
	bc_parcel *reply = NULL;
	int32_t v = 0;

	setup(&f);
	record(&f, 0, 1);
	record(&f, 1, 2);
	wait_recorded(&f, 2);
	record(&f, 0, 3);
	wait_recorded(&f, 3);
	record(&f, 1, 4);
	wait_recorded(&f, 4);
	cr_assert_eq(bc_binder_transact(f.root, RPCT_GET_RECORD, NULL, &reply, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 4);
	bc_parcel_unref(reply);
	cr_assert_eq(atomic_load(&f.deaths), 0);
	teardown(&f);
}

/* A restart that comes while an earlier call is held waits its turn: #2
 * early (held), then 0 (held behind it, as #1 is missing), then #1: all
 * three run, 0 last. */
Test(rpc_async, restart_held_behind_earlier_calls)
{
	struct fixture f;

	setup(&f);
	record(&f, 0, 1);
	wait_recorded(&f, 1);
	record(&f, 2, 3);
	record(&f, 0, 5);
	record(&f, 1, 2);
	wait_recorded(&f, 5);
	cr_assert_eq(atomic_load(&f.deaths), 0);
	teardown(&f);
}

/* The same early number twice. */
Test(rpc_async, held_twice)
{
	struct fixture f;

	setup(&f);
	record(&f, 5, 1);
	record(&f, 5, 2);
	wait_death(&f);
	cr_assert_eq(atomic_load(&f.a.recorded), 0);
	teardown(&f);
}

/* More held calls than the limit. */
Test(rpc_async, too_many_held)
{
	struct fixture f;

	setup(&f);
	for (uint64_t i = 1; i <= BC_RPC_MAX_ASYNC_QUEUED + 1; i++)
		record(&f, i, (int32_t)i);
	wait_death(&f);
	cr_assert_eq(atomic_load(&f.a.recorded), 0);
	teardown(&f);
}

/* Fewer calls, but more bytes held than the limit. */
Test(rpc_async, too_many_bytes_held)
{
	static uint8_t big[BC_RPC_MAX_BODY - BC_RPC_TRANSACTION_SIZE];
	struct fixture f;

	setup(&f);
	for (uint64_t i = 1; i <= BC_RPC_MAX_ASYNC_BYTES / sizeof(big) + 1; i++) {
		struct bc_rpc_transaction t = { .address = bc__rpc_addr(3, 0), .code = RPCT_RECORD,
						.flags = BC_RPC_FLAG_ONEWAY, .async_number = i,
						.data_size = sizeof(big) };
		struct raw r = { .n = 0 };
		uint8_t b[BC_RPC_TRANSACTION_SIZE];

		raw_cmd(&r, BC_RPC_CMD_TRANSACT, (uint32_t)(sizeof(b) + sizeof(big)));
		bc__rpc_transaction_encode(&t, b);
		raw_put(&r, b, sizeof(b));
		if (!put(&f, &r))
			break;
		{
			size_t off = 0;

			/* the server may have ended it by now: a failed write is
			 * the end showing */
			while (off < sizeof(big)) {
				ssize_t n = send(f.c2->fd, big + off, sizeof(big) - off, MSG_NOSIGNAL);

				if (n <= 0)
					break;
				off += (size_t)n;
			}
		}
	}
	wait_death(&f);
	cr_assert_eq(atomic_load(&f.a.recorded), 0);
	teardown(&f);
}

/* ---- a peer writing while we write --------------------------------------- */

/* A hand-made server: answers the set-up and GET_ROOT in advance, then
 * writes a stream of DEC_STRONGs without reading, as a peer giving back
 * oneway targets does, and only then reads what the client sent. */
struct dec_flood {
	int fd;
	size_t n_decs;
	size_t got; /* bytes the client sent */
	pthread_t thread;
};

static void *dec_flood_main(void *arg)
{
	struct dec_flood *d = arg;
	static uint8_t decs[32 * 40000];
	struct raw r = { .n = 0 };
	uint8_t root[16], buf[65536];
	size_t off = 0;
	ssize_t n;

	raw_server_setup(&r, 1);
	bc__put_le32(root, 1);
	bc__put_le64(root + 4, bc__rpc_addr(3, 0));
	bc__put_le32(root + 12, 12); /* SYSTEM */
	raw_reply(&r, 1, 0, root, sizeof(root));
	cr_assert_eq(send(d->fd, r.b, r.n, MSG_NOSIGNAL), (ssize_t)r.n);
	for (size_t i = 0; i < d->n_decs; i++) {
		bc__rpc_wire_header_encode(BC_RPC_CMD_DEC_STRONG, BC_RPC_DEC_STRONG_SIZE, decs + 32 * i);
		bc__rpc_dec_strong_encode(bc__rpc_addr(3, 0), 1, decs + 32 * i + 16);
	}
	/* one write of it all: more than both sockets' buffers hold */
	while (off < 32 * d->n_decs) {
		n = send(d->fd, decs + off, 32 * d->n_decs - off, MSG_NOSIGNAL);
		if (n <= 0)
			break; /* the client went: the rest of its bytes are queued */
		off += (size_t)n;
	}
	while ((n = recv(d->fd, buf, sizeof(buf), 0)) > 0)
		d->got += (size_t)n;
	return NULL;
}

/* Without reading the peer's DEC_STRONGs while its writes block, the
 * client and this server would each wait for the other for ever. */
Test(rpc_async, writes_drain_dec_strongs)
{
	static uint8_t payload[90000];
	struct dec_flood d = { .n_decs = 40000 };
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	d.fd = sv[1];
	cr_assert_eq(pthread_create(&d.thread, NULL, dec_flood_main, &d), 0);
	cr_assert_eq(bc_rpc_session_connect_fd(sv[0], BINDERC_RPC_VERSION_DEFAULT, 0, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	for (int i = 0; i < 12; i++) {
		bc_parcel *p = NULL;

		cr_assert_eq(bc_binder_new_parcel(root, &p), 0);
		cr_assert_eq(bc_parcel_write_raw(p, payload, sizeof(payload)), 0);
		cr_assert_eq(bc_binder_transact(root, 1, p, NULL, BINDERC_FLAG_ONEWAY, NULL), 0, "call %d", i);
		bc_parcel_unref(p);
	}
	cr_assert_eq(bc_rpc_session_get_error(s), 0);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(pthread_join(d.thread, NULL), 0);
	close(sv[1]);
	/* every call arrived whole */
	cr_assert_geq(d.got, 12 * sizeof(payload));
}
