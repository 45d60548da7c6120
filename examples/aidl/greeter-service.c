// SPDX-License-Identifier: MIT
/*
 * greeter-service: serves org.binderc.examples.IGreeter (IGreeter.aidl,
 * compiled to C by bc-aidl at build time) as "greeter".  The generated
 * stub decodes each call and calls the functions in greeter_ops.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "org_binderc_examples_IGreeter.h"
#include "org_binderc_examples_IGreeterListener.h"

struct greeter {
	pthread_mutex_t lock;
	char **names; /* everyone greeted so far */
	size_t n_names;
	bc_binder *listener;
};

static int greet(void *self, const char *name, org_binderc_examples_Mood mood, org_binderc_examples_Greeting *ret)
{
	struct greeter *g = self;
	bc_binder *listener;
	char **nn;
	int count;

	pthread_mutex_lock(&g->lock);
	nn = realloc(g->names, (g->n_names + 1) * sizeof(*nn));
	if (!nn || !(nn[g->n_names] = strdup(name))) {
		if (nn)
			g->names = nn;
		pthread_mutex_unlock(&g->lock);
		return -ENOMEM;
	}
	g->names = nn;
	count = (int)++g->n_names;
	listener = g->listener ? bc_binder_ref(g->listener) : NULL;
	pthread_mutex_unlock(&g->lock);

	/* ret arrives initialised with Greeting's defaults */
	free(ret->text);
	ret->text = malloc(strlen(name) + 32);
	if (!ret->text)
		return -ENOMEM;
	sprintf(ret->text, mood == org_binderc_examples_Mood_GRUMPY ? "Oh. It's you, %s." : "Hello, %s!", name);
	ret->count = count;
	ret->mood = mood;
	if (listener) { /* one-way: does not wait for the listener */
		org_binderc_examples_IGreeterListener_greeted(listener, name, count);
		bc_binder_unref(listener);
	}
	return 0;
}

static int subscribe(void *self, bc_binder *listener)
{
	struct greeter *g = self;

	pthread_mutex_lock(&g->lock);
	bc_binder_unref(g->listener);
	g->listener = bc_binder_ref(listener);
	pthread_mutex_unlock(&g->lock);
	return 0;
}

static int names(void *self, char ***ret, size_t *ret_len)
{
	struct greeter *g = self;
	char **v;
	int r = 0;

	pthread_mutex_lock(&g->lock);
	v = calloc(g->n_names + 1, sizeof(*v));
	for (size_t i = 0; v && i < g->n_names; i++)
		if (!(v[i] = strdup(g->names[i])))
			r = -ENOMEM;
	if (v && r == 0) {
		*ret = v;
		*ret_len = g->n_names;
	} else {
		bc_strv_free(v, g->n_names);
		r = -ENOMEM;
	}
	pthread_mutex_unlock(&g->lock);
	return r;
}

static const struct org_binderc_examples_IGreeter_ops greeter_ops = {
	.greet = greet,
	.subscribe = subscribe,
	.names = names,
};

int main(void)
{
	static struct greeter g = { .lock = PTHREAD_MUTEX_INITIALIZER };
	bc_process *proc = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = org_binderc_examples_IGreeter_stub_new(&greeter_ops, &g, NULL, &obj);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, org_binderc_examples_IGreeter_SERVICE_NAME, obj, 0, 0);
	if (r < 0) {
		fprintf(stderr, "greeter-service: %s\n", strerror(-r));
		return 1;
	}
	printf("greeter-service: serving '%s' (interface version %d) on %s\n", org_binderc_examples_IGreeter_SERVICE_NAME,
	       org_binderc_examples_IGreeter_VERSION, bc_process_get_device(proc));
	fflush(stdout);
	r = bc_process_join(proc);
	bc_sm_unref(sm);
	bc_binder_unref(obj);
	bc_process_unref(proc);
	return r < 0;
}
