// SPDX-License-Identifier: MIT
/*
 * hello-service: serves one object, registered as "hello", whose method
 * sayHello(String name) answers with a greeting.  Device: $BINDER_DEVICE,
 * else /dev/binderc, else /dev/binder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/binderc.h>
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
	snprintf(msg, sizeof(msg), "Hello, %s! (answered by pid %d to uid %u)", name ? name : "stranger",
		 (int)getpid(), (unsigned)bc_txn_get_calling_euid(txn));
	free(name);
	return bc_parcel_write_string16(reply, msg);
}

int main(void)
{
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *hello = NULL;
	bc_sm *sm = NULL;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0) /* the library checks the interface token for us */
		r = bc_class_new(HELLO_DESCRIPTOR, on_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
	if (r == 0)
		r = bc_binder_new(cls, NULL, &hello);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, HELLO_NAME, hello, 0, 0);
	if (r < 0) {
		fprintf(stderr, "hello-service: %s\n", strerror(-r));
		return 1;
	}
	printf("hello-service: registered '%s' on %s, serving\n", HELLO_NAME, bc_process_get_device(proc));
	fflush(stdout);
	r = bc_process_join(proc); /* serve on this thread until stopped */
	bc_sm_unref(sm);
	bc_binder_unref(hello);
	bc_class_unref(cls);
	bc_process_unref(proc);
	return r < 0;
}
