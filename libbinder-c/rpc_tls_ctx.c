/* SPDX-License-Identifier: MIT */
/*
 * A TLS context of RPC binder (<binderc/rpc_tls.h>), with OpenSSL: our
 * certificate and key, the peers we trust, and errors in words.
 *
 * As Android's RpcCertificateVerifierSimple: a peer is accepted when its
 * own certificate is one of the trusted ones (X509_cmp), whoever signed
 * it -- certificates are pinned, exchanged out of band, most often
 * self-signed.  TLS 1.3 only, a certificate on both sides.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "rpc_tls_internal.h"

/* ---- errors ------------------------------------------------------------------ */

static _Thread_local char tl_error[256];

const char *bc_rpc_tls_last_error(void)
{
	return tl_error;
}

/* (The queue is per thread: a stale entry would be blamed for the next
 * failure.) */
int bc__rpc_tls_fail(int r, const char *fmt, ...)
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
		return bc__rpc_tls_fail(-ENOMEM, "no TLS context");
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
		return bc__rpc_tls_fail(-EKEYREJECTED, "the private key is not the certificate's");
	pthread_mutex_lock(&t->mu);
	if (t->used) {
		r = -EBUSY;
	} else if (SSL_CTX_use_certificate(t->ctx, cert) != 1 || SSL_CTX_use_PrivateKey(t->ctx, key) != 1) {
		t->has_identity = false; /* half replaced: none */
		r = bc__rpc_tls_fail(-EINVAL, "certificate or key not usable");
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
	r = cert ? use_identity(t, cert, key) : bc__rpc_tls_fail(-ENOMEM, "making a certificate failed");
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
		r = bc__rpc_tls_fail(-ENOMEM, "no memory");
	else if (!cert || !key)
		r = bc__rpc_tls_fail(-EINVAL, "no PEM %s", cert ? "private key" : "certificate");
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
		return bc__rpc_tls_fail(-errno, "%s: %s", path, strerror(errno));
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
		return bc__rpc_tls_fail(-errno, "%s: %s", path, strerror(errno));
	/* an existing file keeps its mode: a key must not stay readable */
	if (fchmod(fd, mode) < 0 || !(f = fdopen(fd, "w"))) {
		int r = -errno;

		close(fd);
		return bc__rpc_tls_fail(r, "%s: %s", path, strerror(-r));
	}
	ok = cert ? PEM_write_X509(f, cert) : PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
	if (fclose(f) != 0)
		ok = false;
	return ok ? 0 : bc__rpc_tls_fail(-EIO, "%s: writing failed", path);
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
		r = bc__rpc_tls_fail(-ENOMEM, "encoding the certificate failed");
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
		return bc__rpc_tls_fail(-EINVAL, "not a certificate");
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
		r = bc__rpc_tls_fail(-EINVAL, "%s: no PEM certificate", path);
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
	return ok ? 0 : bc__rpc_tls_fail(-ENOKEY, "no certificate of our own");
}
