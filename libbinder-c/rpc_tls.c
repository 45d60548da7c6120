/* SPDX-License-Identifier: MIT */
/*
 * RPC binder over TLS (<binderc/rpc_tls.h>), with OpenSSL: the context
 * (our certificate and key, the peers we trust), the handshake on a
 * connection, and the connection's transport (struct rpc_conn_ops) once
 * it is done.
 *
 * As Android's RpcTransportTls: TLS 1.3 only, a certificate on both
 * sides, and a peer accepted when its own certificate is one of the
 * trusted ones (X509_cmp), whoever signed it -- certificates are pinned,
 * exchanged out of band, most often self-signed.
 *
 * The socket is non-blocking under TLS: a read waits in poll() for at
 * most the connection's timeout (the set-up's bound), and a write that
 * would block can read the peer's commands meanwhile (bc__rpc_drains),
 * which a blocking SSL_write() could not.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <binderc/rpc_tls.h>

#include "rpc_internal.h"

struct bc_rpc_tls {
	atomic_int refs;
	pthread_mutex_t mu; /* everything below */
	SSL_CTX *ctx;
	bool has_identity;
	bool used; /* a handshake began: the identity is fixed */
	X509 **trusted;
	size_t n_trusted, cap_trusted;
};

/* ---- errors ------------------------------------------------------------------ */

static _Thread_local char tl_error[256];

const char *bc_rpc_tls_last_error(void)
{
	return tl_error;
}

/* Say what went wrong (with OpenSSL's first queued reason, if any) and
 * return @r.  The queue is emptied: it is per thread, and a stale entry
 * would be blamed for the next failure. */
static int fail(int r, const char *fmt, ...)
{
	unsigned long e = ERR_peek_error();
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	vsnprintf(tl_error, sizeof(tl_error), fmt, ap);
	va_end(ap);
	n = strlen(tl_error);
	if (e && n + 3 < sizeof(tl_error)) {
		memcpy(tl_error + n, ": ", 2);
		ERR_error_string_n(e, tl_error + n + 2, sizeof(tl_error) - n - 2);
	}
	ERR_clear_error();
	bc__log("rpc tls: %s", tl_error);
	return r;
}

/* ---- the context --------------------------------------------------------------- */

/* Android's RpcCertificateVerifierSimple: the peer's own certificate
 * must be a trusted one; the chain and its signers do not matter. */
static int verify_peer(X509_STORE_CTX *x, void *arg)
{
	bc_rpc_tls *t = arg;
	X509 *peer = X509_STORE_CTX_get0_cert(x);
	bool ok = false;

	pthread_mutex_lock(&t->mu);
	for (size_t i = 0; peer && i < t->n_trusted && !ok; i++)
		ok = X509_cmp(t->trusted[i], peer) == 0;
	pthread_mutex_unlock(&t->mu);
	if (!ok)
		X509_STORE_CTX_set_error(x, X509_V_ERR_CERT_REJECTED);
	return ok;
}

int bc_rpc_tls_new(bc_rpc_tls **ret)
{
	bc_rpc_tls *t;

	if (!ret)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->ctx = SSL_CTX_new(TLS_method());
	if (!t->ctx) {
		free(t);
		return fail(-ENOMEM, "no TLS context");
	}
	/* TLS 1.3 only, as Android's; both sides must show a certificate
	 * (the flag is the server's; a client always checks the server) */
	SSL_CTX_set_min_proto_version(t->ctx, TLS1_3_VERSION);
	SSL_CTX_set_verify(t->ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	SSL_CTX_set_cert_verify_callback(t->ctx, verify_peer, t);
	/* writes resumed after a would-block may move and be partial (we
	 * drain meanwhile); an end without close_notify is an end, as on a
	 * plain socket; no session resumption: every connection shows its
	 * certificate */
	SSL_CTX_set_mode(t->ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_options(t->ctx, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_TICKET);
	SSL_CTX_set_num_tickets(t->ctx, 0);
	SSL_CTX_set_session_cache_mode(t->ctx, SSL_SESS_CACHE_OFF);
	atomic_init(&t->refs, 1);
	pthread_mutex_init(&t->mu, NULL);
	*ret = t;
	return 0;
}

bc_rpc_tls *bc_rpc_tls_ref(bc_rpc_tls *t)
{
	if (t)
		atomic_fetch_add(&t->refs, 1);
	return t;
}

bc_rpc_tls *bc_rpc_tls_unref(bc_rpc_tls *t)
{
	if (t && atomic_fetch_sub(&t->refs, 1) == 1) {
		SSL_CTX_free(t->ctx);
		for (size_t i = 0; i < t->n_trusted; i++)
			X509_free(t->trusted[i]);
		free(t->trusted);
		pthread_mutex_destroy(&t->mu);
		free(t);
	}
	return NULL;
}

/* Make @cert and @key (not taken) ours, unless a handshake used the
 * context already. */
static int use_identity(bc_rpc_tls *t, X509 *cert, EVP_PKEY *key)
{
	int r = 0;

	/* checked before the context changes: a failure keeps the old pair */
	if (X509_check_private_key(cert, key) != 1)
		return fail(-EKEYREJECTED, "the private key is not the certificate's");
	pthread_mutex_lock(&t->mu);
	if (t->used) {
		r = -EBUSY;
	} else if (SSL_CTX_use_certificate(t->ctx, cert) != 1 || SSL_CTX_use_PrivateKey(t->ctx, key) != 1) {
		t->has_identity = false; /* half replaced: none */
		r = fail(-EINVAL, "certificate or key not usable");
	} else {
		t->has_identity = true;
	}
	pthread_mutex_unlock(&t->mu);
	return r;
}

/* A self-signed certificate of @key for @days, with a random 128-bit
 * serial number (as Android's test helper makes them). */
static X509 *self_signed(EVP_PKEY *key, unsigned days)
{
	X509 *x = X509_new();
	BIGNUM *serial = BN_new();
	X509_NAME *name;
	bool ok = x && serial && X509_set_version(x, X509_VERSION_3) && BN_rand(serial, 128, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) &&
		  BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(x)) &&
		  X509_gmtime_adj(X509_getm_notBefore(x), 0) &&
		  X509_gmtime_adj(X509_getm_notAfter(x), (long)days * 24 * 3600);

	BN_free(serial);
	if (ok) {
		name = X509_get_subject_name(x);
		ok = X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"binder-c", -1, -1, 0) &&
		     X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"BinderRPC", -1, -1, 0) &&
		     X509_set_issuer_name(x, name) && X509_set_pubkey(x, key) && X509_sign(x, key, EVP_sha256());
	}
	if (!ok) {
		X509_free(x);
		return NULL;
	}
	return x;
}

int bc_rpc_tls_generate(bc_rpc_tls *t, unsigned days)
{
	EVP_PKEY *key;
	X509 *cert = NULL;
	int r;

	if (!t || days == 0 || days > 365u * 100)
		return -EINVAL;
	key = EVP_EC_gen("P-256");
	if (key)
		cert = self_signed(key, days);
	r = cert ? use_identity(t, cert, key) : fail(-ENOMEM, "making a certificate failed");
	X509_free(cert);
	EVP_PKEY_free(key);
	return r;
}

int bc_rpc_tls_set_identity(bc_rpc_tls *t, const void *cert_pem, size_t cert_len, const void *key_pem,
			    size_t key_len)
{
	BIO *cb, *kb;
	X509 *cert = NULL;
	EVP_PKEY *key = NULL;
	int r;

	if (!t || !cert_pem || !key_pem || cert_len > INT32_MAX || key_len > INT32_MAX)
		return -EINVAL;
	cb = BIO_new_mem_buf(cert_pem, (int)cert_len);
	kb = BIO_new_mem_buf(key_pem, (int)key_len);
	if (cb && kb) {
		cert = PEM_read_bio_X509(cb, NULL, NULL, NULL);
		key = PEM_read_bio_PrivateKey(kb, NULL, NULL, NULL);
	}
	if (!cb || !kb)
		r = fail(-ENOMEM, "no memory");
	else if (!cert || !key)
		r = fail(-EINVAL, "no PEM %s", cert ? "private key" : "certificate");
	else
		r = use_identity(t, cert, key);
	X509_free(cert);
	EVP_PKEY_free(key);
	BIO_free(cb);
	BIO_free(kb);
	return r;
}

/* The whole of file @path (malloc'd) in *@ret, *@ret_len bytes; at most
 * 1 MiB, which no certificate or key comes near. */
static int read_file(const char *path, char **ret, size_t *ret_len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return fail(-errno, "%s: %s", path, strerror(errno));
	buf = malloc(1u << 20);
	n = buf ? fread(buf, 1, 1u << 20, f) : 0;
	fclose(f);
	if (!buf)
		return -ENOMEM;
	*ret = buf;
	*ret_len = n;
	return 0;
}

int bc_rpc_tls_load_identity(bc_rpc_tls *t, const char *cert_path, const char *key_path)
{
	char *c = NULL, *k = NULL;
	size_t cl = 0, kl = 0;
	int r;

	if (!t || !cert_path || !key_path)
		return -EINVAL;
	r = read_file(cert_path, &c, &cl);
	if (r == 0)
		r = read_file(key_path, &k, &kl);
	if (r == 0)
		r = bc_rpc_tls_set_identity(t, c, cl, k, kl);
	if (k)
		OPENSSL_cleanse(k, kl); /* the key's bytes */
	free(c);
	free(k);
	return r;
}

/* Write PEM file @path (mode @mode, replaced) with @cert or @key. */
static int write_pem(const char *path, mode_t mode, X509 *cert, EVP_PKEY *key)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	FILE *f;
	bool ok;

	if (fd < 0)
		return fail(-errno, "%s: %s", path, strerror(errno));
	/* an existing file keeps its mode: a key must not stay readable */
	if (fchmod(fd, mode) < 0 || !(f = fdopen(fd, "w"))) {
		int r = -errno;

		close(fd);
		return fail(r, "%s: %s", path, strerror(-r));
	}
	ok = cert ? PEM_write_X509(f, cert) : PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
	if (fclose(f) != 0)
		ok = false;
	return ok ? 0 : fail(-EIO, "%s: writing failed", path);
}

int bc_rpc_tls_save_identity(const bc_rpc_tls *t, const char *cert_path, const char *key_path)
{
	bc_rpc_tls *m = (bc_rpc_tls *)t; /* (its lock) */
	X509 *cert = NULL;
	EVP_PKEY *key = NULL;
	int r;

	if (!t || !cert_path || !key_path)
		return -EINVAL;
	pthread_mutex_lock(&m->mu);
	if (m->has_identity) {
		cert = X509_dup(SSL_CTX_get0_certificate(m->ctx));
		key = SSL_CTX_get0_privatekey(m->ctx);
		if (key)
			EVP_PKEY_up_ref(key);
	}
	pthread_mutex_unlock(&m->mu);
	if (!m->has_identity)
		r = -ENOKEY;
	else if (!cert || !key)
		r = -ENOMEM;
	else
		r = write_pem(key_path, 0600, NULL, key);
	if (r == 0)
		r = write_pem(cert_path, 0644, cert, NULL);
	X509_free(cert);
	EVP_PKEY_free(key);
	return r;
}

int bc_rpc_tls_get_certificate(const bc_rpc_tls *t, int format, void **ret, size_t *ret_len)
{
	bc_rpc_tls *m = (bc_rpc_tls *)t;
	unsigned char *der = NULL;
	BIO *b = NULL;
	char *mem = NULL;
	long n = -1;
	int r = 0;

	if (!t || !ret || !ret_len || (format != BINDERC_RPC_CERT_PEM && format != BINDERC_RPC_CERT_DER))
		return -EINVAL;
	pthread_mutex_lock(&m->mu);
	if (!m->has_identity) {
		r = -ENOKEY;
	} else if (format == BINDERC_RPC_CERT_DER) {
		n = i2d_X509(SSL_CTX_get0_certificate(m->ctx), &der);
	} else if ((b = BIO_new(BIO_s_mem())) && PEM_write_bio_X509(b, SSL_CTX_get0_certificate(m->ctx))) {
		char *text;

		n = BIO_get_mem_data(b, &text);
		mem = n > 0 ? malloc((size_t)n + 1) : NULL;
		if (mem) {
			memcpy(mem, text, (size_t)n);
			mem[n] = '\0';
		}
	}
	pthread_mutex_unlock(&m->mu);
	BIO_free(b);
	if (r == 0 && der && n > 0 && (mem = malloc((size_t)n)))
		memcpy(mem, der, (size_t)n);
	OPENSSL_free(der);
	if (r == 0 && !mem)
		r = fail(-ENOMEM, "encoding the certificate failed");
	if (r < 0)
		return r;
	*ret = mem;
	*ret_len = (size_t)n;
	return 0;
}

static int trust(bc_rpc_tls *t, X509 *cert)
{
	int r = 0;

	pthread_mutex_lock(&t->mu);
	if (t->n_trusted == t->cap_trusted) {
		size_t cap = t->cap_trusted ? t->cap_trusted * 2 : 4;
		X509 **n = realloc(t->trusted, cap * sizeof(*n));

		if (n) {
			t->trusted = n;
			t->cap_trusted = cap;
		} else {
			r = -ENOMEM;
		}
	}
	if (r == 0 && X509_up_ref(cert))
		t->trusted[t->n_trusted++] = cert;
	else if (r == 0)
		r = -ENOMEM;
	pthread_mutex_unlock(&t->mu);
	return r;
}

int bc_rpc_tls_add_trusted(bc_rpc_tls *t, int format, const void *cert, size_t len)
{
	const unsigned char *p = cert;
	X509 *x = NULL;
	BIO *b;
	int r;

	if (!t || !cert || len > INT32_MAX)
		return -EINVAL;
	if (format == BINDERC_RPC_CERT_DER) {
		x = d2i_X509(NULL, &p, (long)len);
	} else if (format == BINDERC_RPC_CERT_PEM) {
		b = BIO_new_mem_buf(cert, (int)len);
		x = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
		BIO_free(b);
	} else {
		return -EINVAL;
	}
	if (!x)
		return fail(-EINVAL, "not a certificate");
	r = trust(t, x);
	X509_free(x);
	return r;
}

int bc_rpc_tls_load_trusted(bc_rpc_tls *t, const char *path)
{
	char *text = NULL;
	size_t len = 0, n = 0;
	BIO *b;
	X509 *x;
	int r;

	if (!t || !path)
		return -EINVAL;
	r = read_file(path, &text, &len);
	if (r < 0)
		return r;
	b = BIO_new_mem_buf(text, (int)len);
	while (r == 0 && b && (x = PEM_read_bio_X509(b, NULL, NULL, NULL))) {
		r = trust(t, x);
		X509_free(x);
		n++;
	}
	BIO_free(b);
	free(text);
	ERR_clear_error(); /* the end of the file reads as an error */
	if (r == 0 && n == 0)
		r = fail(-EINVAL, "%s: no PEM certificate", path);
	return r;
}

int bc__rpc_tls_ready(bc_rpc_tls *t)
{
	bool ok;

	if (!t)
		return -EINVAL;
	pthread_mutex_lock(&t->mu);
	ok = t->has_identity;
	pthread_mutex_unlock(&t->mu);
	return ok ? 0 : fail(-ENOKEY, "no certificate of our own");
}

/* ---- the socket under TLS ------------------------------------------------------ */

/*
 * OpenSSL's socket BIO writes with write(2), which raises SIGPIPE on a
 * closed connection; this one sends with MSG_NOSIGNAL, as the plain
 * transport does (and as Android's socket BIO does for the same reason).
 */
static int bio_write(BIO *b, const char *buf, int len)
{
	ssize_t n;

	do
		n = send((int)(intptr_t)BIO_get_data(b), buf, (size_t)len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	BIO_clear_retry_flags(b);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		BIO_set_retry_write(b);
	return (int)n;
}

static int bio_read(BIO *b, char *buf, int len)
{
	ssize_t n;

	do
		n = recv((int)(intptr_t)BIO_get_data(b), buf, (size_t)len, 0);
	while (n < 0 && errno == EINTR);
	BIO_clear_retry_flags(b);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		BIO_set_retry_read(b);
	return (int)n;
}

static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	(void)b, (void)num, (void)ptr;
	return cmd == BIO_CTRL_FLUSH; /* nothing is held back */
}

static BIO_METHOD *bio_method;
static pthread_once_t bio_once = PTHREAD_ONCE_INIT;

static void bio_method_init(void)
{
	BIO_METHOD *m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "binderc socket");

	if (m && BIO_meth_set_write(m, bio_write) && BIO_meth_set_read(m, bio_read) && BIO_meth_set_ctrl(m, bio_ctrl))
		bio_method = m;
	else
		BIO_meth_free(m);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for @events on @fd until @deadline (ms, CLOCK_MONOTONIC; -1: for
 * ever): 0 (or an error condition, for the next call to report), or
 * -EAGAIN when the time is up. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		int64_t left = deadline < 0 ? -1 : deadline - now_ms();
		int n;

		if (deadline >= 0 && left <= 0)
			return -EAGAIN;
		n = poll(&p, 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* A deadline @ms from now (0: none). */
static int64_t deadline_in(unsigned ms)
{
	return ms ? now_ms() + ms : -1;
}

/* Whether OpenSSL reason @reason is an alert the peer sent about our
 * certificate (OpenSSL numbers received alerts from SSL_AD_REASON_OFFSET). */
static bool cert_alert(int reason)
{
	switch (reason - SSL_AD_REASON_OFFSET) {
	case SSL_AD_BAD_CERTIFICATE:
	case SSL_AD_UNSUPPORTED_CERTIFICATE:
	case SSL_AD_CERTIFICATE_REVOKED:
	case SSL_AD_CERTIFICATE_EXPIRED:
	case SSL_AD_CERTIFICATE_UNKNOWN:
	case SSL_AD_UNKNOWN_CA:
	case SSL_AD_ACCESS_DENIED:
	case SSL_AD_CERTIFICATE_REQUIRED:
		return true;
	default:
		return false;
	}
}

/* -errno and words for a failed SSL call (@e from SSL_get_error()). */
static int ssl_error(SSL *ssl, int e, const char *what)
{
	unsigned long err = ERR_peek_error();
	int reason = ERR_GET_REASON(err);

	if (e == SSL_ERROR_ZERO_RETURN)
		return fail(-EPIPE, "%s: the peer closed the connection", what);
	if (e == SSL_ERROR_SYSCALL && !err)
		return fail(errno == ECONNRESET || errno == EPIPE || errno == 0 ? -EPIPE : -errno,
			    "%s: the connection ended", what);
	if (SSL_get_verify_result(ssl) != X509_V_OK)
		return fail(-EKEYREJECTED, "%s: the peer's certificate is not trusted here", what);
	if (reason == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE)
		return fail(-EKEYREJECTED, "%s: the peer presented no certificate", what);
	if (cert_alert(reason))
		return fail(-EKEYREJECTED, "%s: the peer refused our certificate", what);
	return fail(-EPROTO, "%s: TLS failed (does the peer speak TLS 1.3?)", what);
}

static SSL *ssl_of(const struct rpc_conn *c)
{
	return c->tls;
}

static ssize_t tls_read(struct rpc_conn *c, void *buf, size_t len, struct rx_fds *rx)
{
	SSL *ssl = ssl_of(c);
	int64_t deadline = deadline_in(c->timeout_ms);

	(void)rx; /* fds never travel over TLS */
	for (;;) {
		size_t n = 0;
		int e, r;

		ERR_clear_error();
		if (SSL_read_ex(ssl, buf, len, &n))
			return (ssize_t)n;
		e = SSL_get_error(ssl, 0);
		if (e == SSL_ERROR_ZERO_RETURN)
			return 0; /* the end of the stream, as recv()'s 0 */
		if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) {
			c->tls_failed = true;
			return ssl_error(ssl, e, "TLS read");
		}
		r = wait_fd(c->fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline);
		if (r < 0)
			return r;
	}
}

/* All of @len bytes at @p.  A write that would block on a connection
 * that drains reads the peer's commands meanwhile (rpc_conn.c). */
static int tls_write(struct rpc_conn *c, const uint8_t *p, size_t len)
{
	SSL *ssl = ssl_of(c);

	while (len) {
		size_t n = 0;
		int e, r;

		ERR_clear_error();
		if (SSL_write_ex(ssl, p, len, &n)) {
			p += n;
			len -= n;
			continue;
		}
		e = SSL_get_error(ssl, 0);
		if (e == SSL_ERROR_WANT_WRITE && bc__rpc_drains(c))
			r = bc__rpc_send_blocked(c);
		else if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ)
			r = wait_fd(c->fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, -1);
		else
			r = ssl_error(ssl, e, "TLS write");
		c->tls_failed = r < 0;
		if (r < 0)
			return r;
	}
	return 0;
}

/* A command's pieces in one TLS record where they fit one (16 KiB): a
 * record a piece would cost a header, a tag and a system call each. */
#define TLS_GATHER 16384

static int tls_sendv(struct rpc_conn *c, struct iovec *iov, size_t n, const int *fds, size_t n_fds)
{
	uint8_t buf[TLS_GATHER];
	size_t total = 0;

	(void)fds;
	if (n_fds)
		return -EOPNOTSUPP;
	for (size_t i = 0; i < n; i++)
		total += iov[i].iov_len;
	if (total <= sizeof(buf)) {
		total = 0;
		for (size_t i = 0; i < n; i++) {
			memcpy(buf + total, iov[i].iov_base, iov[i].iov_len);
			total += iov[i].iov_len;
		}
		return tls_write(c, buf, total);
	}
	for (size_t i = 0; i < n; i++) {
		int r = tls_write(c, iov[i].iov_base, iov[i].iov_len);

		if (r < 0)
			return r;
	}
	return 0;
}

static bool tls_buffered(const struct rpc_conn *c)
{
	return SSL_has_pending(ssl_of(c));
}

static void tls_close(struct rpc_conn *c)
{
	/* close_notify, if the socket takes it now (never waits), unless
	 * the connection failed: OpenSSL forbids it after a fatal error */
	if (!SSL_get_shutdown(ssl_of(c)) && !c->tls_failed)
		SSL_shutdown(ssl_of(c));
	SSL_free(ssl_of(c));
	ERR_clear_error();
	c->tls = NULL;
}

static const struct rpc_conn_ops tls_ops = {
	.sendv = tls_sendv,
	.read = tls_read,
	.buffered = tls_buffered,
	.close = tls_close,
};

/*
 * After a failed handshake: our alert must reach the peer, as its reason.
 * A socket closed with unread bytes (the rest of the peer's flight, or
 * its first RPC bytes: a TLS 1.3 client deems its handshake done before
 * the server checked its certificate) is reset, and a reset may overtake
 * the alert.  So only our side is shut, and the peer's bytes are read
 * and dropped until it closes too -- at most until @deadline.
 */
static void linger(int fd, int64_t deadline)
{
	char sink[4096];

	shutdown(fd, SHUT_WR);
	while (wait_fd(fd, POLLIN, deadline) == 0) {
		ssize_t n = recv(fd, sink, sizeof(sink), MSG_DONTWAIT);

		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
			break;
	}
}

int bc__rpc_tls_start(struct rpc_conn *c, bc_rpc_tls *t, bool server)
{
	int64_t deadline = deadline_in(c->timeout_ms);
	int fl = fcntl(c->fd, F_GETFL);
	SSL *ssl = NULL;
	BIO *bio = NULL;
	bool have;

	pthread_once(&bio_once, bio_method_init);
	ERR_clear_error();
	if (fl < 0 || fcntl(c->fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	pthread_mutex_lock(&t->mu);
	t->used = true; /* SSL_new() takes the identity as it is now */
	have = t->has_identity;
	if (have && bio_method)
		ssl = SSL_new(t->ctx);
	pthread_mutex_unlock(&t->mu);
	if (ssl)
		bio = BIO_new(bio_method);
	if (!bio) {
		SSL_free(ssl);
		return have ? fail(-ENOMEM, "TLS set-up failed") : fail(-ENOKEY, "no certificate of our own");
	}
	BIO_set_data(bio, (void *)(intptr_t)c->fd);
	BIO_set_init(bio, 1);
	SSL_set_bio(ssl, bio, bio);
	if (server)
		SSL_set_accept_state(ssl);
	else
		SSL_set_connect_state(ssl);
	for (;;) {
		int k = SSL_do_handshake(ssl), e, r;

		if (k == 1)
			break;
		e = SSL_get_error(ssl, k);
		if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE)
			r = wait_fd(c->fd, e == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline);
		else
			r = ssl_error(ssl, e, server ? "TLS handshake with a client" : "TLS handshake with the server");
		if (r == -EAGAIN)
			r = fail(-ETIMEDOUT, "TLS handshake: the peer said nothing in time");
		else if (r == -EKEYREJECTED || r == -EPROTO)
			linger(c->fd, deadline);
		if (r < 0) {
			SSL_free(ssl);
			return r;
		}
	}
	c->tls = ssl;
	c->ops = &tls_ops;
	return 0;
}
