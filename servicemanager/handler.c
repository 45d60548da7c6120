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
 *           name, or a VINTF-stable binder under an undeclared name
 *           (not in vnd mode), EX_ILLEGAL_ARGUMENT; a limit
 *           EX_SERVICE_SPECIFIC with ENOSPC.
 *           Malformed requests and unknown codes get a transaction
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
	struct sm_header *h; /* its wire may turn to Android 12's (stability_form) */
	uint32_t code;
	bc_parcel *in, *reply;
	int method;  /* enum sm_method (AIDL) */
	int release; /* the release whose numbering decided it (AIDL) */
	bool strict; /* refuse trailing bytes (while detecting the release) */
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

/*
 * Where a request may end.  Android's servicemanager (the AIDL stub, and
 * the C one before it) reads the arguments it wants and ignores anything
 * after them, so trailing bytes are accepted here too, and logged at
 * debug level.  Only while the release is being detected from the shape
 * of the arguments (handler's resolve_and_run) must a request end exactly
 * where its last argument does.
 */
static int end_of_request(const struct req *q)
{
	size_t n = bc_parcel_remaining(q->in);

	if (n == 0)
		return 0;
	if (q->strict)
		return -EBADMSG;
	sm_log(SM_LOG_DEBUG, "code %u from uid %u: %zu trailing bytes ignored", q->code, (unsigned)q->c->uid, n);
	return 0;
}

static const char *dialect_name(const struct req *q)
{
	const struct sm_dialect *d = q->release ? sm_dialect_of(q->release) : q->h->d;

	if (q->release == SM_ANDROID_15 && sm_union_shape(q->sm) == SM_UNION_15_R6)
		return "android-15-r6";
	if (q->release == SM_ANDROID_15 && sm_union_shape(q->sm) == SM_UNION_15_R20)
		return "android-15-r20";
	return d ? d->name : "aidl";
}

/* "uid U pid P (dialect)", for logs. */
static const char *who(const struct req *q, char *buf, size_t len)
{
	snprintf(buf, len, "uid %u pid %d (%s)", (unsigned)q->c->uid, (int)q->c->pid, dialect_name(q));
	return buf;
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

/*
 * The Service union that getService2 and checkService2 return (Android
 * 15 and 16), in the two shapes it had (frameworks/native's Service.aidl):
 *
 *   first (android-15.0.0_r6):   union Service { @nullable IBinder binder;     // tag 0
 *                                                @nullable IBinder accessor; } // tag 1
 *   later (r20 on, and 16):      union Service { ServiceWithMetadata serviceWithMetadata; // tag 0
 *                                                @nullable IBinder accessor; }            // tag 1
 *                                parcelable ServiceWithMetadata { @nullable IBinder service;
 *                                                                 boolean isLazyService; }
 *
 * A non-null return value is written as int32 1, then the union: int32
 * tag, then the member (a union has no size prefix); a parcelable member
 * again as int32 1 and then its size-prefixed body.  We always answer tag
 * 0 (no accessors), with a null binder when absent or hidden;
 * isLazyService is true for services that registered a client callback
 * (lazy.c).
 */
enum reply_form { RF_BINDER, RF_UNION_BINDER, RF_UNION_METADATA };

static int write_service_union(bc_parcel *reply, const struct sm_service *s, enum reply_form form)
{
	size_t tok;
	int r = bc_parcel_write_int32(reply, 1);

	if (r == 0)
		r = bc_parcel_write_int32(reply, 0);
	if (r == 0 && form == RF_UNION_BINDER)
		return bc_parcel_write_binder(reply, s ? s->binder : NULL);
	if (r == 0)
		r = bc_parcel_write_int32(reply, 1);
	if (r == 0)
		r = bc_parcel_begin_parcelable(reply, &tok);
	if (r == 0)
		r = bc_parcel_write_binder(reply, s ? s->binder : NULL);
	if (r == 0)
		r = bc_parcel_write_bool(reply, sm_is_lazy(s));
	if (r == 0)
		r = bc_parcel_end_parcelable(reply, tok);
	return r;
}

/*
 * What a lookup answers.  getService2 and checkService2 the union;
 * checkService a plain binder, except in the Android 15 variants whose
 * checkService returned the union too (only when the request was read
 * in Android 15's numbering: a request read as another release's gets
 * that release's answer).
 */
static enum reply_form reply_form(const struct req *q)
{
	int shape = q->release == SM_ANDROID_15 ? sm_union_shape(q->sm) : SM_UNION_DEFAULT;
	bool by_union = q->method == SM_M_GET_SERVICE2 || q->method == SM_M_CHECK_SERVICE2 ||
			(q->method == SM_M_CHECK_SERVICE && shape != SM_UNION_DEFAULT);

	if (!by_union)
		return RF_BINDER;
	return shape == SM_UNION_15_R6 ? RF_UNION_BINDER : RF_UNION_METADATA;
}

/* ---- get, check ------------------------------------------------------------ */

/* getService (not checkService) of either dialect: the one lookup that
 * may start a lazy service (lazy.c). */
static bool is_get(const struct req *q)
{
	return q->method == SM_M_GET_SERVICE || q->method == SM_M_GET_SERVICE2;
}

static int do_get(struct req *q)
{
	char *name = NULL;
	struct sm_service *s;
	int r = sm_read_name(q->in, &name);

	if (r == 0)
		r = end_of_request(q);
	if (r < 0) {
		free(name);
		return -EBADMSG;
	}
	s = lookup(q, name);
	/* Absent (not merely hidden from this caller): its start-command, if
	 * it has one.  The answer is null all the same; the client waits and
	 * asks again (libbinder-c's bc_sm_get polls, as Android's does), so
	 * the daemon never waits for a service to come up. */
	if (!s && is_get(q) && sm_name_is_valid(name) && !sm_find(q->sm, name) &&
	    sm_policy_allows(q->sm->policy, SM_ACT_FIND, name, q->c))
		sm_try_start(q->sm, name);
	free(name);
	if (q->h->d->status_reply)
		r = bc_parcel_write_status(q->reply, NULL);
	if (r == 0 && reply_form(q) != RF_BINDER)
		r = write_service_union(q->reply, s, reply_form(q));
	else if (r == 0)
		r = bc_parcel_write_binder(q->reply, s ? s->binder : NULL);
	if (r == 0 && s)
		sm_handed_out(q->sm, s);
	return r;
}

/* What @pid's earlier requests told (handler's dispatch_aidl, and
 * stability_form), or NULL. */
static struct sm_learned *learned(struct sm *sm, pid_t pid)
{
	for (size_t i = 0; i < sm->n_learned; i++)
		if (sm->learned[i].pid == pid)
			return &sm->learned[i];
	return NULL;
}

/* A blank entry for @pid, in place of the oldest when the table is full. */
static struct sm_learned *learned_new(struct sm *sm, pid_t pid)
{
	struct sm_learned *l = &sm->learned[sm->next_learned];

	sm->next_learned = (sm->next_learned + 1) % SM_LEARNED_MAX;
	if (sm->n_learned < SM_LEARNED_MAX)
		sm->n_learned++;
	memset(l, 0, sizeof(*l));
	l->pid = pid;
	return l;
}

/* A stability word in Android 12's Category form: version 1 in the low
 * byte, two zero bytes, the level in the high byte (raw levels, which the
 * other releases write, never have a low byte of 1). */
static bool is_category_word(uint32_t w)
{
	return (w & 0x00ffffffu) == 1u;
}

/*
 * The binder just read came with a Category-form stability word: the
 * caller speaks Android 12's wire (Android 12 itself, or libgbinder's
 * "aidl4"), so answer it -- and later notify it -- in that form, or it
 * would read our raw level as a Category of level 0 (UNDECLARED), and
 * forward the binder with that.  The device's release 12 does the same
 * for every request (sm_handle).  Remembered by pid, so that the
 * caller's lookups, which carry no binder, are answered alike (libgbinder
 * registers a notification callback before it looks up what it waits
 * for); a raw-form word from that pid forgets it (another program may
 * have the pid now).
 */
static void stability_form(struct req *q)
{
	size_t pos = bc_parcel_get_position(q->in);
	struct sm_learned *l;
	const void *raw;
	uint32_t w;
	bool category;

	if (pos < 4 || bc_parcel_set_position(q->in, pos - 4) < 0)
		return;
	if (bc_parcel_read_raw(q->in, 4, &raw) == 0) {
		memcpy(&w, raw, 4);
		category = is_category_word(w);
		l = learned(q->sm, q->c->pid);
		if (!l && category)
			l = learned_new(q->sm, q->c->pid);
		if (l)
			l->category = category;
		if (category && bc_parcel_set_wire(q->reply, BINDERC_WIRE_ANDROID_12, q->h->partition) == 0)
			q->h->wire = BINDERC_WIRE_ANDROID_12;
	}
	bc_parcel_set_position(q->in, pos);
}

/* A Category word of a declared level (VENDOR, SYSTEM, VINTF): never a
 * boolean, unlike the Category of level 0, which is the int32 1. */
static bool is_declared_category(uint32_t w)
{
	uint32_t level = w >> 24;

	return is_category_word(w) &&
	       (level == BINDERC_STABILITY_VENDOR || level == BINDERC_STABILITY_SYSTEM || level == BINDERC_STABILITY_VINTF);
}

/* Read a binder argument, noting the form of its stability word. */
static int read_binder_arg(struct req *q, bc_binder **ret)
{
	int r = bc_parcel_read_binder(q->in, ret);

	if (r == 0 && q->h->dialect == BINDERC_SM_DIALECT_AIDL)
		stability_form(q);
	return r;
}

/*
 * Some Android 12-era clients (libgbinder's "aidl4" service manager)
 * write a stability word after the binder themselves, on top of the one
 * their parcel writer already put there: String, object, stability,
 * 0x0c000001 (SYSTEM as a Category), allowIsolated, dumpPriority.
 * Android reads the extra word as allowIsolated (non-zero: true) and
 * allowIsolated as the dump priority, and ignores the last word.  We
 * recognise the extra word instead -- exactly three words left, the first
 * not a plausible boolean: a Category of a declared level, or a copy of
 * the word just read -- and skip it, so the service gets the isolation and
 * priority its client meant (and, with priority 0, would never be
 * listed).  The object's own word need not match: a binder that client
 * forwards carries the level it was given, often not SYSTEM.
 */
static void skip_repeated_stability(struct req *q)
{
	size_t pos = bc_parcel_get_position(q->in);
	const void *raw;
	uint32_t stab, next;

	if (bc_parcel_remaining(q->in) != 12 || pos < 4 || bc_parcel_set_position(q->in, pos - 4) < 0)
		return;
	if (bc_parcel_read_raw(q->in, 8, &raw) == 0) {
		memcpy(&stab, raw, 4);
		memcpy(&next, (const char *)raw + 4, 4);
		if ((stab == next && stab > 1) || is_declared_category(next)) {
			sm_log(SM_LOG_DEBUG, "add from uid %u: repeated stability word 0x%08x skipped",
			       (unsigned)q->c->uid, stab);
			return; /* now past the copy */
		}
	}
	bc_parcel_set_position(q->in, pos);
}

/* ---- add --------------------------------------------------------------------- */

static int do_add(struct req *q)
{
	bool aidl = q->h->d->status_reply; /* and a dump priority, always */
	char *name = NULL, whobuf[64];
	bc_binder *b = NULL;
	int32_t isolated = 0, dump = BINDERC_SM_DUMP_DEFAULT;
	int r;

	r = sm_read_name(q->in, &name);
	if (r == 0)
		r = read_binder_arg(q, &b);
	if (r == 0 && aidl && b)
		skip_repeated_stability(q);
	if (r == 0)
		r = bc_parcel_read_int32(q->in, &isolated);
	/* The dump priority arrived in Android 9; older legacy clients stop
	 * after allow_isolated. */
	if (r == 0 && (aidl || bc_parcel_remaining(q->in) > 0))
		r = bc_parcel_read_int32(q->in, &dump);
	if (r == 0)
		r = end_of_request(q);
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
	/* Android's servicemanager: a VINTF-stable binder only under a
	 * declared name; the reason is in the log.  Its vndservicemanager
	 * has no manifest to check and registers it (vnd mode). */
	if (!q->sm->vnd &&
	    !sm_vintf_may_add(q->sm->policy, name, bc_binder_get_stability(b), who(q, whobuf, sizeof(whobuf)))) {
		r = aidl ? write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "VINTF declaration error.") : -EINVAL;
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

	if (q->h->d->list_by_index) {
		r = bc_parcel_read_int32(q->in, &index);
		if (r == 0 && bc_parcel_remaining(q->in) > 0)
			r = bc_parcel_read_int32(q->in, &prio);
		if (r == 0)
			r = end_of_request(q);
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
		r = end_of_request(q);
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
		r = read_binder_arg(q, b);
	if (r == 0)
		r = end_of_request(q);
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
		r = end_of_request(q);
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
	/* As Android: a name the caller may not find is EX_SECURITY, not
	 * "undeclared" (which would tell it apart from a declared one). */
	if (name && !sm_policy_allows(q->sm->policy, SM_ACT_FIND, name, q->c)) {
		deny_log(q, "isDeclared", name);
		free(name);
		return write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	}
	/* vnd mode: false for every name the caller may find, as Android's
	 * vndservicemanager answers */
	yes = !q->sm->vnd && name && sm_name_is_valid(name) && sm_policy_is_declared(q->sm->policy, name);
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
	/* vnd mode: nothing is declared, so an empty list and EX_NONE */
	if (iface && !q->sm->vnd) {
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
	/* As Android: some declared, none findable by this caller */
	if (k == 0 && n > 0)
		r = write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	else
		r = bc_parcel_write_status(q->reply, NULL);
	if (r == 0 && !(k == 0 && n > 0))
		r = bc_parcel_write_string16_array(q->reply, (const char *const *)inst, k);
	bc_strv_free(inst, k);
	return r;
}

/* getUpdatableNames(apexName): the declared names updatable via that
 * APEX that the caller may find. */
static int do_updatable_names(struct req *q)
{
	char *apex = NULL, **names = NULL;
	size_t n = 0, k = 0;
	int r = read_one_string(q, &apex);

	if (r < 0)
		return r;
	/* vnd mode: no names, EX_NONE */
	if (apex && !q->sm->vnd)
		r = sm_policy_updatable_names(q->sm->policy, apex, &names, &n);
	free(apex);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (sm_policy_allows(q->sm->policy, SM_ACT_FIND, names[i], q->c))
			names[k++] = names[i];
		else
			free(names[i]);
	}
	if (k == 0 && n > 0) {
		r = write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	} else {
		static const char *const none[1] = { NULL };

		r = bc_parcel_write_status(q->reply, NULL);
		if (r == 0)
			r = bc_parcel_write_string16_array(q->reply, k ? (const char *const *)names : none, k);
	}
	bc_strv_free(names, k);
	return r;
}

/*
 * updatableViaApex(name) -> @nullable String, getConnectionInfo(name) ->
 * @nullable ConnectionInfo { @utf8InCpp String ipAddress; int port; }:
 * from the name's declaration, null when it has none (or is undeclared);
 * EX_SECURITY for a name the caller may not find.
 */
static int do_declared_query(struct req *q)
{
	const struct sm_decl *d;
	char *name = NULL;
	size_t tok;
	int r = read_one_string(q, &name);

	if (r < 0)
		return r;
	if (name && !sm_policy_allows(q->sm->policy, SM_ACT_FIND, name, q->c)) {
		deny_log(q, q->method == SM_M_UPDATABLE_VIA_APEX ? "updatableViaApex" : "getConnectionInfo", name);
		free(name);
		return write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	}
	/* vnd mode: null after the find check, as Android's */
	d = q->sm->vnd ? NULL : sm_policy_declaration(q->sm->policy, name);
	free(name);
	r = bc_parcel_write_status(q->reply, NULL);
	if (r < 0)
		return r;
	if (q->method == SM_M_UPDATABLE_VIA_APEX)
		return bc_parcel_write_string16(q->reply, d ? d->apex : NULL);
	if (!d || !d->ip)
		return bc_parcel_write_int32(q->reply, 0);
	r = bc_parcel_write_int32(q->reply, 1);
	if (r == 0)
		r = bc_parcel_begin_parcelable(q->reply, &tok);
	if (r == 0)
		r = bc_parcel_write_string16(q->reply, d->ip);
	if (r == 0)
		r = bc_parcel_write_int32(q->reply, d->port);
	if (r == 0)
		r = bc_parcel_end_parcelable(q->reply, tok);
	return r;
}

/* registerClientCallback(name, service, IClientCallback): only the
 * process that registered @name, naming the binder it registered. */
static int do_register_client(struct req *q)
{
	char *name = NULL;
	bc_binder *svc = NULL, *cb = NULL;
	struct sm_service *s;
	int r = sm_read_name(q->in, &name);

	if (r == 0)
		r = read_binder_arg(q, &svc);
	if (r == 0)
		r = read_binder_arg(q, &cb);
	if (r == 0)
		r = end_of_request(q);
	if (r < 0) {
		r = -EBADMSG;
		goto out;
	}
	s = sm_name_is_valid(name) ? sm_find(q->sm, name) : NULL;
	if (!cb) {
		r = write_exception(q->reply, BINDERC_EX_NULL_POINTER, "Null callback");
	} else if (!sm_name_is_valid(name)) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Invalid service name");
	} else if (!sm_policy_allows(q->sm->policy, SM_ACT_ADD, name, q->c)) {
		deny_log(q, "client callback for", name);
		r = write_exception(q->reply, BINDERC_EX_SECURITY, "Permission denied");
	} else if (!s) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Not registered");
	} else if (s->pid != q->c->pid) {
		r = write_exception(q->reply, BINDERC_EX_UNSUPPORTED_OPERATION,
				    "Only the registering process may register client callbacks");
	} else if (!sm_same_binder(s->binder, svc)) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Another binder is registered under this name");
	} else {
		r = sm_add_client_callback(q->sm, s, cb, q->h->wire, q->h->partition);
		if (r == -ENOSPC)
			r = write_service_error(q->reply, ENOSPC, "Too many client callbacks");
		else if (r == -EPIPE)
			r = write_exception(q->reply, BINDERC_EX_ILLEGAL_STATE, "Callback is dead");
		else if (r == 0)
			r = bc_parcel_write_status(q->reply, NULL);
		if (r == 0)
			sm_log(SM_LOG_INFO, "service '%s' is lazy (client callback from pid %d)", name, (int)q->c->pid);
	}
out:
	free(name);
	bc_binder_unref(svc);
	bc_binder_unref(cb);
	return r;
}

/* tryUnregisterService(name, binder): only by the registering process,
 * with the registered binder, and only while nobody else holds it. */
static int do_try_unregister(struct req *q)
{
	char *name = NULL;
	bc_binder *b = NULL;
	struct sm_service *s;
	int r = read_name_binder(q, &name, &b), busy;

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
	} else if (s->pid != q->c->pid) {
		r = write_exception(q->reply, BINDERC_EX_UNSUPPORTED_OPERATION,
				    "Only the registering process may unregister");
	} else if (!sm_same_binder(s->binder, b)) {
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_ARGUMENT, "Another binder is registered under this name");
	} else if ((busy = sm_may_unregister(q->sm, s)) != 0) {
		/* Clients, or the driver cannot count them: assume some, as
		 * Android does. */
		sm_log(SM_LOG_INFO, "service '%s' not unregistered: %s", name,
		       busy == -EBUSY ? "it has clients" : "clients cannot be counted");
		r = write_exception(q->reply, BINDERC_EX_ILLEGAL_STATE, "Service has clients");
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

	if (end_of_request(q) < 0)
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

static int run_method(struct req *q)
{
	switch (q->method) {
	case SM_M_GET_SERVICE:
	case SM_M_GET_SERVICE2:
	case SM_M_CHECK_SERVICE:
	case SM_M_CHECK_SERVICE2:
		return do_get(q);
	case SM_M_ADD_SERVICE:
		return do_add(q);
	case SM_M_LIST_SERVICES:
		return do_list(q);
	case SM_M_REGISTER_FOR_NOTIFICATIONS:
		return do_register(q);
	case SM_M_UNREGISTER_FOR_NOTIFICATIONS:
		return do_unregister(q);
	case SM_M_IS_DECLARED:
		return do_is_declared(q);
	case SM_M_GET_DECLARED_INSTANCES:
		return do_declared_instances(q);
	case SM_M_UPDATABLE_VIA_APEX:
	case SM_M_GET_CONNECTION_INFO:
		return do_declared_query(q);
	case SM_M_GET_UPDATABLE_NAMES:
		return do_updatable_names(q);
	case SM_M_REGISTER_CLIENT_CALLBACK:
		return do_register_client(q);
	case SM_M_TRY_UNREGISTER_SERVICE:
		return do_try_unregister(q);
	case SM_M_GET_SERVICE_DEBUG_INFO:
		return do_debug_info(q);
	}
	return -EBADMSG;
}

/* Run @method of @release on the arguments at @args; -EBADMSG (and
 * nothing done, nothing written) when they do not decode. */
static int try_method(struct req *q, size_t args, int release, int method, bool strict)
{
	q->release = release;
	q->method = method;
	q->strict = strict;
	if (bc_parcel_set_position(q->in, args) < 0)
		return -EBADMSG;
	return method == SM_M_NONE ? -EBADMSG : run_method(q);
}

/* A dialect with one numbering (legacy): its table decides. */
static int dispatch_fixed(struct req *q)
{
	return try_method(q, bc_parcel_get_position(q->in), q->h->d->release, sm_dialect_method(q->h->d, q->code),
			  false);
}

/* The arguments each method takes: where two releases put methods of
 * one shape at a code, the bytes cannot tell those releases apart. */
enum shape { SH_NONE, SH_NAME, SH_NAME_BINDER, SH_NAME_BINDER_BINDER, SH_ADD, SH_INT };

static enum shape shape_of(int method)
{
	switch (method) {
	case SM_M_ADD_SERVICE:
		return SH_ADD;
	case SM_M_LIST_SERVICES:
		return SH_INT;
	case SM_M_REGISTER_FOR_NOTIFICATIONS:
	case SM_M_UNREGISTER_FOR_NOTIFICATIONS:
	case SM_M_TRY_UNREGISTER_SERVICE:
		return SH_NAME_BINDER;
	case SM_M_REGISTER_CLIENT_CALLBACK:
		return SH_NAME_BINDER_BINDER;
	case SM_M_GET_SERVICE_DEBUG_INFO:
		return SH_NONE;
	default:
		return SH_NAME;
	}
}

/* A request of @q's caller did not fit the device's release @rel0 and was
 * read as @method: it came from one of the releases (other than @rel0)
 * that put a method of that shape at its code.  Narrow what we know. */
static void learn(struct req *q, int rel0, int method)
{
	struct sm *sm = q->sm;
	struct sm_learned *l = learned(sm, q->c->pid);
	unsigned mask = 0;

	for (int x = SM_RELEASE_FIRST; x <= SM_RELEASE_LAST; x++) {
		int m = sm_method_of(x, q->code);

		if (x != rel0 && m != SM_M_NONE && shape_of(m) == shape_of(method))
			mask |= 1u << (x - SM_RELEASE_FIRST);
	}
	if (!l)
		l = learned_new(sm, q->c->pid);
	/* Nothing in common: another program now has that pid. */
	l->mask = (l->mask & mask) ? l->mask & mask : mask;
}

/*
 * Which method an AIDL request means.  The header is the same from
 * Android 11 to 16, so the code is read in the device's release first;
 * when the arguments do not fit that method exactly, in the other
 * releases, where a different method may fit them exactly -- that is how
 * a request tells its release when the bytes can (e.g. code 3 with a name
 * only is Android 15/16 checkService, never an addService).  Only then is
 * the device's method given the benefit of the doubt about trailing
 * bytes.
 *
 * Two kinds of ambiguity remain.  Where the device's method fits (code 2:
 * checkService of 11-14, getService2 of 15-16) the device's release
 * decides, always: what a request that fits means never depends on who
 * sent it before.  Where it does not fit but two other releases' methods
 * do (on a 14 device, code 7 with a name and a binder is Android 15's
 * unregisterForNotifications and Android 16's registerForNotifications),
 * the releases the caller's earlier requests proved possible (by pid)
 * come first; then the nearest release, the newer on a tie.
 */
static int dispatch_aidl(struct req *q)
{
	size_t args = bc_parcel_get_position(q->in);
	int rel0 = sm_release(q->sm), m0 = sm_method_of(rel0, q->code);
	struct sm_learned *l = learned(q->sm, q->c->pid);
	unsigned known = l ? l->mask : 0;
	int r = try_method(q, args, rel0, m0, true);

	if (r != -EBADMSG)
		return r;
	for (int pass = known ? 0 : 1; pass < 2; pass++) {
		for (int d = 1; d <= SM_RELEASE_LAST - SM_RELEASE_FIRST; d++) {
			int cand[2] = { rel0 + d, rel0 - d };

			for (int i = 0; i < 2; i++) {
				int m = sm_method_of(cand[i], q->code);
				bool in_known = sm_release_is_valid(cand[i]) &&
						(known >> (cand[i] - SM_RELEASE_FIRST) & 1u);

				if (m == SM_M_NONE || m == m0 || in_known != (pass == 0))
					continue;
				r = try_method(q, args, cand[i], m, true);
				if (r != -EBADMSG) {
					sm_log(SM_LOG_DEBUG, "code %u from uid %u pid %d read as %s", q->code,
					       (unsigned)q->c->uid, (int)q->c->pid, dialect_name(q));
					learn(q, rel0, m);
					return r;
				}
			}
		}
	}
	return try_method(q, args, rel0, m0, false);
}

int sm_handle(struct sm *sm, const struct sm_caller *c, uint32_t code, bc_parcel *in, bc_parcel *reply)
{
	struct sm_header h;
	struct req q = { sm, c, &h, code, in, reply, SM_M_NONE, 0, false };
	int r;

	r = sm_read_header(in, &h);
	if (r < 0) {
		sm_log(SM_LOG_NOTICE, "code %u from uid %u pid %d: %s header", code, (unsigned)c->uid, (int)c->pid,
		       r == -EPERM ? "wrong interface in" : "malformed");
		return r;
	}
	/* The AIDL header is the same from 11 on; what differs is the form of
	 * the stability word after binders.  Reading takes either form; a
	 * device of release 12 writes Android 12's Category form, the others
	 * the raw level (Android 11, and 13 on), unless the caller's binders
	 * came in Category form (stability_form), in this request or its
	 * last one that had a binder. */
	if (h.dialect == BINDERC_SM_DIALECT_AIDL &&
	    (sm_release(sm) == SM_ANDROID_12 || (learned(sm, c->pid) && learned(sm, c->pid)->category))) {
		h.wire = BINDERC_WIRE_ANDROID_12;
		r = bc_parcel_set_wire(in, h.wire, h.partition);
		if (r < 0)
			return r;
	}
	r = bc_parcel_set_wire(reply, h.wire, h.partition);
	if (r < 0)
		return r;
	/* AIDL requests carry no release: it is worked out from the code. */
	r = h.dialect == BINDERC_SM_DIALECT_AIDL ? dispatch_aidl(&q) : dispatch_fixed(&q);
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
