// SPDX-License-Identifier: MIT
/*
 * greeter-client NAME [grumpy]: finds "greeter" through the service
 * manager and talks to it through the proxy functions bc-aidl generated
 * from IGreeter.aidl: asks the interface version, subscribes a listener
 * (a stub of IGreeterListener served by this process's thread pool),
 * greets NAME, waits for the listener to hear of it, lists the names.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "org_binderc_examples_IGreeter.h"
#include "org_binderc_examples_IGreeterListener.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t heard_cond = PTHREAD_COND_INITIALIZER;
static int heard;

static int greeted(void *self, const char *name, int32_t count)
{
	(void)self;
	printf("listener: the greeter greeted %s (greeting #%d)\n", name, count);
	fflush(stdout);
	pthread_mutex_lock(&lock);
	heard = 1;
	pthread_cond_signal(&heard_cond);
	pthread_mutex_unlock(&lock);
	return 0;
}

static const struct org_binderc_examples_IGreeterListener_ops listener_ops = { .greeted = greeted };

static int fail(const char *what, int r)
{
	if (r > 0)
		fprintf(stderr, "greeter-client: %s: service error %d\n", what, r);
	else
		fprintf(stderr, "greeter-client: %s: %s\n", what, strerror(-r));
	return 1;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "world";
	org_binderc_examples_Mood mood = argc > 2 && !strcmp(argv[2], "grumpy") ? org_binderc_examples_Mood_GRUMPY
										  : org_binderc_examples_Mood_CHEERFUL;
	bc_process *proc = NULL;
	bc_sm *sm = NULL;
	bc_binder *greeter = NULL, *listener = NULL;
	org_binderc_examples_Greeting g;
	struct timespec until;
	char **names = NULL;
	size_t n_names = 0;
	int32_t version = 0;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_process_start_thread_pool(proc); /* serves the listener */
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, org_binderc_examples_IGreeter_SERVICE_NAME, &greeter);
	if (r < 0)
		return fail("finding the greeter", r);

	r = org_binderc_examples_IGreeter_getInterfaceVersion(greeter, &version);
	if (r != 0)
		return fail("getInterfaceVersion", r);
	printf("greeter: interface version %d\n", version);

	r = org_binderc_examples_IGreeterListener_stub_new(&listener_ops, NULL, NULL, &listener);
	if (r == 0)
		r = org_binderc_examples_IGreeter_subscribe(greeter, listener);
	if (r != 0)
		return fail("subscribe", r);

	r = org_binderc_examples_IGreeter_greet(greeter, name, mood, &g);
	if (r != 0)
		return fail("greet", r);
	printf("greeter says: %s (greeting #%d, %s)\n", g.text, g.count,
	       g.mood == org_binderc_examples_Mood_GRUMPY ? "grumpy" : "cheerful");
	fflush(stdout);
	org_binderc_examples_Greeting_clear(&g);

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&lock);
	while (!heard && pthread_cond_timedwait(&heard_cond, &lock, &until) == 0)
		;
	r = heard;
	pthread_mutex_unlock(&lock);
	if (!r)
		fprintf(stderr, "greeter-client: the listener heard nothing\n");

	if (org_binderc_examples_IGreeter_names(greeter, &names, &n_names) == 0) {
		printf("greeted so far:");
		for (size_t i = 0; i < n_names; i++)
			printf(" %s", names[i]);
		printf("\n");
		bc_strv_free(names, n_names);
	}
	bc_binder_unref(listener);
	bc_binder_unref(greeter);
	bc_sm_unref(sm);
	bc_process_stop(proc);
	bc_process_unref(proc);
	return r ? 0 : 1;
}
