// SPDX-License-Identifier: MIT
/* Client of the service manager (binderc/servicemanager.h). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "refcount.h"
#include "slot_internal.h"
#include "sm_protocol.h"

struct bc_sm {
	atomic_int refs;
	bc_process *proc;
	bc_binder *b;
	int dialect;               /* as asked for (AIDL stays AIDL) */
	const struct sm_dialect *d; /* what it means on the wire */
};

int bc_sm_new(bc_process *proc, int dialect, bc_sm **ret)
{
	bc_sm *sm;
	int r;

	if (!proc || !ret)
		return -EINVAL;
	if (dialect == BINDERC_SM_DIALECT_DEFAULT) {
		const char *e = getenv("BINDERC_SM_DIALECT");
		const struct sm_dialect *named = e ? sm_dialect_named(e) : NULL;

		dialect = named && strcmp(e, "aidl") != 0 ? named->dialect : BINDERC_SM_DIALECT_AIDL;
	}
	if (!sm_dialect_of(dialect))
		return -EINVAL;
	sm = calloc(1, sizeof(*sm));
	if (!sm)
		return -ENOMEM;
	r = bc_process_get_handle(proc, 0, &sm->b);
	if (r < 0) {
		free(sm);
		return r;
	}
	atomic_init(&sm->refs, 1);
	sm->proc = bc_process_ref(proc);
	sm->dialect = dialect;
	sm->d = sm_dialect_of(dialect);
	*ret = sm;
	return 0;
}

static void sm_free(bc_sm *sm)
{
	bc_binder_unref(sm->b);
	bc_process_unref(sm->proc);
	free(sm);
}

BINDERC_DEFINE_TRIVIAL_REF_UNREF(bc_sm, bc_sm, sm_free);

int bc_sm_get_dialect(const bc_sm *sm)
{
	return sm ? sm->dialect : -EINVAL;
}

bc_binder *bc_sm_get_binder(const bc_sm *sm)
{
	return sm ? sm->b : NULL;
}

int bc_sm_ping(bc_sm *sm)
{
	return sm ? bc_binder_ping(sm->b) : -EINVAL;
}

/* ---- requests and replies --------------------------------------------- */

/* The code of @method in @sm's dialect; 0 when it has none. */
static uint32_t code_of(const bc_sm *sm, int method)
{
	return sm_dialect_code(sm->d, method);
}

/* A request parcel with the interface token in the dialect's header. */
static int request(bc_sm *sm, bc_parcel **ret)
{
	bc_parcel *p;
	int r = bc_process_new_parcel(sm->proc, &p);

	if (r < 0)
		return r;
	r = bc_parcel_set_wire(p, sm->d->wire, BINDERC_PARTITION_SYSTEM);
	if (r == 0)
		r = bc_parcel_write_interface_token(p, SM_DESCRIPTOR);
	if (r < 0) {
		bc_parcel_unref(p);
		return r;
	}
	*ret = p;
	return 0;
}

static int exception_to_errno(const bc_status *st)
{
	switch (st->exception) {
	case BINDERC_EX_NONE:
		return 0;
	case BINDERC_EX_SECURITY:
		return -EPERM;
	case BINDERC_EX_ILLEGAL_ARGUMENT:
	case BINDERC_EX_NULL_POINTER:
		return -EINVAL;
	case BINDERC_EX_UNSUPPORTED_OPERATION:
		return -EOPNOTSUPP;
	case BINDERC_EX_ILLEGAL_STATE:
		return -EBUSY;
	case BINDERC_EX_SERVICE_SPECIFIC:
		return st->service_error > 0 && st->service_error < 4096 ? -st->service_error : -EPROTO;
	}
	return -EPROTO;
}

/* A request whose first argument is the service name (most methods). */
static int request_named(bc_sm *sm, const char *name, bc_parcel **ret)
{
	bc_parcel *req;
	int r = request(sm, &req);

	if (r < 0)
		return r;
	r = bc_parcel_write_string16(req, name);
	if (r < 0) {
		bc_parcel_unref(req);
		return r;
	}
	*ret = req;
	return 0;
}

/* Exported for the host tests only (not in libbinder-c.map). */
int bc__sm_open_reply(const struct sm_dialect *d, bc_parcel *reply)
{
	bc_status st = BINDERC_STATUS_INIT;
	int r;

	/* In the request's wire: an Android 12 reply's stability words are
	 * Category words, and only its own wire says so. */
	r = bc_parcel_set_wire(reply, d->wire, BINDERC_PARTITION_SYSTEM);
	if (r < 0 || !d->status_reply)
		return r;
	r = bc_parcel_read_status(reply, &st);
	r = r < 0 ? -EBADMSG : exception_to_errno(&st);
	bc_status_clear(&st);
	return r;
}

/* Send @req (consumed) as @code; on success *@ret_reply is opened by
 * bc__sm_open_reply(): past the status, if the dialect has one. */
static int call(bc_sm *sm, uint32_t code, bc_parcel *req, bc_parcel **ret_reply)
{
	bc_parcel *reply = NULL;
	int r = bc_binder_transact(sm->b, code, req, &reply, 0, NULL);

	bc_parcel_unref(req);
	if (r < 0)
		return r;
	if (!reply)
		return -EBADMSG;
	r = bc__sm_open_reply(sm->d, reply);
	if (r < 0) {
		bc_parcel_unref(reply);
		return r;
	}
	*ret_reply = reply;
	return 0;
}

/*
 * A lookup's answer: a binder, or -- from Android 15 builds whose
 * checkService answered the Service union -- int32 1 (non-null), int32
 * tag 0, then either the binder (first shape) or a non-null
 * ServiceWithMetadata parcelable whose first field is the binder (later
 * shape).  A binder object never starts with the word 1, so the forms
 * cannot be confused.  Tag 1 (an accessor, for RPC) is not followed.
 */
static int read_binder_or_union(bc_parcel *reply, bc_binder **ret)
{
	size_t pos = bc_parcel_get_position(reply), end;
	int32_t present = 0, tag = -1;
	int r = bc_parcel_read_binder(reply, ret);

	if (r == 0 || r == -ENODEV)
		return r;
	if (bc_parcel_set_position(reply, pos) < 0 || bc_parcel_read_int32(reply, &present) < 0 || present != 1 ||
	    bc_parcel_read_int32(reply, &tag) < 0)
		return r;
	if (tag != 0)
		return -EOPNOTSUPP;
	pos = bc_parcel_get_position(reply);
	if (bc_parcel_read_binder(reply, ret) == 0)
		return 0;
	if (bc_parcel_set_position(reply, pos) < 0 || bc_parcel_read_int32(reply, &present) < 0 || present != 1 ||
	    bc_parcel_enter_parcelable(reply, &end) < 0)
		return r;
	return bc_parcel_read_binder(reply, ret);
}

static int lookup(bc_sm *sm, uint32_t code, const char *name, bc_binder **ret)
{
	bc_parcel *req, *reply;
	bc_binder *b = NULL;
	int r;

	if (!sm || !name || !ret)
		return -EINVAL;
	r = request_named(sm, name, &req);
	if (r < 0)
		return r;
	r = call(sm, code, req, &reply);
	if (r < 0)
		return r;
	/* The C servicemanager answers a miss with a bare int32 0. */
	if (sm->d->miss_is_bare_int && bc_parcel_remaining(reply) < 24)
		r = 0;
	else
		r = read_binder_or_union(reply, &b);
	bc_parcel_unref(reply);
	if (r < 0)
		return r == -ENODATA ? -EBADMSG : r;
	if (!b)
		return -ENOENT;
	*ret = b;
	return 0;
}

int bc_sm_check(bc_sm *sm, const char *name, bc_binder **ret)
{
	return lookup(sm, code_of(sm, SM_M_CHECK_SERVICE), name, ret);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int wait_for(bc_sm *sm, uint32_t first_code, const char *name, int timeout_ms, bc_binder **ret)
{
	int64_t deadline = timeout_ms < 0 ? INT64_MAX : now_ms() + timeout_ms;
	int delay = 5, r;

	r = lookup(sm, first_code, name, ret);
	while (r == -ENOENT) {
		int64_t left = deadline - now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		sleep_ms(left < delay ? (int)left : delay);
		if (delay < 100)
			delay *= 2;
		r = lookup(sm, code_of(sm, SM_M_CHECK_SERVICE), name, ret);
	}
	return r;
}

int bc_sm_get(bc_sm *sm, const char *name, bc_binder **ret)
{
	return wait_for(sm, code_of(sm, SM_M_GET_SERVICE), name, BINDERC_SM_GET_TIMEOUT_MS, ret);
}

int bc_sm_wait(bc_sm *sm, const char *name, int timeout_ms, bc_binder **ret)
{
	return wait_for(sm, code_of(sm, SM_M_CHECK_SERVICE), name, timeout_ms, ret);
}

int bc_sm_add(bc_sm *sm, const char *name, bc_binder *b, unsigned flags, int dump_priority)
{
	bc_parcel *req, *reply;
	int r;

	if (!sm || !name || !b || (flags & ~BINDERC_SM_ADD_ALLOW_ISOLATED))
		return -EINVAL;
	r = request_named(sm, name, &req);
	if (r < 0)
		return r;
	r = bc_parcel_write_binder(req, b);
	if (r == 0)
		r = bc_parcel_write_int32(req, (flags & BINDERC_SM_ADD_ALLOW_ISOLATED) ? 1 : 0);
	if (r == 0)
		r = bc_parcel_write_int32(req, dump_priority ? dump_priority : BINDERC_SM_DUMP_DEFAULT);
	if (r < 0) {
		bc_parcel_unref(req);
		return r;
	}
	r = call(sm, code_of(sm, SM_M_ADD_SERVICE), req, &reply);
	if (r == 0)
		bc_parcel_unref(reply);
	return r;
}

static int list_legacy(bc_sm *sm, int prio, char ***ret, size_t *ret_n)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	int r = 0;

	for (;;) {
		bc_parcel *req, *reply;
		char *name = NULL;

		if (n > (1u << 20)) {
			r = -E2BIG;
			break;
		}
		r = request(sm, &req);
		if (r < 0)
			break;
		r = bc_parcel_write_int32(req, (int32_t)n);
		if (r == 0)
			r = bc_parcel_write_int32(req, prio);
		if (r < 0) {
			bc_parcel_unref(req);
			break;
		}
		r = call(sm, code_of(sm, SM_M_LIST_SERVICES), req, &reply);
		if (r < 0) {
			/* Past the end: the service manager answers with an error
			 * status; transport failures are real errors. */
			if (r != -EPIPE && r != -ECOMM && r != -ENOMEM)
				r = 0;
			break;
		}
		r = bc_parcel_read_string16(reply, &name, NULL);
		bc_parcel_unref(reply);
		if (r < 0 || !name) {
			r = -EBADMSG;
			break;
		}
		if (n + 1 >= cap) {
			size_t nc = cap ? cap * 2 : 16;
			char **nv = realloc(v, nc * sizeof(*nv));

			if (!nv) {
				free(name);
				r = -ENOMEM;
				break;
			}
			v = nv;
			cap = nc;
		}
		v[n++] = name;
	}
	if (r < 0) {
		bc_strv_free(v, n);
		return r;
	}
	if (!v && !(v = calloc(1, sizeof(*v))))
		return -ENOMEM;
	*ret = v;
	*ret_n = n;
	return 0;
}

/* A reply's String[] of names (taken: @reply is dropped): a null array
 * is an empty one, a null name a malformed reply. */
static int read_names(bc_parcel *reply, char ***ret, size_t *ret_n)
{
	char **v = NULL;
	size_t n = 0;
	int r = bc_parcel_read_string16_array(reply, &v, &n);

	bc_parcel_unref(reply);
	if (r < 0)
		return -EBADMSG;
	if (!v)
		v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!v[i]) {
			bc_strv_free(v, n);
			return -EBADMSG;
		}
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

int bc_sm_list(bc_sm *sm, int dump_priority, char ***ret, size_t *ret_n)
{
	bc_parcel *req, *reply;
	int r;

	if (!sm || !ret || !ret_n)
		return -EINVAL;
	if (!dump_priority)
		dump_priority = BINDERC_SM_DUMP_ALL;
	if (sm->d->list_by_index)
		return list_legacy(sm, dump_priority, ret, ret_n);
	r = request(sm, &req);
	if (r < 0)
		return r;
	r = bc_parcel_write_int32(req, dump_priority);
	if (r < 0) {
		bc_parcel_unref(req);
		return r;
	}
	r = call(sm, code_of(sm, SM_M_LIST_SERVICES), req, &reply);
	if (r < 0)
		return r;
	return read_names(reply, ret, ret_n);
}

int bc_sm_is_declared(bc_sm *sm, const char *name, bool *ret)
{
	bc_parcel *req, *reply;
	int r;

	if (!sm || !name || !ret)
		return -EINVAL;
	if (!code_of(sm, SM_M_IS_DECLARED))
		return -EOPNOTSUPP;
	r = request_named(sm, name, &req);
	if (r < 0)
		return r;
	r = call(sm, code_of(sm, SM_M_IS_DECLARED), req, &reply);
	if (r < 0)
		return r;
	r = bc_parcel_read_bool(reply, ret);
	bc_parcel_unref(reply);
	return r < 0 ? -EBADMSG : 0;
}

/* A call of @method with one string argument @arg, its reply in *@ret:
 * -EOPNOTSUPP where the dialect has no such method. */
static int call_named(bc_sm *sm, int method, const char *arg, bc_parcel **ret)
{
	bc_parcel *req;
	int r;

	if (!code_of(sm, method))
		return -EOPNOTSUPP;
	r = request_named(sm, arg, &req);
	if (r < 0)
		return r;
	return call(sm, code_of(sm, method), req, ret);
}

int bc_sm_get_declared_instances(bc_sm *sm, const char *iface, char ***ret, size_t *ret_n)
{
	bc_parcel *reply;
	int r;

	if (!sm || !iface || !ret || !ret_n)
		return -EINVAL;
	r = call_named(sm, SM_M_GET_DECLARED_INSTANCES, iface, &reply);
	return r < 0 ? r : read_names(reply, ret, ret_n);
}

int bc_sm_get_updatable_names(bc_sm *sm, const char *apex, char ***ret, size_t *ret_n)
{
	bc_parcel *reply;
	int r;

	if (!sm || !apex || !ret || !ret_n)
		return -EINVAL;
	r = call_named(sm, SM_M_GET_UPDATABLE_NAMES, apex, &reply);
	return r < 0 ? r : read_names(reply, ret, ret_n);
}

int bc_sm_updatable_via_apex(bc_sm *sm, const char *name, char **ret)
{
	bc_parcel *reply;
	int r;

	if (!sm || !name || !ret)
		return -EINVAL;
	*ret = NULL;
	r = call_named(sm, SM_M_UPDATABLE_VIA_APEX, name, &reply);
	if (r < 0)
		return r;
	r = bc_parcel_read_string16(reply, ret, NULL); /* @nullable String */
	bc_parcel_unref(reply);
	return r < 0 ? -EBADMSG : 0;
}

int bc_sm_get_connection_info(bc_sm *sm, const char *name, char **ret_address, int32_t *ret_port)
{
	bc_parcel *reply;
	int32_t present = 0;
	size_t end;
	int r;

	if (!sm || !name || !ret_address || !ret_port)
		return -EINVAL;
	*ret_address = NULL;
	r = call_named(sm, SM_M_GET_CONNECTION_INFO, name, &reply);
	if (r < 0)
		return r;
	/* @nullable ConnectionInfo { String ipAddress; int port; } */
	r = bc_parcel_read_int32(reply, &present);
	if (r == 0 && present) {
		r = bc_parcel_enter_parcelable(reply, &end);
		if (r == 0)
			r = bc_parcel_read_string16(reply, ret_address, NULL);
		if (r == 0)
			r = bc_parcel_read_int32(reply, ret_port);
		if (r == 0 && !*ret_address)
			r = -EBADMSG;
	}
	bc_parcel_unref(reply);
	if (r < 0) {
		free(*ret_address);
		*ret_address = NULL;
		return -EBADMSG;
	}
	return present ? 0 : -ENOENT;
}

/* ---- notifications ------------------------------------------------------ */

/* A watch is a slot (slot_internal.h) owning this; the callback object's
 * user data is the slot, with a hold of its own (the service manager may
 * hold the object a little after the slot is dropped). */
struct sm_watch {
	bc_sm *sm;
	char *name;
	bc_binder *obj;
	bool registered;
};

/* Callbacks are sent by an Android 11+ service manager, whatever this
 * process's own dialect, with either partition. */
static int enforce_callback_token(bc_parcel *in, const char *descriptor)
{
	int r;

	bc_parcel_set_wire(in, BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_SYSTEM);
	r = bc_parcel_enforce_interface(in, descriptor);
	if (r == -EPROTO) { /* 'VNDR' */
		bc_parcel_set_position(in, 0);
		bc_parcel_set_wire(in, BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_VENDOR);
		r = bc_parcel_enforce_interface(in, descriptor);
	}
	return r;
}

static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata)
{
	bc_slot *slot = userdata;
	char *name = NULL;
	bc_binder *b = NULL;
	int r;

	(void)self;
	(void)txn;
	(void)reply;
	if (code != SM_CALLBACK_ON_REGISTRATION)
		return -EBADMSG;
	r = enforce_callback_token(in, SM_CALLBACK_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_read_string16(in, &name, NULL);
	if (r == 0 && !name)
		r = -EBADMSG;
	if (r == 0)
		r = bc_parcel_read_binder(in, &b);
	if (r == 0 && b) {
		struct bc_slot_call call;

		if (bc__slot_enter(slot, &call)) {
			slot->fn.notify(name, b, slot->userdata);
			bc__slot_leave(&call);
		}
	}
	bc_binder_unref(b);
	free(name);
	return r < 0 ? -EBADMSG : 0;
}

/* The callback object's hold on its slot (also for client callbacks). */
static void cb_destroy(void *userdata)
{
	bc__slot_put(userdata);
}

static int watch_call(bc_sm *sm, uint32_t code, const char *name, bc_binder *obj)
{
	bc_parcel *req, *reply;
	int r = request_named(sm, name, &req);

	if (r < 0)
		return r;
	r = bc_parcel_write_binder(req, obj);
	if (r < 0) {
		bc_parcel_unref(req);
		return r;
	}
	r = call(sm, code, req, &reply);
	if (r == 0)
		bc_parcel_unref(reply);
	return r;
}

/* The caller dropped the watch (or it failed): unregister it. */
static void watch_detach(bc_slot *s)
{
	struct sm_watch *w = s->owner;

	if (w->registered)
		watch_call(w->sm, code_of(w->sm, SM_M_UNREGISTER_FOR_NOTIFICATIONS), w->name, w->obj);
	bc_binder_unref(w->obj);
	bc_sm_unref(w->sm);
	free(w->name);
	free(w);
}

static const struct bc_slot_ops watch_slot_ops = { .detach = watch_detach };

/* The callback object of a new slot @s: a local object of a class for
 * @descriptor, whose user data is @s (with a hold). */
static int slot_object(bc_slot *s, const char *descriptor, bc_transact_fn on_transact, bc_binder **ret)
{
	bc_class *cls = NULL;
	int r = bc_class_new(descriptor, on_transact, cb_destroy, 0, &cls);

	if (r == 0)
		r = bc_binder_new(cls, s, ret);
	bc_class_unref(cls);
	if (r == 0)
		bc__slot_hold(s);
	return r;
}

int bc_sm_watch(bc_sm *sm, const char *name, bc_sm_notify_fn fn, void *userdata, bc_slot **ret)
{
	struct sm_watch *w;
	bc_slot *s;
	int r;

	if (!sm || !name || !fn || !ret)
		return -EINVAL;
	if (!code_of(sm, SM_M_REGISTER_FOR_NOTIFICATIONS))
		return -EOPNOTSUPP;
	w = calloc(1, sizeof(*w));
	if (!w || !(w->name = strdup(name))) {
		free(w);
		return -ENOMEM;
	}
	r = bc__slot_new(&watch_slot_ops, w, userdata, &s);
	if (r < 0) {
		free(w->name);
		free(w);
		return r;
	}
	w->sm = bc_sm_ref(sm);
	s->fn.notify = fn;
	r = slot_object(s, SM_CALLBACK_DESCRIPTOR, cb_transact, &w->obj);
	if (r == 0)
		r = watch_call(sm, code_of(sm, SM_M_REGISTER_FOR_NOTIFICATIONS), name, w->obj);
	if (r < 0) {
		bc_slot_unref(s);
		return r;
	}
	w->registered = true;
	*ret = s;
	return 0;
}

/* ---- lazy services -------------------------------------------------------- */

/* A client callback is a slot owning its IClientCallback object (the
 * service manager holds that object while the name stays registered). */

static int clients_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply,
			    void *userdata)
{
	bc_slot *slot = userdata;
	bc_binder *b = NULL;
	bool has = false;
	int r;

	(void)self;
	(void)txn;
	(void)reply;
	if (code != SM_CLIENT_CALLBACK_ON_CLIENTS)
		return -EBADMSG;
	r = enforce_callback_token(in, SM_CLIENT_CALLBACK_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_read_binder(in, &b);
	if (r == 0)
		r = bc_parcel_read_bool(in, &has);
	if (r == 0) {
		struct bc_slot_call call;

		if (bc__slot_enter(slot, &call)) {
			slot->fn.clients(b, has, slot->userdata);
			bc__slot_leave(&call);
		}
	}
	bc_binder_unref(b);
	return r < 0 ? -EBADMSG : 0;
}

static void clients_detach(bc_slot *s)
{
	bc_binder_unref(s->owner);
}

static const struct bc_slot_ops clients_slot_ops = { .detach = clients_detach };

int bc_sm_register_client_callback(bc_sm *sm, const char *name, bc_binder *service, bc_sm_clients_fn fn,
				   void *userdata, bc_slot **ret)
{
	bc_binder *obj = NULL;
	bc_parcel *req, *reply;
	bc_slot *s;
	int r;

	if (!sm || !name || !service || !fn || !ret)
		return -EINVAL;
	if (!code_of(sm, SM_M_REGISTER_CLIENT_CALLBACK))
		return -EOPNOTSUPP;
	r = bc__slot_new(&clients_slot_ops, NULL, userdata, &s);
	if (r < 0)
		return r;
	s->fn.clients = fn;
	r = slot_object(s, SM_CLIENT_CALLBACK_DESCRIPTOR, clients_transact, &obj);
	s->owner = obj;
	if (r == 0)
		r = request_named(sm, name, &req);
	if (r == 0) {
		r = bc_parcel_write_binder(req, service);
		if (r == 0)
			r = bc_parcel_write_binder(req, obj);
		if (r == 0)
			r = call(sm, code_of(sm, SM_M_REGISTER_CLIENT_CALLBACK), req, &reply);
		else
			bc_parcel_unref(req);
		if (r == 0)
			bc_parcel_unref(reply);
	}
	if (r < 0) {
		bc_slot_unref(s);
		return r;
	}
	*ret = s;
	return 0;
}

int bc_sm_try_unregister(bc_sm *sm, const char *name, bc_binder *service)
{
	if (!sm || !name || !service)
		return -EINVAL;
	if (!code_of(sm, SM_M_TRY_UNREGISTER_SERVICE))
		return -EOPNOTSUPP;
	return watch_call(sm, code_of(sm, SM_M_TRY_UNREGISTER_SERVICE), name, service);
}
