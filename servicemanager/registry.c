// SPDX-License-Identifier: MIT
/*
 * The service manager's state: registered services (sorted by name) and
 * notification callbacks.  Every entry holds a strong reference on its
 * binder and, for proxies, a death notification that removes it.  Entries
 * are counted per uid against the policy's limits, so no client can make
 * the daemon grow without bound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sm.h"

int sm_init(struct sm *sm, struct sm_policy *policy)
{
	memset(sm, 0, sizeof(*sm));
	sm->policy = policy;
	sm->strong_count = sm_node_strong_count;
	sm->spawn = sm_spawn;
	sm->clock_ms = sm_clock_ms;
	return 0;
}

int sm_release(const struct sm *sm)
{
	int r = sm->release ? sm->release : sm_policy_release(sm->policy);

	return r ? r : SM_RELEASE_DEFAULT;
}

int sm_union_shape(const struct sm *sm)
{
	/* The shape goes with the release it was given with: the command
	 * line's when it names one, else the policy file's. */
	int shape = sm->release ? sm->shape : sm_policy_union_shape(sm->policy);

	return sm_release(sm) == SM_ANDROID_15 ? shape : SM_UNION_DEFAULT;
}

void sm_set_policy(struct sm *sm, struct sm_policy *policy)
{
	sm_policy_free(sm->policy);
	sm->policy = policy;
}

bool sm_same_binder(bc_binder *a, bc_binder *b)
{
	uint32_t ha, hb;

	if (a == b)
		return true;
	if (!a || !b || !bc_binder_is_remote(a) || !bc_binder_is_remote(b))
		return false;
	/* One proxy per handle per process, but compare handles anyway. */
	return bc_binder_get_process(a) == bc_binder_get_process(b) && bc_binder_get_handle(a, &ha) == 0 &&
	       bc_binder_get_handle(b, &hb) == 0 && ha == hb;
}

/* ---- services ------------------------------------------------------------ */

/* Index of @name, or where it would go (*found false). */
static size_t svc_index(struct sm *sm, const char *name, bool *found)
{
	size_t lo = 0, hi = sm->n_svc;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sm->svc[mid]->name, name);

		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

struct sm_service *sm_find(struct sm *sm, const char *name)
{
	bool found;
	size_t i = svc_index(sm, name, &found);

	return found ? sm->svc[i] : NULL;
}

static void service_died(void *cookie);

static void service_free(struct sm_service *s)
{
	bc_slot_unref(s->death); /* may be service_died() freeing it */
	sm_drop_client_callbacks(s);
	bc_binder_unref(s->binder);
	free(s->name);
	free(s);
}

static void svc_remove_at(struct sm *sm, size_t i)
{
	struct sm_service *s = sm->svc[i];

	memmove(&sm->svc[i], &sm->svc[i + 1], (sm->n_svc - i - 1) * sizeof(sm->svc[0]));
	sm->n_svc--;
	service_free(s);
}

static void service_died(void *cookie)
{
	struct sm_service *s = cookie;
	struct sm *sm = s->sm;
	bool found;
	size_t i = svc_index(sm, s->name, &found);

	if (!found || sm->svc[i] != s)
		return; /* not ours any more (cannot happen: replaced entries unlink) */
	sm_log(SM_LOG_INFO, "service '%s' (uid %u) died; removed", s->name, (unsigned)s->owner);
	svc_remove_at(sm, i);
}

void sm_remove(struct sm *sm, const char *name)
{
	bool found;
	size_t i = svc_index(sm, name, &found);

	if (found)
		svc_remove_at(sm, i);
}

static unsigned count_owned_services(struct sm *sm, uid_t uid)
{
	unsigned n = 0;

	for (size_t i = 0; i < sm->n_svc; i++)
		n += sm->svc[i]->owner == uid;
	return n;
}

static void notify(struct sm *sm, struct sm_service *s);

int sm_add(struct sm *sm, const char *name, bc_binder *binder, const struct sm_caller *c, bool allow_isolated,
	   int32_t dump_flags)
{
	const struct sm_limits *lim = sm_policy_limits(sm->policy);
	struct sm_service *s, *old;
	bool found;
	size_t i = svc_index(sm, name, &found);
	int r;

	old = found ? sm->svc[i] : NULL;
	if (!old) {
		if (sm->n_svc >= lim->max_services)
			return -ENOSPC;
	}
	if ((!old || old->owner != c->uid) && count_owned_services(sm, c->uid) >= lim->max_services_per_uid)
		return -ENOSPC;
	if (!old && sm->n_svc == sm->cap_svc) {
		size_t cap = sm->cap_svc ? sm->cap_svc * 2 : 64;
		struct sm_service **nv = realloc(sm->svc, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		sm->svc = nv;
		sm->cap_svc = cap;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->name = strdup(name);
	if (!s->name) {
		free(s);
		return -ENOMEM;
	}
	s->binder = bc_binder_ref(binder);
	s->owner = c->uid;
	s->pid = c->pid;
	s->allow_isolated = allow_isolated;
	s->dump_flags = dump_flags;
	s->sm = sm;
	if (bc_binder_is_remote(binder)) {
		r = bc_binder_link_to_death(binder, service_died, s, &s->death);
		if (r < 0) {
			/* -EPIPE: already dead.  Anything else: we could not
			 * watch it, and an unwatched entry would outlive its
			 * process, so refuse. */
			bc_binder_unref(s->binder);
			free(s->name);
			free(s);
			return r == -EPIPE ? -EPIPE : r;
		}
	}
	if (old) {
		sm_log(SM_LOG_INFO, "service '%s' replaced (uid %u, was uid %u)", name, (unsigned)c->uid,
		       (unsigned)old->owner);
		sm->svc[i] = s;
		service_free(old);
	} else {
		memmove(&sm->svc[i + 1], &sm->svc[i], (sm->n_svc - i) * sizeof(sm->svc[0]));
		sm->svc[i] = s;
		sm->n_svc++;
		sm_log(SM_LOG_INFO, "service '%s' added by uid %u pid %d", name, (unsigned)c->uid, (int)c->pid);
	}
	notify(sm, s);
	return 0;
}

/* ---- callbacks ----------------------------------------------------------- */

static void callback_died(void *cookie);

static void callback_free(struct sm_callback *cb)
{
	bc_slot_unref(cb->death); /* may be callback_died() freeing it */
	bc_binder_unref(cb->cb);
	free(cb->name);
	free(cb);
}

static void cb_remove_at(struct sm *sm, size_t i)
{
	struct sm_callback *cb = sm->cbs[i];

	sm->cbs[i] = sm->cbs[--sm->n_cbs];
	callback_free(cb);
}

static void callback_died(void *cookie)
{
	struct sm_callback *cb = cookie;
	struct sm *sm = cb->sm;

	for (size_t i = 0; i < sm->n_cbs; i++) {
		if (sm->cbs[i] == cb) {
			sm_log(SM_LOG_DEBUG, "callback for '%s' (uid %u) died; removed", cb->name, (unsigned)cb->owner);
			cb_remove_at(sm, i);
			return;
		}
	}
}

/* Send onRegistration(name, binder) to one callback (oneway). */
static int call_back(struct sm_callback *cb, struct sm_service *s)
{
	bc_parcel *p;
	int r = bc_parcel_new(&p);

	if (r < 0)
		return r;
	r = bc_parcel_set_wire(p, cb->wire, cb->partition);
	if (r == 0)
		r = bc_parcel_write_interface_token(p, SM_CALLBACK_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_write_string16(p, s->name);
	if (r == 0)
		r = bc_parcel_write_binder(p, s->binder);
	if (r == 0)
		r = bc_binder_transact(cb->cb, SM_CALLBACK_ON_REGISTRATION, p, NULL, BINDERC_FLAG_ONEWAY, NULL);
	bc_parcel_unref(p);
	return r;
}

static void notify(struct sm *sm, struct sm_service *s)
{
	for (size_t i = 0; i < sm->n_cbs;) {
		struct sm_callback *cb = sm->cbs[i];
		int r;

		if (strcmp(cb->name, s->name) != 0) {
			i++;
			continue;
		}
		r = call_back(cb, s);
		if (r == -EPIPE) {
			sm_log(SM_LOG_DEBUG, "callback for '%s' is dead; removed", cb->name);
			cb_remove_at(sm, i);
			continue;
		}
		if (r < 0)
			sm_log(SM_LOG_WARNING, "notifying uid %u of '%s': %s", (unsigned)cb->owner, s->name,
			       strerror(-r));
		i++;
	}
}

int sm_watch(struct sm *sm, const char *name, bc_binder *binder, const struct sm_caller *c, int wire, int partition)
{
	const struct sm_limits *lim = sm_policy_limits(sm->policy);
	struct sm_callback *cb;
	struct sm_service *s;
	unsigned owned = 0;
	int r;

	for (size_t i = 0; i < sm->n_cbs; i++)
		owned += sm->cbs[i]->owner == c->uid;
	if (sm->n_cbs >= lim->max_callbacks || owned >= lim->max_callbacks_per_uid)
		return -ENOSPC;
	if (sm->n_cbs == sm->cap_cbs) {
		size_t cap = sm->cap_cbs ? sm->cap_cbs * 2 : 32;
		struct sm_callback **nv = realloc(sm->cbs, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		sm->cbs = nv;
		sm->cap_cbs = cap;
	}
	cb = calloc(1, sizeof(*cb));
	if (!cb || !(cb->name = strdup(name))) {
		free(cb);
		return -ENOMEM;
	}
	cb->cb = bc_binder_ref(binder);
	cb->owner = c->uid;
	cb->wire = wire;
	cb->partition = partition;
	cb->sm = sm;
	if (bc_binder_is_remote(binder)) {
		r = bc_binder_link_to_death(binder, callback_died, cb, &cb->death);
		if (r < 0) {
			bc_binder_unref(cb->cb);
			free(cb->name);
			free(cb);
			return r;
		}
	}
	sm->cbs[sm->n_cbs++] = cb;
	s = sm_find(sm, name);
	if (!s)
		return 0;
	/* Already there: tell the new watcher at once, as Android does. */
	r = call_back(cb, s);
	if (r < 0) {
		if (r != -EPIPE)
			sm_log(SM_LOG_WARNING, "notifying uid %u of '%s': %s", (unsigned)c->uid, name, strerror(-r));
		sm->n_cbs--; /* it is the last one */
		callback_free(cb);
	}
	return r;
}

int sm_unwatch(struct sm *sm, const char *name, bc_binder *binder)
{
	for (size_t i = 0; i < sm->n_cbs; i++) {
		struct sm_callback *cb = sm->cbs[i];

		if (strcmp(cb->name, name) == 0 && sm_same_binder(cb->cb, binder)) {
			cb_remove_at(sm, i);
			return 0;
		}
	}
	return -ENOENT;
}

void sm_fini(struct sm *sm)
{
	while (sm->n_svc)
		svc_remove_at(sm, sm->n_svc - 1);
	while (sm->n_cbs)
		cb_remove_at(sm, sm->n_cbs - 1);
	free(sm->svc);
	free(sm->cbs);
	sm_drop_starts(sm);
	sm->svc = NULL;
	sm->cbs = NULL;
	sm_policy_free(sm->policy);
	sm->policy = NULL;
}
