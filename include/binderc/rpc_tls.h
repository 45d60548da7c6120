/* SPDX-License-Identifier: MIT */
/*
 * binderc/rpc_tls.h - RPC binder over TLS, as Android's
 * RpcTransportCtxFactoryTls: TLS 1.3 with a certificate on both sides,
 * each side trusting exactly the peer certificates it was given
 * (pinning, as RpcCertificateVerifierSimple: no certificate authority,
 * no host name, no chain -- the peer's own certificate must be one of
 * the trusted ones).  Certificates are exchanged out of band, as in
 * Android: bc_rpc_tls_get_certificate() on one side,
 * bc_rpc_tls_add_trusted() on the other.
 *
 * The handshake runs as soon as the socket is connected, before RPC
 * binder's connection header, on every connection of a session (joins
 * too); after it the protocol's bytes travel inside TLS records,
 * unchanged.  File descriptors never travel over TLS
 * (BINDERC_RPC_FDS: -EOPNOTSUPP).  The handshake is bounded as the rest
 * of the set-up: bc_rpc_client_set_setup_timeout(),
 * bc_rpc_server_set_setup_timeout().
 *
 * Errors of a handshake: -EKEYREJECTED when the peer's certificate is
 * not trusted here, or when the peer refused ours (with TLS 1.3 a client
 * learns that only on its first read: bc_rpc_session_connect_tls() says
 * it); -EPROTO when the peer does not speak TLS 1.3 (e.g. plain RPC);
 * -ETIMEDOUT, -EPIPE (the peer closed).  bc_rpc_tls_last_error() tells
 * more, in words, on the thread that saw the error.
 *
 * A context may be shared by any number of sessions and servers, and
 * used from several threads once set up; trusted certificates may be
 * added at any time (they count from the next handshake).
 *
 * Built without OpenSSL (make LBC_TLS=no), every function here says
 * -EOPNOTSUPP.
 */
#ifndef BINDERC_RPC_TLS_H
#define BINDERC_RPC_TLS_H

#include <stddef.h>
#include <stdint.h>

#include <binderc/rpc.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bc_rpc_tls bc_rpc_tls;

/** Certificate formats (Android's RpcCertificateFormat). */
#define BINDERC_RPC_CERT_PEM 0
#define BINDERC_RPC_CERT_DER 1

/** A context with no certificate of its own and no trusted peer. */
int bc_rpc_tls_new(bc_rpc_tls **ret);
bc_rpc_tls *bc_rpc_tls_ref(bc_rpc_tls *t);
bc_rpc_tls *bc_rpc_tls_unref(bc_rpc_tls *t);

/**
 * Our own certificate: a fresh self-signed one, valid for @days from
 * now, on a new P-256 key (as Android's RpcAuthSelfSigned makes them).
 * -EBUSY once the context was used for a handshake.
 */
int bc_rpc_tls_generate(bc_rpc_tls *t, unsigned days);
/** Our own certificate and private key, in PEM, from memory or files
 * (-EINVAL for text that is no certificate or key, -EKEYREJECTED when
 * the key is not the certificate's, -errno of the files; -EBUSY once
 * used). */
int bc_rpc_tls_set_identity(bc_rpc_tls *t, const void *cert_pem, size_t cert_len, const void *key_pem,
			    size_t key_len);
int bc_rpc_tls_load_identity(bc_rpc_tls *t, const char *cert_path, const char *key_path);
/** Write our certificate and key as PEM files (the key's mode 0600; an
 * existing file is replaced).  -ENOKEY without an identity. */
int bc_rpc_tls_save_identity(const bc_rpc_tls *t, const char *cert_path, const char *key_path);
/**
 * Our certificate in @format (BINDERC_RPC_CERT_PEM or _DER), for the
 * peer to trust: *@ret (malloc'd, the caller's to free()), *@ret_len
 * bytes (PEM text is NUL-ended too, not counted).  -ENOKEY without one.
 */
int bc_rpc_tls_get_certificate(const bc_rpc_tls *t, int format, void **ret, size_t *ret_len);
/** Trust a peer presenting exactly @cert (@len bytes in @format).
 * -EINVAL for bytes that are no certificate. */
int bc_rpc_tls_add_trusted(bc_rpc_tls *t, int format, const void *cert, size_t len);
/** Trust every certificate of PEM file @path (at least one). */
int bc_rpc_tls_load_trusted(bc_rpc_tls *t, const char *path);

/** What went wrong with the last TLS error on this thread, in words
 * ("" if none); valid until the next TLS call on the thread. */
const char *bc_rpc_tls_last_error(void);

/* ---- sessions and servers ------------------------------------------------ */

/**
 * bc_rpc_session_connect_fd() over TLS with context @tls (a reference is
 * kept: the session's joins use it too), after a handshake as the client
 * on @fd.  -ENOKEY if @tls has no certificate of its own, -EOPNOTSUPP
 * with BINDERC_RPC_FDS; the handshake's errors above.
 */
int bc_rpc_session_connect_fd_tls(int fd, uint32_t max_version, unsigned flags, bc_rpc_tls *tls,
				  bc_rpc_session **ret);
/** bc_rpc_session_connect() over TLS: tcp: addresses need no
 * BINDERC_RPC_PLAIN_TCP (and give no warning). */
int bc_rpc_session_connect_tls(const char *addr, uint32_t max_version, unsigned flags, bc_rpc_tls *tls,
			       bc_rpc_session **ret);
/**
 * Serve every connection of @srv over TLS with context @tls (a
 * reference is kept; NULL: plain again): each begins with a handshake
 * as the server, whose failure ends it (bc_rpc_server_serve_fd() says
 * why).  Clients must present a trusted certificate.  -ENOKEY if @tls
 * has no certificate of its own.  File descriptors are refused.
 */
int bc_rpc_server_set_tls(bc_rpc_server *srv, bc_rpc_tls *tls);

#ifdef __cplusplus
}
#endif

#endif
