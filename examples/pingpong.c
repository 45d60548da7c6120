// SPDX-License-Identifier: MIT
/* pingpong: the parent serves an object as context manager (handle 0: no servicemanager
 * may run on the device); a child calls it.  "r = r ? r : f()" runs f if all went well. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <binderc/binderc.h>

static int add_one(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *data)
{
	int32_t n;

	(void)self, (void)txn, (void)code, (void)data;
	return bc_parcel_read_int32(in, &n) < 0 ? -EBADMSG : bc_parcel_write_int32(reply, n + 1);
}

static int child(int go)
{
	bc_process *proc = NULL;
	bc_binder *obj = NULL;
	bc_parcel *req = NULL, *reply = NULL;
	int32_t n = 0, r = read(go, &n, 1) == 1 ? 0 : -EPIPE; /* the parent is serving */

	r = r ? r : bc_process_open(NULL, &proc);
	r = r ? r : bc_process_get_handle(proc, 0, &obj);
	r = r ? r : bc_binder_new_parcel(obj, &req);
	r = r ? r : bc_parcel_write_int32(req, 41);
	r = r ? r : bc_binder_transact(obj, 1, req, &reply, 0, NULL);
	r = r ? r : bc_parcel_read_int32(reply, &n);
	printf("pingpong: pid %d sent 41, got %d back (%s)\n", (int)getpid(), r ? -1 : (int)n, strerror(-r));
	bc_parcel_unref(reply), bc_parcel_unref(req), bc_binder_unref(obj), bc_process_unref(proc);
	return r != 0;
}

int main(void)
{
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *obj = NULL;
	int go[2], st = 0, r = pipe(go) ? -errno : 0;
	pid_t pid = r ? -1 : fork();

	if (pid == 0)
		return close(go[1]), child(go[0]);
	r = pid < 0 ? -EAGAIN : bc_process_open(NULL, &proc);
	r = r ? r : bc_class_new("org.binderc.example.IPingPong", add_one, NULL, 0, &cls);
	r = r ? r : bc_binder_new(cls, NULL, &obj);
	r = r ? r : bc_process_become_context_manager(proc, obj);
	r = r ? r : bc_process_start_thread_pool(proc);
	r = r ? r : (write(go[1], "g", 1) == 1 ? 0 : -errno);
	close(go[1]); /* on failure the child reads EOF and gives up */
	if (r)
		fprintf(stderr, "pingpong: %s\n", strerror(-r));
	waitpid(pid, &st, 0);
	bc_binder_unref(obj), bc_class_unref(cls), bc_process_unref(proc);
	return r || !WIFEXITED(st) || WEXITSTATUS(st);
}
