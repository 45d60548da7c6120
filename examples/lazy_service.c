// SPDX-License-Identifier: MIT
/*
 * lazy-service [NAME]: the hello service (sayHello) as a lazy service.
 * It registers as NAME (default "lazy-hello"), asks the service manager
 * to tell it about its clients, and when told that nobody holds it any
 * more it unregisters and exits -- unless a client came meanwhile, in
 * which case the unregistration is refused and it keeps serving.
 *
 * Started by hand it serves until unused; with a policy line such as
 *   start-command lazy-hello /usr/bin/lazy-service lazy-hello
 * binder-c's servicemanager starts it again when a client asks for it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "hello.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static bool unused; /* told "no clients", not yet acted on */

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *data)
{
	char *name = NULL, msg[256];
	int r;

	(void)self, (void)txn, (void)data;
	if (code != HELLO_SAY_HELLO)
		return -EBADMSG;
	r = bc_parcel_read_string16(in, &name, NULL);
	if (r < 0)
		return r;
	snprintf(msg, sizeof(msg), "Hello, %s! (answered by pid %d)", name ? name : "stranger", (int)getpid());
	free(name);
	return bc_parcel_write_string16(reply, msg);
}

/* On a pool thread: only note it; main() does the unregistering. */
static void on_clients(bc_binder *service, bool has_clients, void *userdata)
{
	(void)service, (void)userdata;
	printf("lazy-service: %s\n", has_clients ? "has clients" : "no clients");
	fflush(stdout);
	pthread_mutex_lock(&mu);
	unused = !has_clients;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&mu);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "lazy-hello";
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	bc_slot *cc = NULL;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_class_new(HELLO_DESCRIPTOR, on_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
	if (r == 0)
		r = bc_binder_new(cls, NULL, &obj);
	if (r == 0) /* the callbacks arrive on pool threads */
		r = bc_process_start_thread_pool(proc);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_AIDL, &sm);
	if (r == 0)
		r = bc_sm_add(sm, name, obj, 0, 0);
	if (r == 0)
		r = bc_sm_register_client_callback(sm, name, obj, on_clients, NULL, &cc);
	if (r < 0) {
		fprintf(stderr, "lazy-service: %s\n", strerror(-r));
		return 1;
	}
	printf("lazy-service: registered '%s' (pid %d)\n", name, (int)getpid());
	fflush(stdout);
	for (;;) {
		pthread_mutex_lock(&mu);
		while (!unused)
			pthread_cond_wait(&cond, &mu);
		unused = false;
		pthread_mutex_unlock(&mu);
		r = bc_sm_try_unregister(sm, name, obj);
		if (r == 0)
			break;
		/* -EBUSY: a client got it after all; we will be told again. */
		printf("lazy-service: still wanted (%s)\n", strerror(-r));
		fflush(stdout);
	}
	printf("lazy-service: unregistered, exiting\n");
	bc_slot_unref(cc);
	bc_sm_unref(sm);
	bc_binder_unref(obj);
	bc_class_unref(cls);
	bc_process_stop(proc);
	bc_process_unref(proc);
	return 0;
}
