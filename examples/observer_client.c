// SPDX-License-Identifier: MIT
/*
 * observer-client [COUNT]: subscribes an observer object of its own to
 * "ticker" and prints the first COUNT (default 3) callbacks it receives.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "ticker.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int received;

static int on_tick(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *data)
{
	int32_t n = 0;

	(void)self, (void)txn, (void)reply, (void)data;
	if (code != OBSERVER_ON_TICK || bc_parcel_read_int32(in, &n) < 0)
		return -EBADMSG;
	pthread_mutex_lock(&lock);
	received++;
	printf("observer-client: callback %d: tick %d of the service's clock\n", received, n);
	fflush(stdout);
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	return 0;
}

int main(int argc, char **argv)
{
	int want = argc > 1 ? atoi(argv[1]) : 3, r;
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *observer = NULL, *ticker = NULL;
	bc_parcel *req = NULL;
	bc_sm *sm = NULL;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_class_new(OBSERVER_DESCRIPTOR, on_tick, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
	if (r == 0)
		r = bc_binder_new(cls, NULL, &observer);
	if (r == 0)
		r = bc_process_start_thread_pool(proc); /* the callbacks arrive there */
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, TICKER_NAME, &ticker);
	if (r == 0)
		r = bc_binder_new_parcel(ticker, &req);
	if (r == 0)
		r = bc_parcel_write_interface_token(req, TICKER_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_write_binder(req, observer); /* our object travels */
	if (r == 0)
		r = bc_binder_transact(ticker, TICKER_SUBSCRIBE, req, NULL, 0, NULL);
	if (r < 0) {
		fprintf(stderr, "observer-client: error %d\n", r);
		return 1;
	}
	pthread_mutex_lock(&lock);
	while (received < want)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	/* Exiting drops our object; the service notices on its next tick. */
	return 0;
}
