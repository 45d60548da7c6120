/* SPDX-License-Identifier: MIT */
/*
 * What the two halves of RPC over TLS share: the context
 * (rpc_tls_ctx.c: certificates, trust, errors in words) and the
 * transport (rpc_tls.c: handshake and I/O of a connection).
 */
#ifndef BINDERC_RPC_TLS_INTERNAL_H
#define BINDERC_RPC_TLS_INTERNAL_H

#include <openssl/ssl.h>

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

/* Say what went wrong, for bc_rpc_tls_last_error() (with OpenSSL's first
 * queued reason, if any; the queue is emptied), and return @r. */
int bc__rpc_tls_fail(int r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
