// SPDX-License-Identifier: MIT
// Serve an object in one process and call it from another.  The parent
// becomes the context manager, so the child finds the object at handle 0.
// With --rpc ADDR there is no device: the parent serves the object as the
// root of an RPC binder server at ADDR, and the child connects there.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <binderc/binderc.h>
#include <binderc/rpc.h>

enum { HELLO = BINDERC_FIRST_CALL_TRANSACTION };

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	char *name = NULL, msg[128];

	(void)self, (void)ud;
	if (code != HELLO || bc_parcel_read_string16(in, &name, NULL) < 0 || !name)
		return -EBADMSG;
	snprintf(msg, sizeof(msg), "hello %s, from pid %d to pid %d", name, (int)getpid(),
		 (int)bc_txn_get_calling_pid(txn));
	free(name);
	return bc_parcel_write_string16(reply, msg);
}

/* The client: a fresh process state (or session) of its own. */
static int client(const char *rpc)
{
	bc_process *p;
	bc_rpc_session *s;
	bc_binder *hello;
	bc_parcel *req, *rep = NULL;
	char *answer = NULL;

	if (rpc ? bc_rpc_session_connect(rpc, BINDERC_RPC_VERSION_DEFAULT, 0, &s) < 0 ||
			  bc_rpc_session_get_root(s, &hello) < 0 || !hello
		: bc_process_open(NULL, &p) < 0 || bc_process_get_handle(p, 0, &hello) < 0)
		return 1;
	if (bc_binder_new_parcel(hello, &req) < 0 || bc_parcel_write_string16(req, "world") < 0 ||
	    bc_binder_transact(hello, HELLO, req, &rep, 0, NULL) < 0 || bc_parcel_read_string16(rep, &answer, NULL) < 0)
		return 1;
	puts(answer);
	fflush(stdout);
	return 0;
}

static int listen_fd = -1; /* --rpc: the server's socket */

static void *serve(void *srv)
{
	bc_rpc_server_join(srv, listen_fd);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *rpc = argc == 3 && strcmp(argv[1], "--rpc") == 0 ? argv[2] : NULL;
	int status;
	bc_rpc_server *srv = NULL;
	bc_process *proc;
	bc_class *cls;
	bc_binder *obj;
	pthread_t th;

	if (argc != 1 && !rpc)
		return 2;
	if (bc_class_new("example.IHello", on_transact, NULL, 0, &cls) < 0 || bc_binder_new(cls, NULL, &obj) < 0)
		return 1;
	/* Listening before the fork: the child's connection waits for us. */
	if (rpc ? bc_rpc_listen(rpc, 0, &listen_fd) < 0 || bc_rpc_server_new(obj, &srv) < 0
		: bc_process_open(NULL, &proc) < 0 || bc_process_become_context_manager(proc, obj) < 0 ||
			  bc_process_start_thread_pool(proc) < 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0)
		_exit(client(rpc));
	/* Over RPC the parent serves after the fork: a child forked while a
	 * thread of the library's holds a lock would inherit it held. */
	if (rpc && pthread_create(&th, NULL, serve, srv) != 0)
		return 1;
	waitpid(pid, &status, 0);
	if (rpc) {
		bc_rpc_server_shutdown(srv);
		pthread_join(th, NULL);
		bc_rpc_server_unref(srv);
		close(listen_fd);
		bc_binder_unref(obj);
		bc_class_unref(cls);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
