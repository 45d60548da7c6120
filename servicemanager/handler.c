// SPDX-License-Identifier: MIT
/*
 * One transaction to the service manager.  The request is decoded in full
 * before anything changes, so a malformed one is answered with an error
 * and leaves the state as it was.  Replies are written in the dialect the
 * request came in:
 *
 *   legacy  bare values; errors as a transaction status (TF_STATUS_CODE):
 *           -EBADMSG malformed or unknown code, -EPERM wrong descriptor
 *           or denied, -EINVAL bad argument, -ENOENT past the end of the
 *           list, -ENOSPC limit reached.  A service that is absent or
 *           hidden by the policy reads as a null binder.
 *   AIDL    an int32 exception first (binder::Status), then the values.
 *           Absent or hidden services are OK + null (as Android, "for
 *           legacy reasons"); a denied add or watch is EX_SECURITY; a bad
 *           name EX_ILLEGAL_ARGUMENT; a limit EX_SERVICE_SPECIFIC with
 *           ENOSPC.  Malformed requests and unknown codes get a transaction
 *           status, as an AIDL stub's onTransact does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm.h"

struct req {
	struct sm *sm;
	const struct sm_caller *c;
	const struct sm_header *h;
	uint32_t code;
	bc_parcel *in, *reply;
};

static int write_exception(bc_parcel *reply, int32_t ex, const char *msg)
{
	bc_status st = BINDERC_STATUS_INIT;
	int r = bc_status_set_exception(&st, ex, msg);

	if (r == 0)
		r = bc_parcel_write_status(reply, &st);
	bc_status_clear(&st);
	return r;
}

static int write_service_error(bc_parcel *reply, int32_t err, const char *msg)
{
	bc_status st = BINDERC_STATUS_INIT;
	int r = bc_status_set_service_error(&st, err, msg);

	if (r == 0)
		r = bc_parcel_write_status(reply, &st);
	bc_status_clear(&st);
	return r;
}

/* Requests must end where their last argument does; trailing bytes mean
 * the caller speaks something else. */
static int end_of_request(bc_parcel *in)
{
	return bc_parcel_remaining(in) == 0 ? 0 : -EBADMSG;
}

static const char *dialect_name(const struct req *q)
{
	return q->h->dialect == BINDERC_SM_DIALECT_AIDL ? "aidl" : "legacy";
}

static void deny_log(const struct req *q, const char *what, const char *name)
{
	sm_log(SM_LOG_NOTICE, "denied: %s '%s' by uid %u pid %d (%s)", what, name, (unsigned)q->c->uid, (int)q->c->pid,
	       dialect_name(q));
}

/* The service @name as @q's caller may see it, or NULL.  Denials are
 * logged unless @quiet (listing filters silently). */
static struct sm_service *lookup_q(struct req *q, const char *name, bool quiet)
{
	struct sm_service *s;

	if (!sm_name_is_valid(name))
		return NULL;
	s = sm_find(q->sm, name);
	if (!s)
		return NULL;
	if (!sm_policy_allows(q->sm->policy, SM_ACT_FIND, name, q->c)) {
		if (!quiet)
			deny_log(q, "find", name);
		return NULL;
	}
	if (!s->allow_isolated && sm_policy_is_isolated(q->sm->policy, q->c->uid)) {
		if (!quiet)
			deny_log(q, "find (isolated caller)", name);
		return NULL;
	}
	return s;
}

static struct sm_service *lookup(struct req *q, const char *name)
{
	return lookup_q(q, name, false);
}

/* ---- get, check ------------------------------------------------------------ */

static int do_get(struct req *q)
{
	char *name = NULL;
	struct sm_service *s;
	int r = sm_read_name(q->in, &name);

	if (r == 0)
		r = end_of_request(q->in);
	if (r < 0) {
		free(name);
		return -EBADMSG;
	}
	s = lookup(q, name);
	free(name);
	if (q->h->dialect == BINDERC_SM_DIALECT_AIDL)
		r = bc_parcel_write_status(q->reply, NULL);
	if (r == 0)
		r = bc_parcel_write_binder(q->reply, s ? s->binder : NULL);
	return r;
}

/* ---- add --------------------------------------------------------------------- */

static int do_add(struct req *q)
{
	bool aidl = q->h->dialect == BINDERC_SM_DIALECT_AIDL;
	char *name = NULL;
	bc_binder *b = NULL;
	int32_t isolated = 0, dump = BINDERC_SM_DUMP_DEFAULT;
	int r;

	r = sm_read_name(q->in, &name);
	if (r == 0)
		r = bc_parcel_read_binder(q->in, &b);
	if (r == 0)
		r = bc_parcel_read_int32(q->in, &isolated);
	/* The dump priority arrived in Android 9; older legacy clients stop
	 * after allow_isolated. */
	if (r == 0 && (aidl || bc_parcel_remaining(q->in) > 0))
		r = bc_parcel_read_int32(q->in, &dump);
	if (r == 0)
		r = end_of_request(q->in);
	if (r < 0) {
		free(name);
		bc_binder_unref(b);
		return -EBADMSG;
	}

	if (!sm_name_is_valid(name) || !b) {
		sm_log(SM_LOG_NOTICE, "add by uid %u: %s", (unsigned)q->c->uid,
		       !b ? "null binder" : "invalid name");
		r = aidl ? write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, !b ? "Null binder" : "Invalid service name")
			 : -EINVAL;
		goto out;
	}
	if (!sm_policy_allows(q->sm->policy, SM_ACT_ADD, name, q->c)) {
		deny_log(q, "add", name);
		r = aidl ? write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied") : -EPERM;
		goto out;
	}
	r = sm_add(q->sm, name, b, q->c, isolated != 0, dump);
	if (r == -ENOSPC) {
		sm_log(SM_LOG_WARNING, "add '%s' by uid %u: limit reached", name, (unsigned)q->c->uid);
		r = aidl ? write_service_error(q->reply, ENOSPC, "Too many services") : -ENOSPC;
		goto out;
	}
	if (r == -EPIPE) {
		/* The service died before we could watch it. */
		r = aidl ? write_exception(q->reply, BINDERC_EX_ILLEGAL_STATE, "Service is dead") : -EPIPE;
		goto out;
	}
	if (r < 0)
		goto out;
	r = aidl ? bc_parcel_write_status(q->reply, NULL) : bc_parcel_write_int32(q->reply, 0);
out:
	free(name);
	bc_binder_unref(b);
	return r;
}

/* ---- list -------------------------------------------------------------------- */

static bool listed(struct req *q, const struct sm_service *s, int32_t prio)
{
	return (s->dump_flags & prio) && lookup_q(q, s->name, true) != NULL;
}

static int do_list(struct req *q)
{
	struct sm *sm = q->sm;
	int32_t index = 0, prio = BINDERC_SM_DUMP_ALL;
	int r = 0;

	if (q->h->dialect == BINDERC_SM_DIALECT_LEGACY) {
		r = bc_parcel_read_int32(q->in, &index);
		if (r == 0 && bc_parcel_remaining(q->in) > 0)
			r = bc_parcel_read_int32(q->in, &prio);
		if (r == 0)
			r = end_of_request(q->in);
		if (r < 0 || index < 0)
			return -EBADMSG;
		for (size_t i = 0; i < sm->n_svc; i++) {
			if (!listed(q, sm->svc[i], prio))
				continue;
			if (index-- == 0)
				return bc_parcel_write_string16(q->reply, sm->svc[i]->name);
		}
		return -ENOENT;
	}

	r = bc_parcel_read_int32(q->in, &prio);
	if (r == 0)
		r = end_of_request(q->in);
	if (r < 0)
		return -EBADMSG;
	{
		const char **names = malloc((sm->n_svc + 1) * sizeof(*names));
		size_t n = 0;

		if (!names)
			return -ENOMEM;
		for (size_t i = 0; i < sm->n_svc; i++)
			if (listed(q, sm->svc[i], prio))
				names[n++] = sm->svc[i]->name;
		r = bc_parcel_write_status(q->reply, NULL);
		if (r == 0)
			r = bc_parcel_write_string16_array(q->reply, names, n);
		free(names);
	}
	return r;
}

/* ---- notifications (AIDL) ---------------------------------------------------- */

static int read_name_binder(struct req *q, char **name, bc_binder **b)
{
	int r = sm_read_name(q->in, name);

	if (r == 0)
		r = bc_parcel_read_binder(q->in, b);
	if (r == 0)
		r = end_of_request(q->in);
	if (r < 0) {
		free(*name);
		*name = NULL;
		bc_binder_unref(*b);
		*b = NULL;
		return -EBADMSG;
	}
	return 0;
}

static int do_register(struct req *q)
{
	char *name = NULL;
	bc_binder *cb = NULL;
	int r = read_name_binder(q, &name, &cb);

	if (r < 0)
		return r;
	if (!sm_name_is_valid(name)) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Invalid service name");
	} else if (!cb) {
		r = write_exception(q->reply, BINDERC_EX_NULL_POINTER, "Null callback");
	} else if (!sm_policy_allows(q->sm->policy, SM_ACT_FIND, name, q->c)) {
		deny_log(q, "watch", name);
		r = write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	} else {
		r = sm_watch(q->sm, name, cb, q->c, q->h->wire, q->h->partition);
		if (r == -ENOSPC)
			r = write_service_error(q->reply, ENOSPC, "Too many callbacks");
		else if (r == -EPIPE)
			r = write_exception(q->reply, BINDERC_EX_ILLEGAL_STATE, "Callback is dead");
		else if (r == 0)
			r = bc_parcel_write_status(q->reply, NULL);
	}
	free(name);
	bc_binder_unref(cb);
	return r;
}

static int do_unregister(struct req *q)
{
	char *name = NULL;
	bc_binder *cb = NULL;
	int r = read_name_binder(q, &name, &cb);

	if (r < 0)
		return r;
	if (!sm_name_is_valid(name))
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Invalid service name");
	else if (!cb)
		r = write_exception(q->reply, BINDERC_EX_NULL_POINTER, "Null callback");
	else if (sm_unwatch(q->sm, name, cb) < 0)
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_STATE, "No such callback");
	else
		r = bc_parcel_write_status(q->reply, NULL);
	free(name);
	bc_binder_unref(cb);
	return r;
}

/* ---- declarations and the rest of the Android 14 interface -------------------- */

/* Methods whose only argument is a String. */
static int read_one_string(struct req *q, char **s)
{
	int r = bc_parcel_read_string16(q->in, s, NULL);

	if (r == 0)
		r = end_of_request(q->in);
	if (r < 0) {
		free(*s);
		*s = NULL;
		return -EBADMSG;
	}
	return 0;
}

static int do_is_declared(struct req *q)
{
	char *name = NULL;
	bool yes;
	int r = read_one_string(q, &name);

	if (r < 0)
		return r;
	yes = name && sm_name_is_valid(name) && sm_policy_is_declared(q->sm->policy, name) &&
	      sm_policy_allows(q->sm->policy, SM_ACT_FIND, name, q->c);
	free(name);
	r = bc_parcel_write_status(q->reply, NULL);
	if (r == 0)
		r = bc_parcel_write_bool(q->reply, yes);
	return r;
}

static int do_declared_instances(struct req *q)
{
	char *iface = NULL, **inst = NULL;
	size_t n = 0, k = 0;
	int r = read_one_string(q, &iface);

	if (r < 0)
		return r;
	if (iface) {
		r = sm_policy_declared_instances(q->sm->policy, iface, &inst, &n);
		if (r < 0) {
			free(iface);
			return r;
		}
	}
	/* Only the instances the caller may find. */
	for (size_t i = 0; i < n; i++) {
		char full[2 * SM_NAME_MAX + 2];

		snprintf(full, sizeof(full), "%s/%s", iface, inst[i]);
		if (sm_policy_allows(q->sm->policy, SM_ACT_FIND, full, q->c))
			inst[k++] = inst[i];
		else
			free(inst[i]);
	}
	free(iface);
	r = bc_parcel_write_status(q->reply, NULL);
	if (r == 0)
		r = bc_parcel_write_string16_array(q->reply, (const char *const *)inst, k);
	bc_strv_free(inst, k);
	return r;
}

static int do_string_query(struct req *q)
{
	char *s = NULL;
	int r = read_one_string(q, &s);

	if (r < 0)
		return r;
	free(s);
	r = bc_parcel_write_status(q->reply, NULL);
	if (r < 0)
		return r;
	switch (q->code) {
	case SM_AIDL_UPDATABLE_VIA_APEX:
		return bc_parcel_write_string16(q->reply, NULL); /* @nullable String: none */
	case SM_AIDL_GET_UPDATABLE_NAMES: {
		static const char *const none[1] = { NULL };

		return bc_parcel_write_string16_array(q->reply, none, 0); /* String[]: empty */
	}
	default:
		return bc_parcel_write_int32(q->reply, 0); /* @nullable ConnectionInfo: none */
	}
}

static int do_try_unregister(struct req *q)
{
	char *name = NULL;
	bc_binder *b = NULL;
	struct sm_service *s;
	int r = read_name_binder(q, &name, &b);

	if (r < 0)
		return r;
	s = sm_name_is_valid(name) ? sm_find(q->sm, name) : NULL;
	if (!sm_name_is_valid(name) || !b) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Invalid arguments");
	} else if (!sm_policy_allows(q->sm->policy, SM_ACT_ADD, name, q->c)) {
		deny_log(q, "unregister", name);
		r = write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	} else if (!s) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_STATE, "Not registered");
	} else if (!sm_same_binder(s->binder, b)) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Another binder is registered under this name");
	} else {
		sm_log(SM_LOG_INFO, "service '%s' unregistered by uid %u", name, (unsigned)q->c->uid);
		sm_remove(q->sm, name);
		r = bc_parcel_write_status(q->reply, NULL);
	}
	free(name);
	bc_binder_unref(b);
	return r;
}

static int do_debug_info(struct req *q)
{
	struct sm *sm = q->sm;
	int32_t n = 0;
	int r;

	if (end_of_request(q->in) < 0)
		return -EBADMSG;
	for (size_t i = 0; i < sm->n_svc; i++)
		n += lookup_q(q, sm->svc[i]->name, true) != NULL;
	r = bc_parcel_write_status(q->reply, NULL);
	if (r == 0)
		r = bc_parcel_write_int32(q->reply, n);
	/* ServiceDebugInfo[]: each element a non-null structured parcelable
	 * { String name; int debugPid; }. */
	for (size_t i = 0; r == 0 && i < sm->n_svc; i++) {
		struct sm_service *s = sm->svc[i];
		size_t tok;

		if (!lookup_q(q, s->name, true))
			continue;
		r = bc_parcel_write_int32(q->reply, 1);
		if (r == 0)
			r = bc_parcel_begin_parcelable(q->reply, &tok);
		if (r == 0)
			r = bc_parcel_write_string16(q->reply, s->name);
		if (r == 0)
			r = bc_parcel_write_int32(q->reply, s->pid);
		if (r == 0)
			r = bc_parcel_end_parcelable(q->reply, tok);
	}
	return r;
}

/* ---- dispatch ------------------------------------------------------------------ */

static int dispatch_legacy(struct req *q)
{
	switch (q->code) {
	case SM_LEGACY_GET:
	case SM_LEGACY_CHECK:
		return do_get(q);
	case SM_LEGACY_ADD:
		return do_add(q);
	case SM_LEGACY_LIST:
		return do_list(q);
	}
	return -EBADMSG;
}

static int dispatch_aidl(struct req *q)
{
	switch (q->code) {
	case SM_AIDL_GET_SERVICE:
	case SM_AIDL_CHECK_SERVICE:
		return do_get(q);
	case SM_AIDL_ADD_SERVICE:
		return do_add(q);
	case SM_AIDL_LIST_SERVICES:
		return do_list(q);
	case SM_AIDL_REGISTER_FOR_NOTIFICATIONS:
		return do_register(q);
	case SM_AIDL_UNREGISTER_FOR_NOTIFICATIONS:
		return do_unregister(q);
	case SM_AIDL_IS_DECLARED:
		return do_is_declared(q);
	case SM_AIDL_GET_DECLARED_INSTANCES:
		return do_declared_instances(q);
	case SM_AIDL_UPDATABLE_VIA_APEX:
	case SM_AIDL_GET_UPDATABLE_NAMES:
	case SM_AIDL_GET_CONNECTION_INFO:
		return do_string_query(q);
	case SM_AIDL_REGISTER_CLIENT_CALLBACK:
		/* Lazy services (client counts) are not supported. */
		return write_exception(q->reply, BINDERC_EX_UNSUPPORTED_OPERATION, "Client callbacks are not supported");
	case SM_AIDL_TRY_UNREGISTER_SERVICE:
		return do_try_unregister(q);
	case SM_AIDL_GET_SERVICE_DEBUG_INFO:
		return do_debug_info(q);
	}
	return -EBADMSG;
}

int sm_handle(struct sm *sm, const struct sm_caller *c, uint32_t code, bc_parcel *in, bc_parcel *reply)
{
	struct sm_header h;
	struct req q = { sm, c, &h, code, in, reply };
	int r;

	r = sm_read_header(in, &h);
	if (r < 0) {
		sm_log(SM_LOG_NOTICE, "code %u from uid %u pid %d: %s header", code, (unsigned)c->uid, (int)c->pid,
		       r == -EPERM ? "wrong interface in" : "malformed");
		return r;
	}
	r = bc_parcel_set_wire(reply, h.wire, h.partition);
	if (r < 0)
		return r;
	r = h.dialect == BINDERC_SM_DIALECT_AIDL ? dispatch_aidl(&q) : dispatch_legacy(&q);
	if (r == -EBADMSG)
		sm_log(SM_LOG_NOTICE, "code %u from uid %u pid %d (%s): malformed or unknown", code, (unsigned)c->uid,
		       (int)c->pid, dialect_name(&q));
	return r;
}

int sm_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata)
{
	struct sm_caller c;

	(void)self;
	if (bc_txn_get_flags(txn) & BINDERC_FLAG_ONEWAY) {
		/* Every method answers; a oneway call cannot be one of ours. */
		sm_log(SM_LOG_NOTICE, "oneway code %u from uid %u ignored", code, (unsigned)bc_txn_get_calling_euid(txn));
		return -EBADMSG;
	}
	if (sm_policy_uses_groups(((struct sm *)userdata)->policy)) {
		sm_caller_init(&c, bc_txn_get_calling_euid(txn), bc_txn_get_calling_pid(txn));
	} else {
		memset(&c, 0, sizeof(c));
		c.uid = bc_txn_get_calling_euid(txn);
		c.pid = bc_txn_get_calling_pid(txn);
	}
	return sm_handle(userdata, &c, code, in, reply);
}
