// SPDX-License-Identifier: MIT
/*
 * Host unit tests of lazy services in the service manager's core (no
 * kernel): registerClientCallback's checks, onClients as client counts
 * change, tryUnregisterService honouring them, isLazyService, and the
 * policy's start-command with its rate limit.  The driver's node count,
 * process spawning and the clock are replaced through struct sm's hooks;
 * local objects stand in for services and callbacks (calls to them run
 * in-process).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../servicemanager/sm.h"

void sm_log(int level, const char *fmt, ...)
{
	(void)level, (void)fmt;
}

/* ---- hooks ---------------------------------------------------------------- */

static uint32_t node_count = 1; /* the driver's strong count: 1 is ours */
static int node_err;		/* or this error */

static int fake_count(bc_binder *b, uint32_t *ret)
{
	(void)b;
	if (node_err)
		return node_err;
	*ret = node_count;
	return 0;
}

static int spawned;
static char spawned_argv[8][64];
static pid_t next_pid = 500;

static int fake_spawn(const char *const *argv, pid_t *ret)
{
	int i = 0;

	for (; argv[i]; i++) {
		cr_assert_lt(i, 7);
		snprintf(spawned_argv[i], sizeof(spawned_argv[i]), "%s", argv[i]);
	}
	snprintf(spawned_argv[i], sizeof(spawned_argv[i]), "(end)");
	spawned++;
	*ret = next_pid++;
	return 0;
}

static int64_t clock_now = 100000;

static int64_t fake_clock(void)
{
	return clock_now;
}

static struct sm *new_sm(const char *policy_text)
{
	static struct sm sm;
	struct sm_policy *p = NULL;
	char err[256];

	cr_assert_eq(sm_policy_parse(policy_text, "test", &p, err, sizeof(err)), 0, "%s", err);
	sm_init(&sm, p);
	sm.strong_count = fake_count;
	sm.spawn = fake_spawn;
	sm.clock_ms = fake_clock;
	node_count = 1;
	node_err = 0;
	spawned = 0;
	return &sm;
}

/* ---- objects ---------------------------------------------------------------- */

static bc_binder *new_object(const char *desc, bc_transact_fn fn, void *ud)
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new(desc, fn, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, ud, &b), 0);
	bc_class_unref(cls);
	return b;
}

static int svc_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

/* What one IClientCallback was told. */
struct told {
	int count;
	bool last;
	bc_binder *binder;
};

static int ccb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	struct told *t = ud;
	bc_binder *b = NULL;
	bool has = false;

	(void)self, (void)reply;
	cr_assert_eq(code, SM_CLIENT_CALLBACK_ON_CLIENTS);
	cr_assert(bc_txn_get_flags(txn) & BINDERC_FLAG_ONEWAY);
	cr_assert_eq(bc_parcel_enforce_interface(in, SM_CLIENT_CALLBACK_DESCRIPTOR), 0);
	cr_assert_eq(bc_parcel_read_binder(in, &b), 0);
	cr_assert_eq(bc_parcel_read_bool(in, &has), 0);
	cr_expect_eq(bc_parcel_remaining(in), 0);
	t->count++;
	t->last = has;
	t->binder = b;
	bc_binder_unref(b);
	return 0;
}

/* ---- requests ------------------------------------------------------------------ */

static bc_parcel *req(void)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_SYSTEM), 0);
	cr_assert_eq(bc_parcel_write_interface_token(p, SM_DESCRIPTOR), 0);
	return p;
}

/* Run @in as @code from @uid/@pid; returns the exception code, and the
 * reply positioned after it in *@reply when @reply is not NULL. */
static int32_t call(struct sm *sm, uid_t uid, pid_t pid, uint32_t code, bc_parcel *in, bc_parcel **reply)
{
	struct sm_caller c;
	bc_parcel *r = NULL;
	int32_t ex = 0x7eadbeef;

	cr_assert_eq(bc_parcel_new(&r), 0);
	sm_caller_init(&c, uid, pid);
	cr_assert_eq(sm_handle(sm, &c, code, in, r), 0);
	bc_parcel_unref(in);
	bc_parcel_set_position(r, 0);
	cr_assert_eq(bc_parcel_read_int32(r, &ex), 0);
	if (reply)
		*reply = r;
	else
		bc_parcel_unref(r);
	return ex;
}

static int32_t add(struct sm *sm, pid_t pid, const char *name, bc_binder *b)
{
	bc_parcel *in = req();

	bc_parcel_write_string16(in, name);
	bc_parcel_write_binder(in, b);
	bc_parcel_write_bool(in, false);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_DEFAULT);
	return call(sm, 0, pid, SM_AIDL_ADD_SERVICE, in, NULL);
}

static int32_t register_ccb(struct sm *sm, uid_t uid, pid_t pid, const char *name, bc_binder *svc, bc_binder *cb)
{
	bc_parcel *in = req();

	bc_parcel_write_string16(in, name);
	bc_parcel_write_binder(in, svc);
	bc_parcel_write_binder(in, cb);
	return call(sm, uid, pid, SM_AIDL_REGISTER_CLIENT_CALLBACK, in, NULL);
}

static int32_t try_unregister(struct sm *sm, pid_t pid, const char *name, bc_binder *svc)
{
	bc_parcel *in = req();

	bc_parcel_write_string16(in, name);
	bc_parcel_write_binder(in, svc);
	return call(sm, 0, pid, SM_AIDL_TRY_UNREGISTER_SERVICE, in, NULL);
}

/* get (SM_AIDL_GET_SERVICE) or check; returns whether a binder came back. */
static bool lookup(struct sm *sm, uint32_t code, const char *name)
{
	bc_parcel *in = req(), *reply;
	bc_binder *b = NULL;

	bc_parcel_write_string16(in, name);
	cr_assert_eq(call(sm, 1000, 77, code, in, &reply), 0);
	cr_assert_eq(bc_parcel_read_binder(reply, &b), 0);
	bc_parcel_unref(reply);
	bc_binder_unref(b);
	return b != NULL;
}

/* Android 16's getService2 (code 2): the Service union's isLazyService. */
static bool is_lazy_service(struct sm *sm, const char *name)
{
	bc_parcel *in = req(), *reply;
	bc_binder *b = NULL;
	int32_t v;
	size_t end;
	bool lazy = false;

	sm->release = 16;
	bc_parcel_write_string16(in, name);
	cr_assert_eq(call(sm, 1000, 77, 2, in, &reply), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 1); /* non-null */
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 0); /* tag: serviceWithMetadata */
	cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
	cr_assert_eq(v, 1);
	cr_assert_eq(bc_parcel_enter_parcelable(reply, &end), 0);
	cr_assert_eq(bc_parcel_read_binder(reply, &b), 0);
	cr_assert_not_null(b);
	cr_assert_eq(bc_parcel_read_bool(reply, &lazy), 0);
	cr_assert_eq(bc_parcel_exit_parcelable(reply, end), 0);
	bc_binder_unref(b);
	bc_parcel_unref(reply);
	sm->release = 0;
	return lazy;
}

/* ---- client callbacks ---------------------------------------------------------- */

Test(client_callback, who_may_register)
{
	struct sm *sm = new_sm("allow add lazy.* uid:1000\n");
	struct told t = { 0 };
	bc_binder *a = new_object("t.IA", svc_transact, NULL), *b = new_object("t.IA", svc_transact, NULL);
	bc_binder *cb = new_object(SM_CLIENT_CALLBACK_DESCRIPTOR, ccb_transact, &t);

	cr_assert_eq(add(sm, 1234, "lazy.a", a), 0);
	cr_expect_eq(register_ccb(sm, 1000, 1234, "lazy.a", a, NULL), BINDERC_EX_NULL_POINTER);
	cr_expect_eq(register_ccb(sm, 1000, 1234, "bad name", a, cb), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_eq(register_ccb(sm, 2000, 1234, "lazy.a", a, cb), BINDERC_EX_SECURITY);
	cr_expect_eq(register_ccb(sm, 1000, 1234, "lazy.none", a, cb), BINDERC_EX_ILLEGAL_ARGUMENT);
	/* only the registering process, naming the registered binder */
	cr_expect_eq(register_ccb(sm, 1000, 999, "lazy.a", a, cb), BINDERC_EX_UNSUPPORTED_OPERATION);
	cr_expect_eq(register_ccb(sm, 1000, 1234, "lazy.a", b, cb), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect(!sm_is_lazy(sm_find(sm, "lazy.a")));
	cr_expect(!is_lazy_service(sm, "lazy.a"));
	/* handed out (just now) before it became lazy: told at once */
	cr_expect_eq(register_ccb(sm, 1000, 1234, "lazy.a", a, cb), 0);
	cr_expect_eq(t.count, 1, "registering after a lookup tells 'has clients'");
	cr_expect(t.last);
	cr_expect(is_lazy_service(sm, "lazy.a"));
	cr_expect_eq(t.count, 1, "nothing new");
	/* a bounded number per service */
	for (int i = 1; i < SM_MAX_CLIENT_CALLBACKS; i++)
		cr_expect_eq(register_ccb(sm, 1000, 1234, "lazy.a", a, cb), 0);
	cr_expect_eq(register_ccb(sm, 1000, 1234, "lazy.a", a, cb), BINDERC_EX_SERVICE_SPECIFIC);
	/* re-registering the name drops them with the old entry */
	cr_assert_eq(add(sm, 1234, "lazy.a", b), 0);
	cr_expect(!sm_is_lazy(sm_find(sm, "lazy.a")));
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(b);
	bc_binder_unref(cb);
}

Test(client_callback, told_as_counts_change)
{
	struct sm *sm = new_sm("");
	struct told t = { 0 };
	bc_binder *a = new_object("t.IA", svc_transact, NULL);
	bc_binder *cb = new_object(SM_CLIENT_CALLBACK_DESCRIPTOR, ccb_transact, &t);

	cr_assert_eq(add(sm, 1234, "lazy", a), 0);
	cr_assert_eq(register_ccb(sm, 0, 1234, "lazy", a, cb), 0);
	/* nobody holds it: the periodic check has nothing to say */
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 0);
	/* handed out: "has clients" at once, even before the count shows it */
	cr_assert(lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(t.count, 1);
	cr_expect(t.last);
	cr_expect_eq(t.binder, a);
	/* the client holds it: nothing new */
	node_count = 2;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 1);
	/* a second client's lookup: still nothing new */
	cr_assert(lookup(sm, SM_AIDL_CHECK_SERVICE, "lazy"));
	node_count = 3;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 1);
	/* both gone (a client died): told at the next periodic check */
	node_count = 1;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 2);
	cr_expect(!t.last);
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 2);
	/* a client that drops it before the next check: true, then false */
	cr_assert(lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(t.count, 3);
	cr_expect(t.last);
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 4);
	cr_expect(!t.last);
	/* a holder the service manager did not hand it to (passed on by a
	 * client): found by the periodic check */
	node_count = 2;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 5);
	cr_expect(t.last);
	/* the driver cannot count: nothing is told */
	node_err = -EINVAL;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 5);
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(cb);
}

Test(client_callback, try_unregister_honours_clients)
{
	struct sm *sm = new_sm("");
	struct told t = { 0 };
	bc_binder *a = new_object("t.IA", svc_transact, NULL), *b = new_object("t.IA", svc_transact, NULL);
	bc_binder *cb = new_object(SM_CLIENT_CALLBACK_DESCRIPTOR, ccb_transact, &t);

	cr_assert_eq(add(sm, 1234, "lazy", a), 0);
	cr_assert_eq(register_ccb(sm, 0, 1234, "lazy", a, cb), 0);
	cr_expect_eq(try_unregister(sm, 999, "lazy", a), BINDERC_EX_UNSUPPORTED_OPERATION);
	cr_expect_eq(try_unregister(sm, 1234, "lazy", b), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_eq(try_unregister(sm, 1234, "none", a), BINDERC_EX_ILLEGAL_STATE);
	/* a client holds it: refused, and the service, which believed it had
	 * none, is told otherwise */
	node_count = 2;
	cr_expect_eq(try_unregister(sm, 1234, "lazy", a), BINDERC_EX_ILLEGAL_STATE);
	cr_expect_not_null(sm_find(sm, "lazy"));
	cr_expect_eq(t.count, 1);
	cr_expect(t.last);
	/* cannot count: refused (assume clients, as Android) */
	node_err = -ENOTTY;
	cr_expect_eq(try_unregister(sm, 1234, "lazy", a), BINDERC_EX_ILLEGAL_STATE);
	cr_expect_not_null(sm_find(sm, "lazy"));
	node_err = 0;
	/* the client is gone */
	node_count = 1;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 2);
	cr_expect(!t.last);
	/* told "no clients": the service may still hold that notification
	 * (one reference per callback) while it asks, but not more: refused,
	 * told "has clients", then "no clients" again */
	node_count = 3;
	cr_expect_eq(try_unregister(sm, 1234, "lazy", a), BINDERC_EX_ILLEGAL_STATE);
	cr_expect_eq(t.count, 3);
	cr_expect(t.last);
	node_count = 2; /* a client, or the notification: not told yet */
	cr_expect_eq(try_unregister(sm, 1234, "lazy", a), BINDERC_EX_ILLEGAL_STATE);
	cr_expect_eq(t.count, 3);
	node_count = 1;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 4);
	cr_expect(!t.last);
	node_count = 2;
	cr_expect_eq(try_unregister(sm, 1234, "lazy", a), 0);
	cr_expect_null(sm_find(sm, "lazy"));
	/* also for a service without client callbacks, which is told
	 * nothing and so holds nothing of ours */
	cr_assert_eq(add(sm, 1234, "plain", a), 0);
	node_count = 2;
	cr_expect_eq(try_unregister(sm, 1234, "plain", a), BINDERC_EX_ILLEGAL_STATE);
	node_count = 1;
	cr_expect_eq(try_unregister(sm, 1234, "plain", a), 0);
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(b);
	bc_binder_unref(cb);
}

/*
 * A service started for a client is handed to it between its addService
 * and its registerClientCallback.  It must still be told "has clients"
 * (at registration) and "no clients" once that client let go, or it would
 * never learn it may go.
 */
Test(client_callback, handed_out_before_registration)
{
	struct sm *sm = new_sm("");
	struct told t = { 0 };
	bc_binder *a = new_object("t.IA", svc_transact, NULL);
	bc_binder *cb = new_object(SM_CLIENT_CALLBACK_DESCRIPTOR, ccb_transact, &t);

	cr_assert_eq(add(sm, 1234, "lazy", a), 0);
	cr_assert(lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	/* the client let go already */
	cr_assert_eq(register_ccb(sm, 0, 1234, "lazy", a, cb), 0);
	cr_expect_eq(t.count, 1);
	cr_expect(t.last);
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 2);
	cr_expect(!t.last);
	/* answered from inside onClients: the notification's own reference */
	node_count = 2;
	cr_expect_eq(try_unregister(sm, 1234, "lazy", a), 0);
	cr_expect_null(sm_find(sm, "lazy"));
	/* a service never told anything is not given that allowance */
	cr_assert_eq(add(sm, 1234, "lazy", a), 0);
	cr_assert_eq(register_ccb(sm, 0, 1234, "lazy", a, cb), 0);
	cr_expect_eq(t.count, 3, "a client holds it at registration: told at once");
	node_count = 1;
	sm_check_all_clients(sm);
	cr_expect_eq(t.count, 4);
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(cb);
}

/* ---- start-command --------------------------------------------------------------- */

Test(start_command, policy_syntax)
{
	struct sm_policy *p = NULL;
	const char *const *argv;
	char err[256];

	cr_assert_eq(sm_policy_parse("start-command lazy.x /usr/bin/svc --name lazy.x\n"
				     "start-command other /bin/true\n",
				     "t", &p, err, sizeof(err)),
		     0, "%s", err);
	argv = sm_policy_start_command(p, "lazy.x");
	cr_assert_not_null(argv);
	cr_expect_str_eq(argv[0], "/usr/bin/svc");
	cr_expect_str_eq(argv[1], "--name");
	cr_expect_str_eq(argv[2], "lazy.x");
	cr_expect_null(argv[3]);
	cr_expect_null(sm_policy_start_command(p, "lazy"));
	cr_expect_null(sm_policy_start_command(p, "lazy.*"));
	cr_expect_not_null(sm_policy_start_command(p, "other"));
	sm_policy_free(p);

	cr_expect_eq(sm_policy_parse("start-command lazy.x\n", "t", &p, err, sizeof(err)), -EINVAL);
	cr_expect_eq(sm_policy_parse("start-command lazy.x bin/svc\n", "t", &p, err, sizeof(err)), -EINVAL);
	cr_expect_eq(sm_policy_parse("start-command lazy* /bin/svc\n", "t", &p, err, sizeof(err)), -EINVAL);
	cr_expect_eq(sm_policy_parse("start-command a /bin/a\nstart-command a /bin/b\n", "t", &p, err, sizeof(err)),
		     -EINVAL);
	cr_expect(strstr(err, "t:2:") == err, "%s", err);
}

Test(start_command, started_on_get_rate_limited)
{
	struct sm *sm = new_sm("start-command lazy /sbin/lazyd -f\n"
			       "start-command hidden /sbin/hidden\n"
			       "deny find hidden uid:1000\n");
	bc_binder *a = new_object("t.IA", svc_transact, NULL);

	/* checkService never starts anything */
	cr_expect(!lookup(sm, SM_AIDL_CHECK_SERVICE, "lazy"));
	cr_expect_eq(spawned, 0);
	/* getService does, and still answers null at once */
	cr_expect(!lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(spawned, 1);
	cr_expect_str_eq(spawned_argv[0], "/sbin/lazyd");
	cr_expect_str_eq(spawned_argv[1], "-f");
	cr_expect_str_eq(spawned_argv[2], "(end)");
	/* while it runs: not again, but once more after it exits (it may
	 * have been on its way out) */
	cr_expect(!lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(spawned, 1);
	sm_child_exited(sm, 500, 0);
	cr_expect_eq(spawned, 2);
	/* exited without being asked for again: nothing */
	sm_child_exited(sm, 501, 0);
	cr_expect_eq(spawned, 2);
	/* at most once per SM_START_INTERVAL_MS */
	cr_expect(!lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(spawned, 2);
	clock_now += SM_START_INTERVAL_MS;
	cr_expect(!lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(spawned, 3);
	/* registered: found, nothing started; the exit of its command then
	 * starts nothing either */
	cr_assert_eq(add(sm, 1234, "lazy", a), 0);
	cr_expect(lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	sm_child_exited(sm, 502, 0);
	clock_now += SM_START_INTERVAL_MS;
	cr_expect(lookup(sm, SM_AIDL_GET_SERVICE, "lazy"));
	cr_expect_eq(spawned, 3);
	/* no start-command, or a caller that may not find the name */
	cr_expect(!lookup(sm, SM_AIDL_GET_SERVICE, "other"));
	cr_expect(!lookup(sm, SM_AIDL_GET_SERVICE, "hidden"));
	cr_expect_eq(spawned, 3);
	sm_fini(sm);
	bc_binder_unref(a);
}

Test(start_command, legacy_get_starts)
{
	struct sm *sm = new_sm("start-command lazy /sbin/lazyd\n");
	bc_parcel *p = NULL, *r = NULL;
	struct sm_caller c;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, BINDERC_WIRE_ANDROID_10, BINDERC_PARTITION_SYSTEM), 0);
	cr_assert_eq(bc_parcel_write_interface_token(p, SM_DESCRIPTOR), 0);
	bc_parcel_write_string16(p, "lazy");
	cr_assert_eq(bc_parcel_new(&r), 0);
	sm_caller_init(&c, 0, 1);
	cr_assert_eq(sm_handle(sm, &c, SM_LEGACY_GET, p, r), 0);
	cr_expect_eq(spawned, 1);
	bc_parcel_unref(p);
	bc_parcel_unref(r);
	sm_fini(sm);
}

/* The real spawn: no shell, signals as a fresh process has them. */
Test(start_command, real_spawn)
{
	const char *const argv[] = { "/bin/sh", "-c", "grep -q '^SigBlk:[[:space:]]*0*$' /proc/self/status && exit 7",
				     NULL };
	const char *const missing[] = { "/nonexistent/lazyd", NULL };
	sigset_t set, old;
	pid_t pid = 0;
	int st = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	cr_assert_eq(sm_spawn(argv, &pid), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);
	cr_assert_gt(pid, 0);
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 7, "status %#x: signals still blocked?", st);
	/* glibc reports a failed exec as the spawn's error, or as exit 127 */
	pid = 0;
	if (sm_spawn(missing, &pid) == 0) {
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 127);
	}
}

/* getService2 starts the absent service as getService does; checkService2
 * does not (Android 16 numbering: 2 getService2, 4 checkService2). */
Test(start_command, get_service2_starts_check_service2_does_not)
{
	struct sm *sm = new_sm("start-command lazy /sbin/lazyd\nandroid-release 16\n");
	int32_t v;

	for (uint32_t code = 4; code >= 2; code -= 2) {
		bc_parcel *in = req(), *reply;

		bc_parcel_write_string16(in, "lazy");
		cr_assert_eq(call(sm, 1000, 77, code, in, &reply), BINDERC_EX_NONE);
		cr_assert_eq(bc_parcel_read_int32(reply, &v), 0);
		cr_expect_eq(v, 1, "a Service union follows");
		bc_parcel_unref(reply);
		cr_expect_eq(spawned, code == 4 ? 0 : 1, "after code %u", code);
	}
	sm_fini(sm);
}
