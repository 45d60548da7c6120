// SPDX-License-Identifier: MIT
/*
 * hello-client [--rpc ADDR [--plain-tcp | --tls CERT KEY PEER-CERT]] [NAME]:
 * calls sayHello(NAME) on the hello service and prints the answer.  It
 * finds the service through the service manager, or with --rpc as the
 * root object of the RPC binder server at ADDR (hello-service --rpc ADDR;
 * tcp: addresses take TLS, or --plain-tcp); the call itself is the same
 * code either way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/rpc.h>
#include <binderc/servicemanager.h>

#include "hello.h"

/* The hello object, through the service manager on the binder device. */
static int find_on_device(bc_process **proc, bc_binder **hello)
{
	bc_sm *sm = NULL;
	int r = bc_process_open(NULL, proc);

	if (r == 0)
		r = bc_sm_new(*proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, HELLO_NAME, hello); /* waits up to 5 s for it */
	bc_sm_unref(sm);
	return r;
}

/* The hello object, as the root of the RPC binder server @o names. */
static int find_on_socket(const struct hello_rpc *o, bc_rpc_session **s, bc_binder **hello)
{
	int r = o->tls ? bc_rpc_session_connect_tls(o->addr, BINDERC_RPC_VERSION_DEFAULT, 0, o->tls, s)
		       : bc_rpc_session_connect(o->addr, BINDERC_RPC_VERSION_DEFAULT, o->flags, s);

	if (r == 0)
		r = bc_rpc_session_get_root(*s, hello);
	if (r == 0 && !*hello)
		r = -ENOENT;
	return r;
}

int main(int argc, char **argv)
{
	const char *name = "world";
	struct hello_rpc rpc;
	bc_process *proc = NULL;
	bc_rpc_session *session = NULL;
	bc_binder *hello = NULL;
	bc_parcel *req = NULL, *reply = NULL;
	char *answer = NULL;
	int i = 1, r;

	if (hello_rpc_options("hello-client", argc, argv, &i, &rpc) < 0 || argc - i > 1 ||
	    (argc - i == 1 && argv[i][0] == '-')) {
		fprintf(stderr, "usage: hello-client [--rpc ADDR [--plain-tcp | --tls CERT KEY PEER-CERT]] [NAME]\n");
		return 2;
	}
	if (argc - i == 1)
		name = argv[i];
	r = rpc.addr ? find_on_socket(&rpc, &session, &hello) : find_on_device(&proc, &hello);
	/* A parcel of the binder's own transport: kernel or RPC wire form. */
	if (r == 0)
		r = bc_binder_new_parcel(hello, &req);
	if (r == 0)
		r = bc_parcel_write_interface_token(req, HELLO_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_write_string16(req, name);
	if (r == 0)
		r = bc_binder_transact(hello, HELLO_SAY_HELLO, req, &reply, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_string16(reply, &answer, NULL);
	if (r < 0 && rpc.addr)
		hello_rpc_error("hello-client", &rpc, r);
	else if (r < 0)
		fprintf(stderr, "hello-client: %s\n", strerror(-r));
	else
		printf("%s\n", answer);
	free(answer);
	bc_parcel_unref(reply);
	bc_parcel_unref(req);
	bc_binder_unref(hello);
	bc_rpc_session_unref(session);
	bc_process_unref(proc);
	bc_rpc_tls_unref(rpc.tls);
	return r < 0;
}
