// SPDX-License-Identifier: MIT
/*
 * observer-service: registers "ticker".  Clients subscribe by passing an
 * observer object of their own; every 200 ms the service calls each one
 * back (oneway onTick(n)).  Observers whose process died are dropped.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "ticker.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bc_binder *observers[64];
static int n_observers;

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *data)
{
	bc_binder *obs = NULL;
	int r;

	(void)self, (void)txn, (void)reply, (void)data;
	if (code != TICKER_SUBSCRIBE)
		return -EBADMSG;
	r = bc_parcel_read_binder(in, &obs); /* a proxy for the client's object */
	if (r < 0 || !obs)
		return r < 0 ? r : -EINVAL;
	pthread_mutex_lock(&lock);
	r = -ENOSPC;
	if (n_observers < 64) {
		observers[n_observers++] = obs;
		obs = NULL;
		r = 0;
	}
	pthread_mutex_unlock(&lock);
	bc_binder_unref(obs);
	return r;
}

static void tick(int n)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < n_observers;) {
		bc_parcel *p = NULL;
		int r = bc_binder_new_parcel(observers[i], &p);

		if (r == 0)
			r = bc_parcel_write_interface_token(p, OBSERVER_DESCRIPTOR);
		if (r == 0)
			r = bc_parcel_write_int32(p, n);
		if (r == 0)
			r = bc_binder_transact(observers[i], OBSERVER_ON_TICK, p, NULL, BINDERC_FLAG_ONEWAY, NULL);
		bc_parcel_unref(p);
		if (r == -EPIPE) { /* its process is gone */
			bc_binder_unref(observers[i]);
			observers[i] = observers[--n_observers];
			continue;
		}
		i++;
	}
	pthread_mutex_unlock(&lock);
}

int main(void)
{
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *ticker = NULL;
	bc_sm *sm = NULL;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_class_new(TICKER_DESCRIPTOR, on_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
	if (r == 0)
		r = bc_binder_new(cls, NULL, &ticker);
	if (r == 0)
		r = bc_process_start_thread_pool(proc); /* subscriptions arrive there */
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, TICKER_NAME, ticker, 0, 0);
	if (r < 0) {
		fprintf(stderr, "observer-service: error %d\n", r);
		return 1;
	}
	printf("observer-service: registered '%s'\n", TICKER_NAME);
	fflush(stdout);
	for (int n = 1;; n++) {
		nanosleep(&(struct timespec){ 0, 200 * 1000 * 1000 }, NULL);
		tick(n);
	}
}
