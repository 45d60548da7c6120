/* SPDX-License-Identifier: MIT */
/* Incoming transactions: caller identity, reply parcel, deferred replies. */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"

int bc__txn_new(bc_process *proc, uint32_t code, uint32_t flags, pid_t pid, uid_t euid, bc_txn **spare,
		bc_txn **ret)
{
	bc_txn *t = spare && proc ? *spare : NULL;
	int r;

	if (t) {
		/* A finished one of this thread's: its reply parcel is empty. */
		*spare = NULL;
		bc_parcel_set_wire(t->reply, proc->wire, proc->partition);
		t->deferred = t->completed = false;
		t->status = 0;
	} else {
		t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		r = proc ? bc_process_new_parcel(proc, &t->reply) : bc_parcel_new(&t->reply);
		if (r < 0) {
			free(t);
			return r;
		}
		atomic_init(&t->refs, 1);
		pthread_mutex_init(&t->mu, NULL);
		pthread_cond_init(&t->cv, NULL);
	}
	t->proc = proc ? bc_process_ref(proc) : NULL;
	t->code = code;
	t->flags = flags;
	/* The caller's data is sensitive: so is what we answer
	 * (BBinder::transact marks the reply of a FLAG_CLEAR_BUF call). */
	if (flags & BINDERC_FLAG_CLEAR_BUF)
		bc_parcel_mark_sensitive(t->reply);
	t->pid = pid;
	t->euid = euid;
	*ret = t;
	return 0;
}

void bc__txn_done(bc_txn *t, bc_txn **spare)
{
	if (!t)
		return;
	/* Nobody else holds the transaction or its reply: keep both for the
	 * thread's next one (saves two allocations and the reply's buffer). */
	if (spare && !*spare && atomic_load(&t->refs) == 1 && bc__parcel_recycle(t->reply)) {
		t->proc = bc_process_unref(t->proc);
		*spare = t;
		return;
	}
	bc_txn_unref(t);
}

static void txn_free(bc_txn *t)
{
	bc_parcel_unref(t->reply);
	bc_process_unref(t->proc);
	pthread_mutex_destroy(&t->mu);
	pthread_cond_destroy(&t->cv);
	free(t);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_txn, bc_txn, txn_free);

uint32_t bc_txn_get_code(const bc_txn *t)
{
	return t ? t->code : 0;
}

uint32_t bc_txn_get_flags(const bc_txn *t)
{
	return t ? t->flags : 0;
}

pid_t bc_txn_get_calling_pid(const bc_txn *t)
{
	return t ? t->pid : 0;
}

uid_t bc_txn_get_calling_euid(const bc_txn *t)
{
	return t ? t->euid : (uid_t)-1;
}

bc_parcel *bc_txn_get_reply(const bc_txn *t)
{
	return t ? t->reply : NULL;
}

int bc_txn_reply(bc_txn *t, int status)
{
	if (!t || status > 0)
		return -EINVAL;
	pthread_mutex_lock(&t->mu);
	if (t->completed) {
		pthread_mutex_unlock(&t->mu);
		return -EALREADY;
	}
	t->completed = true;
	t->status = status;
	pthread_cond_broadcast(&t->cv);
	pthread_mutex_unlock(&t->mu);
	return 0;
}

int bc__txn_wait(bc_txn *t)
{
	int st;

	pthread_mutex_lock(&t->mu);
	t->deferred = true;
	while (!t->completed)
		pthread_cond_wait(&t->cv, &t->mu);
	st = t->status;
	pthread_mutex_unlock(&t->mu);
	return st;
}
