// SPDX-License-Identifier: MIT
/*
 * hello-client [NAME]: finds "hello" through the service manager, calls
 * sayHello(NAME) and prints the answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "hello.h"

int main(int argc, char **argv)
{
	bc_process *proc = NULL;
	bc_sm *sm = NULL;
	bc_binder *hello = NULL;
	bc_parcel *req = NULL, *reply = NULL;
	char *answer = NULL;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, HELLO_NAME, &hello); /* waits up to 5 s for it */
	if (r == 0)
		r = bc_binder_new_parcel(hello, &req);
	if (r == 0)
		r = bc_parcel_write_interface_token(req, HELLO_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_write_string16(req, argc > 1 ? argv[1] : "world");
	if (r == 0)
		r = bc_binder_transact(hello, HELLO_SAY_HELLO, req, &reply, 0, NULL);
	if (r == 0)
		r = bc_parcel_read_string16(reply, &answer, NULL);
	if (r < 0) {
		fprintf(stderr, "hello-client: %s\n", strerror(-r));
		return 1;
	}
	printf("%s\n", answer);
	free(answer);
	bc_parcel_unref(reply);
	bc_parcel_unref(req);
	bc_binder_unref(hello);
	bc_sm_unref(sm);
	bc_process_unref(proc);
	return 0;
}
