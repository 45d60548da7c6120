// SPDX-License-Identifier: MIT
/*
 * hello-service [--rpc ADDR [--plain-tcp | --tls CERT KEY PEER-CERT]]:
 * serves one object whose method sayHello(String name) answers with a
 * greeting.
 *
 * Without options it registers the object as "hello" with the service
 * manager on $BINDER_DEVICE (else /dev/binderc, else /dev/binder).  With
 * --rpc it opens no binder device at all: it listens on the socket
 * address ADDR (unix:PATH, unix-abstract:NAME, vsock:CID:PORT, or
 * tcp:HOST:PORT with TLS -- our certificate and key, and the client's
 * certificate, the only one accepted -- or with --plain-tcp: unencrypted,
 * anyone who reaches the port may call) and serves the same object there
 * as the root of an RPC binder server, which is how binder works between
 * VMs and machines, or where no binder module is loaded.  It prints the
 * address it listens on (port 0 becomes the port the kernel chose).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/rpc.h>
#include <binderc/servicemanager.h>

#include "hello.h"

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *data)
{
	char *name = NULL, msg[256];
	int r;

	(void)self, (void)data;
	if (code != HELLO_SAY_HELLO)
		return -EBADMSG; /* unknown transaction */
	r = bc_parcel_read_string16(in, &name, NULL);
	if (r < 0)
		return r;
	uid_t uid = bc_txn_get_calling_euid(txn);

	/* over TCP the caller is nobody the kernel can name: (uid_t)-1 */
	if (uid == (uid_t)-1)
		snprintf(msg, sizeof(msg), "Hello, %s! (answered by pid %d to a caller of unknown uid)",
			 name ? name : "stranger", (int)getpid());
	else
		snprintf(msg, sizeof(msg), "Hello, %s! (answered by pid %d to uid %u)", name ? name : "stranger",
			 (int)getpid(), (unsigned)uid);
	free(name);
	return bc_parcel_write_string16(reply, msg);
}

/* Register @hello with the service manager and serve on this thread. */
static int serve_on_device(bc_binder *hello)
{
	bc_process *proc = NULL;
	bc_sm *sm = NULL;
	int r = bc_process_open(NULL, &proc);

	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, HELLO_NAME, hello, 0, 0);
	if (r == 0) {
		printf("hello-service: registered '%s' on %s, serving\n", HELLO_NAME,
		       bc_process_get_device(proc));
		fflush(stdout);
		r = bc_process_join(proc); /* until stopped */
	}
	bc_sm_unref(sm);
	bc_process_unref(proc);
	return r;
}

/* Serve @hello as the root object of an RPC server, as @o says. */
static int serve_on_socket(bc_binder *hello, const struct hello_rpc *o)
{
	bc_rpc_server *srv = NULL;
	char where[128];
	int fd = -1, r = bc_rpc_listen(o->addr, o->flags, &fd);

	if (r == 0)
		r = bc_rpc_server_new(hello, &srv);
	if (r == 0 && o->tls)
		r = bc_rpc_server_set_tls(srv, o->tls);
	if (r == 0 && bc_rpc_socket_address(fd, false, where, sizeof(where)) < 0)
		snprintf(where, sizeof(where), "%s", o->addr);
	if (r == 0) {
		printf("hello-service: serving '%s' over RPC binder at %s%s\n", HELLO_DESCRIPTOR, where,
		       o->tls ? " (TLS)" : "");
		fflush(stdout);
		r = bc_rpc_server_join(srv, fd); /* a thread per session */
	}
	bc_rpc_server_unref(srv);
	if (fd >= 0)
		close(fd);
	return r;
}

int main(int argc, char **argv)
{
	struct hello_rpc rpc;
	bc_class *cls = NULL;
	bc_binder *hello = NULL;
	int i = 1, r;

	if (hello_rpc_options("hello-service", argc, argv, &i, &rpc) < 0 || i != argc) {
		fprintf(stderr, "usage: hello-service [--rpc ADDR [--plain-tcp | --tls CERT KEY PEER-CERT]]\n");
		return 2;
	}
	/* the library checks the interface token for us */
	r = bc_class_new(HELLO_DESCRIPTOR, on_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
	if (r == 0)
		r = bc_binder_new(cls, NULL, &hello);
	if (r == 0)
		r = rpc.addr ? serve_on_socket(hello, &rpc) : serve_on_device(hello);
	if (r < 0 && rpc.addr)
		hello_rpc_error("hello-service", &rpc, r);
	else if (r < 0)
		fprintf(stderr, "hello-service: %s\n", strerror(-r));
	bc_binder_unref(hello);
	bc_class_unref(cls);
	bc_rpc_tls_unref(rpc.tls);
	return r < 0;
}
