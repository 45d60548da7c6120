/* SPDX-License-Identifier: MIT */
/*
 * RPC binder over TLS (<binderc/rpc_tls.h>): a round trip with mutual
 * trust over loopback TCP; each side refusing a peer it does not trust;
 * a plain client of a TLS server and a TLS client of a plain server
 * failing cleanly while the server goes on serving others; a silent peer
 * in the handshake bounded by the set-up timeout; no fds over TLS; the
 * context's certificates in and out.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include <binderc/rpc_tls.h>

#include "rpct.h"

/* Short, but the silent peer never answers however long we wait. */
#define SHORT_MS 50u

/* A context with a fresh self-signed certificate. */
static bc_rpc_tls *tls_new(void)
{
	bc_rpc_tls *t = NULL;

	cr_assert_eq(bc_rpc_tls_new(&t), 0);
	cr_assert_eq(bc_rpc_tls_generate(t, 1), 0);
	return t;
}

/* @a trusts @b's certificate (sent in @format, as out of band). */
static void trust(bc_rpc_tls *a, const bc_rpc_tls *b, int format)
{
	void *cert = NULL;
	size_t len = 0;

	cr_assert_eq(bc_rpc_tls_get_certificate(b, format, &cert, &len), 0);
	cr_assert_gt(len, 0);
	cr_assert_eq(bc_rpc_tls_add_trusted(a, format, cert, len), 0);
	free(cert);
}

/* A server of @root joined on loopback TCP, every connection over TLS
 * with @tls (NULL: plain TCP); its address in @addr. */
static void tls_joiner_start(struct joiner *j, bc_binder *root, bc_rpc_tls *tls, char *addr, size_t size)
{
	memset(j, 0, sizeof(*j));
	cr_assert_eq(bc_rpc_listen("tcp:127.0.0.1:0", tls ? BINDERC_RPC_TLS : BINDERC_RPC_PLAIN_TCP, &j->lfd), 0);
	cr_assert_eq(bc_rpc_socket_address(j->lfd, false, addr, size), 0);
	cr_assert_eq(bc_rpc_server_new(root, &j->srv), 0);
	cr_assert_eq(bc_rpc_server_set_max_threads(j->srv, 2), 0);
	cr_assert_eq(bc_rpc_server_set_setup_timeout(j->srv, 5000), 0);
	if (tls)
		cr_assert_eq(bc_rpc_server_set_tls(j->srv, tls), 0);
	j->result = 1;
	cr_assert_eq(pthread_create(&j->thread, NULL, join_main, j), 0);
}

/* The adder of a stopped joiner let go: the server's own reference goes
 * with the last of its threads, which may outlive joiner_stop() for a
 * moment -- and @a is on the test's stack. */
static void adder_gone(struct rpct_adder *a)
{
	int64_t end;

	bc_binder_unref(a->self);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&a->destroyed) < 1 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&a->destroyed), 1);
}

/* A TLS session at @addr with @tls: a call on its root, 2 + 3. */
static int tls_call(const char *addr, bc_rpc_tls *tls)
{
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	int32_t v = 0;
	int r = bc_rpc_session_connect_tls(addr, BINDERC_RPC_VERSION_DEFAULT, 0, tls, &s);

	if (r == 0)
		r = bc_rpc_session_get_root(s, &root);
	if (r == 0)
		r = rpct_add(root, 2, 3, &v);
	if (r == 0 && v != 5)
		r = -EBADMSG;
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	return r;
}

static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata)
{
	int32_t x = 0;
	int r = bc_parcel_read_int32(in, &x);

	(void)self, (void)txn, (void)code, (void)userdata;
	return r < 0 ? r : bc_parcel_write_int32(reply, x * 10);
}

/* Mutual trust over TCP: calls (on both of the session's connections,
 * each with its own handshake), a parcel larger than a TLS record, and a
 * call back into the client nested in one of its calls. */
Test(rpc_tls, round_trip)
{
	bc_rpc_tls *srv_tls = tls_new(), *cli_tls = tls_new();
	struct rpct_adder a;
	struct joiner j;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL, *cb = NULL;
	bc_parcel *d = NULL, *rep = NULL;
	bc_class *c = NULL;
	static uint8_t big[50000];
	char addr[96];
	int32_t v = 0;
	int r;

	trust(srv_tls, cli_tls, BINDERC_RPC_CERT_PEM);
	trust(cli_tls, srv_tls, BINDERC_RPC_CERT_DER);
	rpct_adder_new(&a);
	tls_joiner_start(&j, a.self, srv_tls, addr, sizeof(addr));
	/* tcp: without BINDERC_RPC_PLAIN_TCP: TLS needs none */
	cr_assert_eq(bc_rpc_session_connect_tls(addr, BINDERC_RPC_VERSION_DEFAULT, 0, cli_tls, &s), 0,
		     "%s", bc_rpc_tls_last_error());
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	for (int i = 0; i < 8; i++) {
		cr_assert_eq(rpct_add(root, i, 40, &v), 0);
		cr_assert_eq(v, 40 + i);
	}
	/* larger than one record (16 KiB): written piece by piece */
	memset(big, 0xa5, sizeof(big));
	cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
	cr_assert_eq(bc_parcel_write_int32(d, 7), 0);
	cr_assert_eq(bc_parcel_write_int32(d, 8), 0);
	cr_assert_eq(bc_parcel_write_raw(d, big, sizeof(big)), 0);
	r = bc_binder_transact(root, RPCT_ADD, d, &rep, 0, NULL);
	cr_assert_eq(r, 0, "%d", r);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_assert_eq(v, 15);
	d = bc_parcel_unref(d);
	rep = bc_parcel_unref(rep);
	/* nested: the server calls our object while our call waits */
	cr_assert_eq(bc_class_new("org.binderc.test.ICb", cb_transact, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &cb), 0);
	cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
	cr_assert_eq(bc_parcel_write_binder(d, cb), 0);
	cr_assert_eq(bc_parcel_write_int32(d, 4), 0);
	cr_assert_eq(bc_binder_transact(root, RPCT_CALL_BACK, d, &rep, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_assert_eq(v, 40);
	bc_parcel_unref(d);
	bc_parcel_unref(rep);
	/* no fds over TLS: the session has no fd transport */
	cr_assert_eq(bc_binder_new_parcel(root, &d), 0);
	cr_assert_eq(bc_parcel_write_fd(d, 0, false), -EOPNOTSUPP);
	bc_parcel_unref(d);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(cb);
	bc_class_unref(c);
	adder_gone(&a);
	bc_rpc_tls_unref(srv_tls);
	bc_rpc_tls_unref(cli_tls);
}

/* One connection served on a thread over @srv_tls (NULL: plain; set
 * before the thread starts), set-up bounded by @timeout_ms, the client's
 * end in *@client_fd. */
static void pair_start(struct rpct_server *t, struct rpct_adder *a, bc_rpc_tls *srv_tls, unsigned timeout_ms,
		       int *client_fd)
{
	int sv[2];

	rpct_adder_new(a);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_server_new(a->self, &t->srv), 0);
	cr_assert_eq(bc_rpc_server_set_setup_timeout(t->srv, timeout_ms), 0);
	if (srv_tls)
		cr_assert_eq(bc_rpc_server_set_tls(t->srv, srv_tls), 0);
	t->fd = sv[1];
	t->result = 1;
	cr_assert_eq(pthread_create(&t->thread, NULL, rpct_serve_main, t), 0);
	*client_fd = sv[0];
}

static void pair_stop(struct rpct_server *t, struct rpct_adder *a, int want)
{
	cr_assert_eq(rpct_server_join(t), want);
	bc_binder_unref(a->self);
}

/* The client does not trust the server's certificate: it refuses it in
 * the handshake; the server hears of it and ends that connection. */
Test(rpc_tls, untrusted_server)
{
	bc_rpc_tls *srv_tls = tls_new(), *cli_tls = tls_new(), *other = tls_new();
	struct rpct_server t;
	struct rpct_adder a;
	bc_rpc_session *s = NULL;
	int fd;

	trust(srv_tls, cli_tls, BINDERC_RPC_CERT_PEM);
	trust(cli_tls, other, BINDERC_RPC_CERT_PEM); /* not the server */
	pair_start(&t, &a, srv_tls, 5000, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd_tls(fd, BINDERC_RPC_VERSION_DEFAULT, 0, cli_tls, &s), -EKEYREJECTED);
	cr_assert_null(s);
	cr_assert(strstr(bc_rpc_tls_last_error(), "not trusted"), "%s", bc_rpc_tls_last_error());
	/* the client's alert says why */
	pair_stop(&t, &a, -EKEYREJECTED);
	bc_rpc_tls_unref(srv_tls);
	bc_rpc_tls_unref(cli_tls);
	bc_rpc_tls_unref(other);
}

/* The server does not trust the client: it refuses it in the handshake;
 * with TLS 1.3 the client learns it on its first read. */
Test(rpc_tls, untrusted_client)
{
	bc_rpc_tls *srv_tls = tls_new(), *cli_tls = tls_new();
	struct rpct_server t;
	struct rpct_adder a;
	bc_rpc_session *s = NULL;
	int fd;

	trust(cli_tls, srv_tls, BINDERC_RPC_CERT_PEM); /* one way only */
	pair_start(&t, &a, srv_tls, 5000, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd_tls(fd, BINDERC_RPC_VERSION_DEFAULT, 0, cli_tls, &s), -EKEYREJECTED);
	cr_assert_null(s);
	cr_assert(strstr(bc_rpc_tls_last_error(), "refused our certificate"), "%s", bc_rpc_tls_last_error());
	pair_stop(&t, &a, -EKEYREJECTED);
	bc_rpc_tls_unref(srv_tls);
	bc_rpc_tls_unref(cli_tls);
}

/* Neither trusts the other, and a trusted client comes after: a TCP
 * server goes on serving after refusing some. */
Test(rpc_tls, server_serves_after_refusals)
{
	bc_rpc_tls *srv_tls = tls_new(), *good = tls_new(), *bad = tls_new();
	struct rpct_adder a;
	struct joiner j;
	char addr[96];
	int r;

	trust(srv_tls, good, BINDERC_RPC_CERT_DER);
	trust(good, srv_tls, BINDERC_RPC_CERT_PEM);
	trust(bad, srv_tls, BINDERC_RPC_CERT_PEM);
	rpct_adder_new(&a);
	tls_joiner_start(&j, a.self, srv_tls, addr, sizeof(addr));
	r = tls_call(addr, bad);
	cr_assert_eq(r, -EKEYREJECTED, "%d %s", r, bc_rpc_tls_last_error());
	cr_assert_eq(tls_call(addr, good), 0, "%s", bc_rpc_tls_last_error());
	r = tls_call(addr, bad);
	cr_assert_eq(r, -EKEYREJECTED, "%d %s", r, bc_rpc_tls_last_error());
	cr_assert_eq(tls_call(addr, good), 0, "%s", bc_rpc_tls_last_error());
	cr_assert_eq(joiner_stop(&j), 0);
	adder_gone(&a);
	bc_rpc_tls_unref(srv_tls);
	bc_rpc_tls_unref(good);
	bc_rpc_tls_unref(bad);
}

/* A client speaking plain RPC to a TLS server: its header is no TLS
 * record, the server says -EPROTO and drops it; the client fails (it
 * reads an alert, or the end) and the server serves a TLS client next. */
Test(rpc_tls, plain_client_to_tls_server)
{
	bc_rpc_tls *srv_tls = tls_new(), *cli_tls = tls_new();
	struct rpct_server t;
	struct rpct_adder a;
	struct joiner j;
	bc_rpc_session *s = NULL;
	char addr[96];
	int fd, r;

	trust(srv_tls, cli_tls, BINDERC_RPC_CERT_PEM);
	trust(cli_tls, srv_tls, BINDERC_RPC_CERT_PEM);
	pair_start(&t, &a, srv_tls, 5000, &fd);
	bc_rpc_client_set_setup_timeout(5000);
	r = bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &s);
	cr_assert_lt(r, 0);
	cr_assert_neq(r, -ETIMEDOUT);
	cr_assert_null(s);
	pair_stop(&t, &a, -EPROTO);

	rpct_adder_new(&a);
	tls_joiner_start(&j, a.self, srv_tls, addr, sizeof(addr));
	r = bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_PLAIN_TCP, &s);
	cr_assert_lt(r, 0);
	cr_assert_neq(r, -ETIMEDOUT);
	cr_assert_eq(tls_call(addr, cli_tls), 0, "%s", bc_rpc_tls_last_error());
	cr_assert_eq(joiner_stop(&j), 0);
	adder_gone(&a);
	bc_rpc_tls_unref(srv_tls);
	bc_rpc_tls_unref(cli_tls);
}

/* A TLS client of a plain server: the server reads its ClientHello as a
 * connection header and drops it (or answers, which is no TLS); the
 * client says -EPROTO or -EPIPE, and the server serves a plain client
 * next. */
Test(rpc_tls, tls_client_to_plain_server)
{
	bc_rpc_tls *cli_tls = tls_new();
	struct rpct_adder a;
	struct joiner j;
	bc_rpc_session *s = NULL;
	bc_binder *root = NULL;
	char addr[96];
	int32_t v = 0;
	int r;

	rpct_adder_new(&a);
	tls_joiner_start(&j, a.self, NULL, addr, sizeof(addr));
	bc_rpc_client_set_setup_timeout(5000);
	r = bc_rpc_session_connect_tls(addr, BINDERC_RPC_VERSION_DEFAULT, 0, cli_tls, &s);
	cr_assert(r == -EPROTO || r == -EPIPE, "%d: %s", r, bc_rpc_tls_last_error());
	cr_assert_null(s);
	cr_assert_eq(bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, BINDERC_RPC_PLAIN_TCP, &s), 0);
	cr_assert_eq(bc_rpc_session_get_root(s, &root), 0);
	cr_assert_eq(rpct_add(root, 1, 2, &v), 0);
	cr_assert_eq(v, 3);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	cr_assert_eq(joiner_stop(&j), 0);
	adder_gone(&a);
	bc_rpc_tls_unref(cli_tls);
}

/* A server that accepts and never answers the ClientHello: the client's
 * handshake ends with -ETIMEDOUT (asserted: the error, not the time). */
Test(rpc_tls, client_handshake_timeout)
{
	bc_rpc_tls *cli_tls = tls_new();
	bc_rpc_session *s = NULL;
	uint8_t b[5];
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	bc_rpc_client_set_setup_timeout(SHORT_MS);
	cr_assert_eq(bc_rpc_session_connect_fd_tls(sv[0], BINDERC_RPC_VERSION_DEFAULT, 0, cli_tls, &s), -ETIMEDOUT);
	cr_assert_null(s);
	/* what came was a TLS handshake record, not an RPC header */
	cr_assert_eq(read(sv[1], b, sizeof(b)), (ssize_t)sizeof(b));
	cr_assert_eq(b[0], 0x16);
	close(sv[1]);
	bc_rpc_tls_unref(cli_tls);
}

/* A client that connects and never says a word to a TLS server: the
 * server's handshake ends with -ETIMEDOUT. */
Test(rpc_tls, server_handshake_timeout)
{
	bc_rpc_tls *srv_tls = tls_new();
	struct rpct_server t;
	struct rpct_adder a;
	int fd;

	pair_start(&t, &a, srv_tls, SHORT_MS, &fd);
	pair_stop(&t, &a, -ETIMEDOUT);
	close(fd);
	bc_rpc_tls_unref(srv_tls);
}

/* fds never travel over TLS: a client does not ask for them. */
Test(rpc_tls, fds_refused)
{
	bc_rpc_tls *t = tls_new();
	bc_rpc_session *s = NULL;
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_session_connect_fd_tls(sv[0], BINDERC_RPC_VERSION_1, BINDERC_RPC_FDS, t, &s), -EOPNOTSUPP);
	cr_assert_null(s);
	close(sv[1]);
	bc_rpc_tls_unref(t);
}

/* The context: no identity, bad input, identities saved and loaded, a
 * fixed identity once used. */
Test(rpc_tls, context)
{
	char dir[] = "/tmp/binderc-tls-XXXXXX", cert[64], key[64];
	bc_rpc_tls *t = NULL, *u = NULL, *w = NULL;
	bc_rpc_server *srv = NULL;
	bc_rpc_session *s = NULL;
	void *pem = NULL, *pem2 = NULL;
	size_t len = 0, len2 = 0;
	struct stat st;
	int sv[2];

	cr_assert_eq(bc_rpc_tls_new(&t), 0);
	cr_assert_eq(bc_rpc_tls_get_certificate(t, BINDERC_RPC_CERT_PEM, &pem, &len), -ENOKEY);
	cr_assert_eq(bc_rpc_server_new(NULL, &srv), 0);
	cr_assert_eq(bc_rpc_server_set_tls(srv, t), -ENOKEY);
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	cr_assert_eq(bc_rpc_session_connect_fd_tls(sv[0], BINDERC_RPC_VERSION_1, 0, t, &s), -ENOKEY);
	close(sv[1]);
	cr_assert_eq(bc_rpc_tls_add_trusted(t, BINDERC_RPC_CERT_PEM, "junk", 4), -EINVAL);
	cr_assert_eq(bc_rpc_tls_add_trusted(t, BINDERC_RPC_CERT_DER, "junk", 4), -EINVAL);
	cr_assert_eq(bc_rpc_tls_add_trusted(t, 7, "junk", 4), -EINVAL);
	cr_assert_eq(bc_rpc_tls_generate(t, 0), -EINVAL);
	cr_assert_eq(bc_rpc_tls_generate(t, 30), 0);
	cr_assert_eq(bc_rpc_server_set_tls(srv, t), 0);
	cr_assert_eq(bc_rpc_server_set_tls(srv, NULL), 0);
	bc_rpc_server_unref(srv);

	/* saved and loaded: the same certificate; the key private */
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cert, sizeof(cert), "%s/cert.pem", dir);
	snprintf(key, sizeof(key), "%s/key.pem", dir);
	cr_assert_eq(bc_rpc_tls_save_identity(t, cert, key), 0);
	cr_assert_eq(stat(key, &st), 0);
	cr_assert_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(bc_rpc_tls_new(&u), 0);
	cr_assert_eq(bc_rpc_tls_load_identity(u, cert, key), 0);
	cr_assert_eq(bc_rpc_tls_get_certificate(t, BINDERC_RPC_CERT_PEM, &pem, &len), 0);
	cr_assert_eq(bc_rpc_tls_get_certificate(u, BINDERC_RPC_CERT_PEM, &pem2, &len2), 0);
	cr_assert_eq(len, len2);
	cr_assert_eq(memcmp(pem, pem2, len), 0);
	cr_assert(strstr(pem, "-----BEGIN CERTIFICATE-----"));
	cr_assert_eq(strlen(pem), len);
	free(pem2);
	cr_assert_eq(bc_rpc_tls_load_trusted(u, cert), 0);
	cr_assert_eq(bc_rpc_tls_load_trusted(u, key), -EINVAL); /* no certificate in it */
	cr_assert_eq(bc_rpc_tls_load_trusted(u, "/nonexistent/x.pem"), -ENOENT);

	/* a key that is not the certificate's */
	cr_assert_eq(bc_rpc_tls_new(&w), 0);
	cr_assert_eq(bc_rpc_tls_generate(w, 1), 0);
	cr_assert_eq(bc_rpc_tls_save_identity(w, cert, key), 0);
	cr_assert_eq(bc_rpc_tls_load_identity(u, cert, key), 0);
	cr_assert_eq(bc_rpc_tls_set_identity(u, pem, len, "junk", 4), -EINVAL);
	{
		/* w's key with t's certificate */
		char kbuf[4096];
		int fd = open(key, O_RDONLY);
		ssize_t kn = read(fd, kbuf, sizeof(kbuf));

		close(fd);
		cr_assert_gt(kn, 0);
		cr_assert_eq(bc_rpc_tls_set_identity(u, pem, len, kbuf, (size_t)kn), -EKEYREJECTED);
	}
	free(pem);
	unlink(cert);
	unlink(key);
	rmdir(dir);

	/* once a handshake used it, the identity stays */
	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	close(sv[1]);
	cr_assert_lt(bc_rpc_session_connect_fd_tls(sv[0], BINDERC_RPC_VERSION_1, 0, w, &s), 0);
	cr_assert_eq(bc_rpc_tls_generate(w, 1), -EBUSY);
	bc_rpc_tls_unref(t);
	bc_rpc_tls_unref(u);
	bc_rpc_tls_unref(w);
}
