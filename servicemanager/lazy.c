// SPDX-License-Identifier: MIT
/*
 * Lazy services, as Android has them: a service registers an
 * IClientCallback for its name and is told onClients(binder, true/false)
 * whenever the answer to "does anyone but the service manager hold me?"
 * changes, so it can tryUnregisterService and exit when unused; and a
 * start-command in the policy starts it again on the next getService.
 *
 * Who holds a service is the driver's strong count on its node
 * (BINDER_GET_NODE_INFO_FOR_REF, which only the context manager may ask):
 * one reference process by process, plus one per transaction in flight
 * that carries it.  Our own reference is one of them.  The count is read
 * when the binder is handed out and every SM_CLIENT_CHECK_MS from the main
 * loop; the driver tells nobody when a client drops a reference or dies,
 * so "no clients" is only ever learned by that periodic check.
 */
#include <errno.h>
#include <uapi/binder.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>

#include "sm.h"

struct sm_client_cb {
	bc_binder *cb;
	int wire, partition; /* of the registering request: answer alike */
	bc_slot *death; /* the death recipient, NULL if none */
	struct sm_service *svc;
};

/* A service name with a start-command, and what we last did about it. */
struct sm_start {
	char *name;
	pid_t pid;	 /* running command, 0 when none */
	int64_t last_ms; /* when it was last started */
	bool again;	 /* asked for while it ran: start again when it exits */
};

/* ---- the system (hooks; tests replace them) --------------------------- */

int sm_node_strong_count(bc_binder *b, uint32_t *ret)
{
	struct binder_node_info_for_ref info;
	uint32_t h;

	if (!bc_binder_is_remote(b) || bc_binder_get_handle(b, &h) < 0)
		return -EOPNOTSUPP; /* our own object: no node to count */
	memset(&info, 0, sizeof(info));
	info.handle = h;
	if (ioctl(bc_process_get_fd(bc_binder_get_process(b)), BINDER_GET_NODE_INFO_FOR_REF, &info) < 0)
		return -errno;
	*ret = info.strong_count;
	return 0;
}

extern char **environ;

int sm_spawn(const char *const *argv, pid_t *ret)
{
	posix_spawnattr_t at;
	sigset_t none, deflt;
	int r;

	/* The daemon blocks the signals its signalfd reads and ignores
	 * SIGPIPE; both would be inherited across exec.  A new session keeps
	 * the service out of our process group. */
	sigemptyset(&none);
	sigemptyset(&deflt);
	sigaddset(&deflt, SIGPIPE);
	sigaddset(&deflt, SIGTERM);
	sigaddset(&deflt, SIGINT);
	sigaddset(&deflt, SIGHUP);
	sigaddset(&deflt, SIGCHLD);
	r = posix_spawnattr_init(&at);
	if (r)
		return -r;
	r = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSID);
	if (r == 0)
		r = posix_spawnattr_setsigmask(&at, &none);
	if (r == 0)
		r = posix_spawnattr_setsigdefault(&at, &deflt);
	if (r == 0)
		r = posix_spawn(ret, argv[0], NULL, &at, (char *const *)argv, environ);
	posix_spawnattr_destroy(&at);
	return -r;
}

int64_t sm_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- client callbacks ------------------------------------------------- */

static void ccb_died(void *cookie);

static void ccb_free(struct sm_client_cb *c)
{
	bc_slot_unref(c->death); /* may be ccb_died() freeing it */
	bc_binder_unref(c->cb);
	free(c);
}

static void ccb_remove(struct sm_service *s, size_t i)
{
	struct sm_client_cb *c = s->ccbs[i];

	s->ccbs[i] = s->ccbs[--s->n_ccbs];
	ccb_free(c);
}

static void ccb_died(void *cookie)
{
	struct sm_client_cb *c = cookie;
	struct sm_service *s = c->svc;

	for (size_t i = 0; i < s->n_ccbs; i++) {
		if (s->ccbs[i] == c) {
			sm_log(SM_LOG_DEBUG, "client callback of '%s' died; removed", s->name);
			ccb_remove(s, i);
			return;
		}
	}
}

bool sm_is_lazy(const struct sm_service *s)
{
	return s && s->n_ccbs > 0;
}

int sm_add_client_callback(struct sm *sm, struct sm_service *s, bc_binder *cb, int wire, int partition)
{
	struct sm_client_cb *c, **nv;
	int r;

	if (s->n_ccbs >= SM_MAX_CLIENT_CALLBACKS)
		return -ENOSPC;
	nv = realloc(s->ccbs, (s->n_ccbs + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	s->ccbs = nv;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->cb = bc_binder_ref(cb);
	c->wire = wire;
	c->partition = partition;
	c->svc = s;
	if (bc_binder_is_remote(cb)) {
		r = bc_binder_link_to_death(cb, ccb_died, c, &c->death);
		if (r < 0) {
			bc_binder_unref(c->cb);
			free(c);
			return r;
		}
	}
	s->ccbs[s->n_ccbs++] = c;
	/* A client it was handed to before it became lazy, or one holding
	 * it now: told at once, as Android does on registration. */
	sm_check_clients(sm, s, false);
	return 0;
}

void sm_drop_client_callbacks(struct sm_service *s)
{
	while (s->n_ccbs)
		ccb_remove(s, s->n_ccbs - 1);
	free(s->ccbs);
	s->ccbs = NULL;
}

/* onClients(binder, has) to one callback (oneway). */
static int on_clients(bc_binder *cb, int wire, int partition, bc_binder *svc, bool has)
{
	bc_parcel *p;
	int r = bc_parcel_new(&p);

	if (r < 0)
		return r;
	r = bc_parcel_set_wire(p, wire, partition);
	if (r == 0)
		r = bc_parcel_write_interface_token(p, SM_CLIENT_CALLBACK_DESCRIPTOR);
	if (r == 0)
		r = bc_parcel_write_binder(p, svc);
	if (r == 0)
		r = bc_parcel_write_bool(p, has);
	if (r == 0)
		r = bc_binder_transact(cb, SM_CLIENT_CALLBACK_ON_CLIENTS, p, NULL, BINDERC_FLAG_ONEWAY, NULL);
	bc_parcel_unref(p);
	return r;
}

/* Tell every callback of @s that it has (or no longer has) clients.  The
 * calls are oneway, but the library may deliver a death notification
 * while one is sent, and that can free @s: work on copies, and drop dead
 * callbacks only after the last call, from the entry found again. */
static void tell(struct sm *sm, struct sm_service *s, bool has)
{
	struct sent {
		bc_binder *cb;
		int wire, partition;
		bool dead;
	};
	size_t n = s->n_ccbs;
	struct sent *v = calloc(n ? n : 1, sizeof(*v));
	bc_binder *svc = bc_binder_ref(s->binder);
	char *name = strdup(s->name);
	bool dead = false;

	sm_log(SM_LOG_INFO, "service '%s': %s clients", s->name, has ? "has" : "no more");
	s->has_clients = has;
	s->told = true;
	if (!v || !name) {
		free(v);
		free(name);
		bc_binder_unref(svc);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		v[i].cb = bc_binder_ref(s->ccbs[i]->cb);
		v[i].wire = s->ccbs[i]->wire;
		v[i].partition = s->ccbs[i]->partition;
	}
	for (size_t i = 0; i < n; i++) {
		int r = on_clients(v[i].cb, v[i].wire, v[i].partition, svc, has);

		v[i].dead = r == -EPIPE;
		dead |= r == -EPIPE;
		if (r < 0 && r != -EPIPE)
			sm_log(SM_LOG_WARNING, "telling '%s' about its clients: %s", name, strerror(-r));
	}
	s = dead ? sm_find(sm, name) : NULL;
	for (size_t i = 0; s && s->binder == svc && i < s->n_ccbs;) {
		size_t j = 0;

		while (j < n && !(v[j].dead && v[j].cb == s->ccbs[i]->cb))
			j++;
		if (j < n)
			ccb_remove(s, i);
		else
			i++;
	}
	for (size_t i = 0; i < n; i++)
		bc_binder_unref(v[i].cb);
	free(v);
	free(name);
	bc_binder_unref(svc);
}

/* The driver's strong count on @s's node less our own reference. */
static int count_others(struct sm *sm, struct sm_service *s, int *others)
{
	uint32_t count = 0;
	int r = sm->strong_count ? sm->strong_count(s->binder, &count) : -EOPNOTSUPP;

	if (r < 0)
		return r;
	*others = count > 1 ? (int)(count - 1) : 0;
	return 0;
}

/* What @others holders mean for a lazy @s: tell its callbacks when the
 * answer changed (see sm_check_clients). */
static void judge(struct sm *sm, struct sm_service *s, int others, bool periodic)
{
	/* A binder just handed out counts once even if the count does not
	 * show it (yet, or any more). */
	bool has = others > 0 || s->guarantee;

	s->guarantee = false;
	if (has != s->has_clients && (has || periodic))
		tell(sm, s, has);
}

int sm_check_clients(struct sm *sm, struct sm_service *s, bool periodic)
{
	int others = 0, r = count_others(sm, s, &others);

	if (r < 0)
		return r;
	if (sm_is_lazy(s))
		judge(sm, s, others, periodic);
	return others;
}

/*
 * The count also holds references that are the service's own.  Every
 * transaction buffer that carries the service's binder into its own
 * process adds one to the node (the driver's local strong count) until
 * that process frees the buffer -- and onClients(false) carries it.  A
 * service that unregisters when told "no clients" does so while that
 * buffer is in its hands: Android's LazyServiceRegistrar calls
 * tryUnregisterService from inside onClients, and a service that hands
 * the news to another thread races the pool thread's BC_FREE_BUFFER.  So
 * once the service was last told "no clients", each of its callbacks may
 * still hold that notification: up to n_ccbs holders are tolerated (a
 * callback in another process holds a reference of the same kind while it
 * is told).  Android tolerates one in every case; we tolerate none when
 * the service was told nothing or was last told "has clients", so a
 * service asking on its own while a client holds it is refused.
 */
int sm_may_unregister(struct sm *sm, struct sm_service *s)
{
	int others = 0, allowed = 0, r = count_others(sm, s, &others);

	if (r < 0)
		return r;
	if (sm_is_lazy(s) && s->told && !s->has_clients && !s->guarantee)
		allowed = (int)s->n_ccbs;
	if (others <= allowed)
		return 0;
	/* Refused: a lazy service that believed it had none is told
	 * otherwise now, and "no clients" again by a later periodic check. */
	if (sm_is_lazy(s))
		judge(sm, s, others, false);
	return -EBUSY;
}

void sm_handed_out(struct sm *sm, struct sm_service *s)
{
	/* Kept for a service that is not lazy yet: a client may get it
	 * between its addService and its registerClientCallback (always so
	 * when a start-command started it for that client), and the
	 * registration must then tell it "has clients", or it would never
	 * hear "no clients" once that client dropped it. */
	s->guarantee = true;
	if (sm_is_lazy(s))
		sm_check_clients(sm, s, false);
}

void sm_check_all_clients(struct sm *sm)
{
	/* Callbacks are oneway and touch no other entry, but take the names
	 * first anyway: nothing here may rely on the array staying put. */
	size_t n = 0;
	char **names = malloc((sm->n_svc + 1) * sizeof(*names));

	if (!names)
		return;
	for (size_t i = 0; i < sm->n_svc; i++)
		if (sm_is_lazy(sm->svc[i]) && (names[n] = strdup(sm->svc[i]->name)))
			n++;
	for (size_t i = 0; i < n; i++) {
		struct sm_service *s = sm_find(sm, names[i]);
		int r = s ? sm_check_clients(sm, s, true) : 0;

		if (r < 0 && r != -EOPNOTSUPP)
			sm_log(SM_LOG_DEBUG, "counting clients of '%s': %s", names[i], strerror(-r));
	}
	bc_strv_free(names, n);
}

/* ---- start-command ---------------------------------------------------- */

static struct sm_start *start_rec(struct sm *sm, const char *name, bool create)
{
	struct sm_start *nv;

	for (size_t i = 0; i < sm->n_starts; i++)
		if (strcmp(sm->starts[i].name, name) == 0)
			return &sm->starts[i];
	if (!create)
		return NULL;
	nv = realloc(sm->starts, (sm->n_starts + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	sm->starts = nv;
	memset(&nv[sm->n_starts], 0, sizeof(nv[0]));
	if (!(nv[sm->n_starts].name = strdup(name)))
		return NULL;
	return &sm->starts[sm->n_starts++];
}

static int run(struct sm *sm, struct sm_start *st, const char *const *argv)
{
	pid_t pid = 0;
	int r = sm->spawn ? sm->spawn(argv, &pid) : -EOPNOTSUPP;

	st->last_ms = sm->clock_ms ? sm->clock_ms() : 0;
	st->again = false;
	if (r < 0) {
		sm_log(SM_LOG_WARNING, "start-command of '%s' (%s): %s", st->name, argv[0], strerror(-r));
		return r;
	}
	st->pid = pid;
	sm_log(SM_LOG_INFO, "'%s' asked for: started %s (pid %d)", st->name, argv[0], (int)pid);
	return 0;
}

int sm_try_start(struct sm *sm, const char *name)
{
	const char *const *argv = sm_policy_start_command(sm->policy, name);
	struct sm_start *st;

	if (!argv)
		return -ENOENT;
	st = start_rec(sm, name, true);
	if (!st)
		return -ENOMEM;
	if (st->pid > 0) {
		/* Still running: maybe about to register, maybe on its way
		 * out after unregistering.  In the second case it must come
		 * back, so run it again once it has exited. */
		st->again = true;
		return -EALREADY;
	}
	/* Against a command that fails at once, and clients that keep
	 * asking for it. */
	if (st->last_ms && sm->clock_ms && sm->clock_ms() - st->last_ms < SM_START_INTERVAL_MS) {
		sm_log(SM_LOG_DEBUG, "'%s' asked for: started less than %d ms ago", name, SM_START_INTERVAL_MS);
		return -EAGAIN;
	}
	return run(sm, st, argv);
}

void sm_child_exited(struct sm *sm, pid_t pid, int status)
{
	for (size_t i = 0; i < sm->n_starts; i++) {
		struct sm_start *st = &sm->starts[i];
		const char *const *argv;

		if (st->pid != pid)
			continue;
		st->pid = 0;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			sm_log(SM_LOG_DEBUG, "start-command of '%s' (pid %d) exited", st->name, (int)pid);
		else
			sm_log(SM_LOG_NOTICE, "start-command of '%s' (pid %d) ended with status %#x", st->name,
			       (int)pid, (unsigned)status);
		argv = sm_policy_start_command(sm->policy, st->name);
		if (st->again && argv && !sm_find(sm, st->name))
			run(sm, st, argv);
		st->again = false;
		return;
	}
}

void sm_drop_starts(struct sm *sm)
{
	for (size_t i = 0; i < sm->n_starts; i++)
		free(sm->starts[i].name);
	free(sm->starts);
	sm->starts = NULL;
	sm->n_starts = 0;
}
