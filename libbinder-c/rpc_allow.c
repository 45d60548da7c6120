/* SPDX-License-Identifier: MIT */
/*
 * Who may connect to an RPC server, by the peer's address (issue 33's
 * "vsock by CID").  A unix socket is guarded by its file's permissions
 * and tells handlers the caller's credentials; TCP by TLS certificates;
 * a vsock listener has neither, and any VM that can reach the host's
 * port could connect.  So a server can name the CIDs it serves: once
 * one is named, a vsock peer from any other CID is closed before a byte
 * of it is read.  Peers of other families are not affected.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <linux/vm_sockets.h>

#include "rpc_internal.h"

/* A bound on the list, which is searched once per connection. */
#define RPC_MAX_ALLOWED_CIDS 1024

int bc_rpc_server_allow_vsock_cid(bc_rpc_server *srv, uint32_t cid)
{
	uint32_t *cids;
	int r = 0;

	if (!srv || cid == VMADDR_CID_ANY)
		return -EINVAL;
	pthread_mutex_lock(&srv->mu);
	for (size_t i = 0; i < srv->n_vsock_cids; i++)
		if (srv->vsock_cids[i] == cid)
			goto out;
	if (srv->n_vsock_cids == RPC_MAX_ALLOWED_CIDS) {
		r = -ENOSPC;
		goto out;
	}
	cids = realloc(srv->vsock_cids, (srv->n_vsock_cids + 1) * sizeof(*cids));
	if (!cids) {
		r = -ENOMEM;
		goto out;
	}
	cids[srv->n_vsock_cids++] = cid;
	srv->vsock_cids = cids;
out:
	pthread_mutex_unlock(&srv->mu);
	return r;
}

int bc__rpc_server_peer_allowed(bc_rpc_server *srv, int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	const struct sockaddr_vm *vm = (const struct sockaddr_vm *)&ss;
	int r = -EACCES;

	pthread_mutex_lock(&srv->mu);
	if (srv->n_vsock_cids == 0) {
		r = 0;
		goto out;
	}
	if (getpeername(fd, (struct sockaddr *)&ss, &len) < 0) {
		r = -errno;
		goto out;
	}
	if (ss.ss_family != AF_VSOCK) {
		r = 0;
		goto out;
	}
	for (size_t i = 0; i < srv->n_vsock_cids; i++)
		if (srv->vsock_cids[i] == vm->svm_cid)
			r = 0;
	if (r < 0)
		bc__log("rpc: vsock peer from CID %u refused: not an allowed CID", vm->svm_cid);
out:
	pthread_mutex_unlock(&srv->mu);
	return r;
}
