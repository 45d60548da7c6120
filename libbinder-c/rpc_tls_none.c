/* SPDX-License-Identifier: MIT */
/*
 * <binderc/rpc_tls.h> in a build without OpenSSL (make LBC_TLS=no: the
 * cross and -m32 builds, whose roots hold no libssl): the API is there,
 * so that programs link the same everywhere, and says -EOPNOTSUPP.  No
 * context can be made, so no session or server ever reaches a
 * handshake.
 */
#include <errno.h>

#include "rpc_internal.h"

int bc_rpc_tls_new(bc_rpc_tls **ret)
{
	if (ret)
		*ret = NULL;
	return -EOPNOTSUPP;
}

bc_rpc_tls *bc_rpc_tls_ref(bc_rpc_tls *t)
{
	return t;
}

bc_rpc_tls *bc_rpc_tls_unref(bc_rpc_tls *t)
{
	(void)t;
	return NULL;
}

int bc_rpc_tls_generate(bc_rpc_tls *t, unsigned days)
{
	(void)t, (void)days;
	return -EOPNOTSUPP;
}

int bc_rpc_tls_set_identity(bc_rpc_tls *t, const void *cert_pem, size_t cert_len, const void *key_pem,
			    size_t key_len)
{
	(void)t, (void)cert_pem, (void)cert_len, (void)key_pem, (void)key_len;
	return -EOPNOTSUPP;
}

int bc_rpc_tls_load_identity(bc_rpc_tls *t, const char *cert_path, const char *key_path)
{
	(void)t, (void)cert_path, (void)key_path;
	return -EOPNOTSUPP;
}

int bc_rpc_tls_save_identity(const bc_rpc_tls *t, const char *cert_path, const char *key_path)
{
	(void)t, (void)cert_path, (void)key_path;
	return -EOPNOTSUPP;
}

int bc_rpc_tls_get_certificate(const bc_rpc_tls *t, int format, void **ret, size_t *ret_len)
{
	(void)t, (void)format, (void)ret, (void)ret_len;
	return -EOPNOTSUPP;
}

int bc_rpc_tls_add_trusted(bc_rpc_tls *t, int format, const void *cert, size_t len)
{
	(void)t, (void)format, (void)cert, (void)len;
	return -EOPNOTSUPP;
}

int bc_rpc_tls_load_trusted(bc_rpc_tls *t, const char *path)
{
	(void)t, (void)path;
	return -EOPNOTSUPP;
}

const char *bc_rpc_tls_last_error(void)
{
	return "built without TLS (OpenSSL)";
}

int bc__rpc_tls_ready(bc_rpc_tls *t)
{
	(void)t;
	return -EOPNOTSUPP;
}

int bc__rpc_tls_start(struct rpc_conn *c, bc_rpc_tls *t, bool server)
{
	(void)c, (void)t, (void)server;
	return -EOPNOTSUPP;
}
