/* SPDX-License-Identifier: MIT */
/* Local objects, in-process transactions and reference counting (no kernel). */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "ut.h"

#define DESC "test.ICalc"
enum { ADD = 1, FAIL, DEFER, CALLBACK, SLEEPY };

static int destroyed;

struct deferred {
	bc_txn *txn;
	int32_t v;
};

static void *complete_later(void *arg)
{
	struct deferred *d = arg;

	usleep(20000);
	bc_parcel_write_int32(bc_txn_get_reply(d->txn), d->v * 2);
	cr_assert_eq(bc_txn_reply(d->txn, 0), 0);
	cr_assert_eq(bc_txn_reply(d->txn, 0), -EALREADY);
	bc_txn_unref(d->txn);
	free(d);
	return NULL;
}

static int calc(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int32_t a, b;

	cr_assert_eq(ud, &destroyed);
	cr_assert_not_null(self);
	switch (code) {
	case ADD:
		if (bc_parcel_read_int32(in, &a) < 0 || bc_parcel_read_int32(in, &b) < 0)
			return -EBADMSG;
		return bc_parcel_write_int32(reply, a + b);
	case FAIL:
		return -EDOM;
	case DEFER: {
		struct deferred *d = malloc(sizeof(*d));
		pthread_t th;

		bc_parcel_read_int32(in, &d->v);
		d->txn = bc_txn_ref(txn);
		pthread_create(&th, NULL, complete_later, d);
		pthread_detach(th);
		return BINDERC_TXN_DEFERRED;
	}
	case CALLBACK: {
		bc_binder *cb = NULL;
		bc_parcel *req, *rep = NULL;
		int r = bc_parcel_read_binder(in, &cb);

		if (r < 0 || !cb)
			return -EBADMSG;
		bc_parcel_new(&req);
		bc_parcel_write_int32(req, 20);
		bc_parcel_write_int32(req, 22);
		r = bc_binder_transact(cb, ADD, req, &rep, 0, NULL);
		if (r == 0)
			r = bc_parcel_read_int32(rep, &a);
		if (r == 0)
			r = bc_parcel_write_int32(reply, a);
		bc_parcel_unref(req);
		bc_parcel_unref(rep);
		bc_binder_unref(cb);
		return r;
	}
	default:
		return -EBADMSG;
	}
}

static void on_destroy(void *ud)
{
	(*(int *)ud)++;
}

static bc_binder *make(unsigned flags)
{
	bc_class *c;
	bc_binder *b;

	cr_assert_eq(bc_class_new(DESC, calc, on_destroy, flags, &c), 0);
	cr_assert_eq(bc_binder_new(c, &destroyed, &b), 0);
	cr_assert_eq(bc_binder_get_class(b), c);
	cr_assert_str_eq(bc_class_get_descriptor(c), DESC);
	bc_class_unref(c);
	return b;
}

static int32_t call_add(bc_binder *b, int32_t x, int32_t y, int *ret)
{
	bc_parcel *req, *rep = NULL;
	int32_t v = 0;

	bc_binder_new_parcel(b, &req);
	bc_parcel_write_int32(req, x);
	bc_parcel_write_int32(req, y);
	*ret = bc_binder_transact(b, ADD, req, &rep, 0, NULL);
	if (*ret == 0)
		cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	bc_parcel_unref(req);
	bc_parcel_unref(rep);
	return v;
}

Test(local, transact_ping_interface_destroy)
{
	bc_binder *b;
	char *d;
	int r;

	destroyed = 0;
	b = make(0);
	cr_assert_not(bc_binder_is_remote(b));
	cr_assert(bc_binder_is_alive(b));
	cr_assert_eq(call_add(b, 2, 3, &r), 5);
	cr_assert_eq(r, 0);
	cr_assert_eq(bc_binder_ping(b), 0);
	cr_assert_eq(bc_binder_get_interface(b, &d), 0);
	cr_assert_str_eq(d, DESC);
	free(d);
	cr_assert_eq(bc_binder_transact(b, FAIL, NULL, NULL, 0, NULL), -EDOM);
	cr_assert_eq(bc_binder_transact(b, 999, NULL, NULL, 0, NULL), -EBADMSG);
	cr_assert_eq(bc_binder_transact(b, FAIL, NULL, NULL, BINDERC_FLAG_ONEWAY, NULL), 0);
	cr_assert_eq(bc_binder_transact(b, FAIL, NULL, NULL, 0x100, NULL), -EINVAL);
	bc_slot *slot = NULL;
	cr_assert_eq(bc_binder_link_to_death(b, on_destroy, NULL, &slot), -ENOSYS);
	cr_assert_null(slot);
	uint32_t h;
	cr_assert_eq(bc_binder_get_handle(b, &h), -EINVAL);
	cr_assert_eq(bc_binder_ref(b), b);
	bc_binder_unref(b);
	cr_assert_eq(destroyed, 0);
	cr_assert_null(bc_binder_unref(b));
	cr_assert_eq(destroyed, 1);
}

Test(local, enforce_interface)
{
	bc_binder *b;
	bc_parcel *req, *rep = NULL;
	int32_t v;

	destroyed = 0;
	b = make(BINDERC_CLASS_ENFORCE_INTERFACE);
	bc_parcel_new(&req);
	bc_parcel_write_int32(req, 1);
	bc_parcel_write_int32(req, 2);
	cr_assert_eq(bc_binder_transact(b, ADD, req, &rep, 0, NULL), -EPERM);
	bc_parcel_unref(req);
	bc_parcel_new(&req);
	bc_parcel_write_interface_token(req, DESC);
	bc_parcel_write_int32(req, 1);
	bc_parcel_write_int32(req, 2);
	cr_assert_eq(bc_binder_transact(b, ADD, req, &rep, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_assert_eq(v, 3);
	/* Ping and interface need no token. */
	cr_assert_eq(bc_binder_ping(b), 0);
	bc_parcel_unref(rep);
	bc_parcel_unref(req);
	bc_binder_unref(b);
	cr_assert_eq(destroyed, 1);
}

/* The same -EPERM, told apart: the handler's side, or the caller's. */
Test(local, error_origin)
{
	bc_error err = { -1, -1 };
	bc_binder *b;
	bc_parcel *req, *rep = NULL;

	destroyed = 0;
	b = make(BINDERC_CLASS_ENFORCE_INTERFACE);
	bc_parcel_new(&req);
	bc_parcel_write_int32(req, 1);
	cr_assert_eq(bc_binder_transact(b, ADD, req, &rep, 0, &err), -EPERM);
	cr_assert_eq(err.origin, BINDERC_ERROR_REMOTE);
	cr_assert_eq(err.error, -EPERM);
	cr_assert(bc_error_is_remote(&err));
	cr_assert_str_eq(bc_error_origin_name(err.origin), "remote");
	cr_assert_eq(bc_binder_transact(b, ADD, req, &rep, 0x100, &err), -EINVAL);
	cr_assert_eq(err.origin, BINDERC_ERROR_LOCAL);
	cr_assert_not(bc_error_is_remote(&err));
	cr_assert_eq(bc_binder_transact(NULL, ADD, req, &rep, 0, &err), -EINVAL);
	cr_assert_eq(err.origin, BINDERC_ERROR_LOCAL);
	cr_assert_eq(bc_binder_ping(b), 0);
	cr_assert_eq(bc_binder_transact(b, BINDERC_PING_TRANSACTION, NULL, NULL, 0, &err), 0);
	cr_assert_eq(err.origin, BINDERC_ERROR_NONE);
	cr_assert_eq(err.error, 0);
	bc_parcel_unref(req);
	bc_binder_unref(b);
	cr_assert_eq(destroyed, 1);
}

Test(local, deferred_reply)
{
	bc_binder *b;
	bc_parcel *req, *rep = NULL;
	int32_t v;

	destroyed = 0;
	b = make(0);
	bc_parcel_new(&req);
	bc_parcel_write_int32(req, 21);
	cr_assert_eq(bc_binder_transact(b, DEFER, req, &rep, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_assert_eq(v, 42);
	bc_parcel_unref(rep);
	bc_parcel_unref(req);
	bc_binder_unref(b);
	cr_assert_eq(destroyed, 1);
}

Test(local, callback_object_passed)
{
	bc_binder *svc, *cb;
	bc_parcel *req, *rep = NULL;
	int32_t v;

	destroyed = 0;
	svc = make(0);
	cb = make(0);
	bc_parcel_new(&req);
	bc_parcel_write_binder(req, cb);
	cb = bc_binder_unref(cb);
	cr_assert_eq(bc_binder_transact(svc, CALLBACK, req, &rep, 0, NULL), 0);
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_assert_eq(v, 42);
	cr_assert_eq(destroyed, 0, "the request still holds the callback");
	bc_parcel_unref(req);
	cr_assert_eq(destroyed, 1);
	bc_parcel_unref(rep);
	bc_binder_unref(svc);
	cr_assert_eq(destroyed, 2);
}

Test(local, weak_references)
{
	bc_binder *b, *s;
	bc_weak *w;

	destroyed = 0;
	b = make(0);
	cr_assert_eq(bc_weak_new(b, &w), 0);
	cr_assert_eq(bc_weak_ref(w), w);
	bc_weak_unref(w);
	cr_assert_eq(bc_weak_promote(w, &s), 0);
	cr_assert_eq(s, b);
	bc_binder_unref(s);
	bc_binder_unref(b);
	cr_assert_eq(destroyed, 1);
	cr_assert_eq(bc_weak_promote(w, &s), -ESRCH);
	cr_assert_null(bc_weak_unref(w));
}

struct worker {
	bc_binder *b;
	int fails;
};

static void *hammer(void *arg)
{
	struct worker *wk = arg;

	for (int i = 0; i < 2000; i++) {
		int r;
		bc_binder *extra = bc_binder_ref(wk->b);

		if (call_add(extra, i, 1, &r) != i + 1 || r != 0)
			wk->fails++;
		bc_binder_unref(extra);
	}
	return NULL;
}

Test(local, threads)
{
	struct worker wk[8];
	pthread_t th[8];

	destroyed = 0;
	bc_binder *b = make(0);
	for (int i = 0; i < 8; i++) {
		wk[i].b = b;
		wk[i].fails = 0;
		pthread_create(&th[i], NULL, hammer, &wk[i]);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		cr_assert_eq(wk[i].fails, 0);
	}
	bc_binder_unref(b);
	cr_assert_eq(destroyed, 1);
}

Test(local, bad_arguments)
{
	bc_class *c;

	cr_assert_eq(bc_class_new(NULL, calc, NULL, 0, &c), -EINVAL);
	cr_assert_eq(bc_class_new(DESC, NULL, NULL, 0, &c), -EINVAL);
	cr_assert_eq(bc_class_new(DESC, calc, NULL, 0x80, &c), -EINVAL);
	cr_assert_eq(bc_binder_new(NULL, NULL, NULL), -EINVAL);
	cr_assert_eq(bc_binder_transact(NULL, 1, NULL, NULL, 0, NULL), -EINVAL);
	cr_assert_eq(bc_process_open("/nonexistent/binder", &(bc_process *){ NULL }), -ENOENT);
	cr_assert_eq(bc_process_open("/dev/null", &(bc_process *){ NULL }), -ENOTTY);
}
