/* SPDX-License-Identifier: MIT */
/*
 * RPC binder connections over TLS, with OpenSSL: the handshake on a
 * connected socket, before RPC binder's connection header (as Android's
 * RpcTransportTls), and the connection's transport once it is done
 * (struct rpc_conn_ops).  The context is rpc_tls_ctx.c's.
 *
 * The socket is non-blocking under TLS: a read waits in poll() for at
 * most the connection's timeout (the set-up's bound), and a write that
 * would block can read the peer's commands meanwhile (bc__rpc_drains),
 * which a blocking SSL_write() could not.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>

#include "rpc_tls_internal.h"

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
		return bc__rpc_tls_fail(-EPIPE, "%s: the peer closed the connection", what);
	if (e == SSL_ERROR_SYSCALL && !err)
		return bc__rpc_tls_fail(errno == ECONNRESET || errno == EPIPE || errno == 0 ? -EPIPE : -errno,
			    "%s: the connection ended", what);
	if (SSL_get_verify_result(ssl) != X509_V_OK)
		return bc__rpc_tls_fail(-EKEYREJECTED, "%s: the peer's certificate is not trusted here", what);
	if (reason == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE)
		return bc__rpc_tls_fail(-EKEYREJECTED, "%s: the peer presented no certificate", what);
	if (cert_alert(reason))
		return bc__rpc_tls_fail(-EKEYREJECTED, "%s: the peer refused our certificate", what);
	return bc__rpc_tls_fail(-EPROTO, "%s: TLS failed (does the peer speak TLS 1.3?)", what);
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
		return have ? bc__rpc_tls_fail(-ENOMEM, "TLS set-up failed") : bc__rpc_tls_fail(-ENOKEY, "no certificate of our own");
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
			r = bc__rpc_tls_fail(-ETIMEDOUT, "TLS handshake: the peer said nothing in time");
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
