// SPDX-License-Identifier: MIT
// Serve an object in one process and call it from another.  The parent
// becomes the context manager, so the child finds the object at handle 0.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <binderc/binderc.h>

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

int main(void)
{
	bc_process *proc;
	bc_class *cls;
	bc_binder *obj;
	int status;

	if (bc_process_open(NULL, &proc) < 0 || bc_class_new("example.IHello", on_transact, NULL, 0, &cls) < 0 ||
	    bc_binder_new(cls, NULL, &obj) < 0 || bc_process_become_context_manager(proc, obj) < 0 ||
	    bc_process_start_thread_pool(proc) < 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) { /* client: a fresh process state of its own */
		bc_process *p;
		bc_binder *hello;
		bc_parcel *req, *rep = NULL;
		char *answer = NULL;

		if (bc_process_open(NULL, &p) < 0 || bc_process_get_handle(p, 0, &hello) < 0 ||
		    bc_binder_new_parcel(hello, &req) < 0 || bc_parcel_write_string16(req, "world") < 0 ||
		    bc_binder_transact(hello, HELLO, req, &rep, 0, NULL) < 0 || bc_parcel_read_string16(rep, &answer, NULL) < 0)
			_exit(1);
		puts(answer);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
