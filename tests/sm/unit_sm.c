// SPDX-License-Identifier: MIT
/*
 * Host unit tests of the service manager's core (no kernel): the policy
 * parser, dialect detection and every method of both dialects, driven with
 * parcels built in memory and local objects standing in for services and
 * callbacks (calls to local objects run in-process).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../servicemanager/sm.h"

static char last_log[512];

void sm_log(int level, const char *fmt, ...)
{
	va_list ap;

	(void)level;
	va_start(ap, fmt);
	vsnprintf(last_log, sizeof(last_log), fmt, ap);
	va_end(ap);
}

/* ---- helpers ----------------------------------------------------------- */

static bc_class *svc_class;

static int echo_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)in, (void)ud;
	return bc_parcel_write_uint32(reply, code);
}

static bc_binder *new_service(void)
{
	bc_binder *b = NULL;

	if (!svc_class)
		cr_assert_eq(bc_class_new("org.binderc.test.IEcho", echo_transact, NULL, 0, &svc_class), 0);
	cr_assert_eq(bc_binder_new(svc_class, NULL, &b), 0);
	return b;
}

/* The driver's count on a service's node: here, our reference only (no
 * clients), so tryUnregisterService succeeds; unit_lazy covers the rest. */
static int no_clients(bc_binder *b, uint32_t *ret)
{
	(void)b;
	*ret = 1;
	return 0;
}

static struct sm *new_sm(const char *policy_text)
{
	static struct sm sm;
	struct sm_policy *p = NULL;
	char err[256];

	if (policy_text)
		cr_assert_eq(sm_policy_parse(policy_text, "test", &p, err, sizeof(err)), 0, "%s", err);
	else
		cr_assert_eq(sm_policy_new_default(&p), 0);
	sm_init(&sm, p);
	sm.strong_count = no_clients;
	return &sm;
}

/* A request in a dialect: 9 and 10 are legacy headers, 13 the AIDL one. */
static bc_parcel *req(int wire)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, wire, BINDERC_PARTITION_SYSTEM), 0);
	cr_assert_eq(bc_parcel_write_interface_token(p, SM_DESCRIPTOR), 0);
	return p;
}

/* Run @code from @uid; returns the handler's result, *@reply positioned
 * at 0 and in the request's wire. */
static int call(struct sm *sm, uid_t uid, uint32_t code, bc_parcel *in, bc_parcel **reply)
{
	struct sm_caller c;
	bc_parcel *r = NULL;
	int ret;

	cr_assert_eq(bc_parcel_new(&r), 0);
	sm_caller_init(&c, uid, 1234);
	ret = sm_handle(sm, &c, code, in, r);
	bc_parcel_unref(in);
	bc_parcel_set_position(r, 0);
	*reply = r;
	return ret;
}

static int32_t read_i32(bc_parcel *p)
{
	int32_t v = 0x7eadbeef;

	cr_assert_eq(bc_parcel_read_int32(p, &v), 0);
	return v;
}

static int legacy_add(struct sm *sm, int wire, uid_t uid, const char *name, bc_binder *b)
{
	bc_parcel *in = req(wire), *reply;
	int r;

	bc_parcel_write_string16(in, name);
	bc_parcel_write_binder(in, b);
	bc_parcel_write_int32(in, 0);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_DEFAULT);
	r = call(sm, uid, SM_LEGACY_ADD, in, &reply);
	if (r == 0)
		cr_expect_eq(read_i32(reply), 0);
	bc_parcel_unref(reply);
	return r;
}

/* AIDL add: returns the exception code (or the handler's error). */
static int aidl_add(struct sm *sm, uid_t uid, const char *name, bc_binder *b, int32_t prio)
{
	bc_parcel *in = req(BINDERC_WIRE_ANDROID_13), *reply;
	int r;

	bc_parcel_write_string16(in, name);
	bc_parcel_write_binder(in, b);
	bc_parcel_write_bool(in, false);
	bc_parcel_write_int32(in, prio);
	r = call(sm, uid, SM_AIDL_ADD_SERVICE, in, &reply);
	if (r == 0)
		r = read_i32(reply);
	bc_parcel_unref(reply);
	return r;
}

/* Lookup by @code in @wire's dialect; returns the binder (NULL if none). */
static bc_binder *lookup(struct sm *sm, int wire, uid_t uid, uint32_t code, const char *name)
{
	bc_parcel *in = req(wire), *reply;
	bc_binder *b = NULL;

	bc_parcel_write_string16(in, name);
	cr_assert_eq(call(sm, uid, code, in, &reply), 0);
	if (wire == BINDERC_WIRE_ANDROID_13)
		cr_assert_eq(read_i32(reply), BINDERC_EX_NONE);
	cr_assert_eq(bc_parcel_read_binder(reply, &b), 0);
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_parcel_unref(reply);
	if (b)
		bc_binder_unref(b); /* the registry still holds it */
	return b;
}

/* ---- names and policy ---------------------------------------------------- */

Test(names, validity)
{
	char long_name[SM_NAME_MAX + 2];

	cr_expect(sm_name_is_valid("a"));
	cr_expect(sm_name_is_valid("android.hardware.foo.IFoo/default"));
	cr_expect(sm_name_is_valid("a-b_c.d"));
	cr_expect(!sm_name_is_valid(""));
	cr_expect(!sm_name_is_valid(NULL));
	cr_expect(!sm_name_is_valid("a b"));
	cr_expect(!sm_name_is_valid("a\nb"));
	cr_expect(!sm_name_is_valid("caf\xc3\xa9"));
	memset(long_name, 'x', sizeof(long_name));
	long_name[SM_NAME_MAX] = '\0';
	cr_expect(sm_name_is_valid(long_name));
	long_name[SM_NAME_MAX] = 'x';
	long_name[SM_NAME_MAX + 1] = '\0';
	cr_expect(!sm_name_is_valid(long_name));
}

static bool allows(const struct sm_policy *p, unsigned act, const char *name, uid_t uid)
{
	struct sm_caller c;

	sm_caller_init(&c, uid, 1);
	return sm_policy_allows(p, act, name, &c);
}

Test(policy, defaults)
{
	struct sm_policy *p;

	cr_assert_eq(sm_policy_new_default(&p), 0);
	cr_expect(!sm_policy_uses_groups(p));
	cr_expect(allows(p, SM_ACT_ADD, "x", 0));
	cr_expect(!allows(p, SM_ACT_ADD, "x", 1000));
	cr_expect(allows(p, SM_ACT_FIND, "x", 1000));
	cr_expect(allows(p, SM_ACT_FIND, "x", 65534));
	cr_expect(!sm_policy_is_declared(p, "x"));
	cr_expect(sm_policy_is_isolated(p, 99000));
	cr_expect(!sm_policy_is_isolated(p, 1000));
	cr_expect_eq(sm_policy_limits(p)->max_services, 4096);
	sm_policy_free(p);
}

Test(policy, rules_first_match_wins)
{
	struct sm_policy *p;
	char err[256];
	const char *text = "# comment\n"
			   "\n"
			   "deny  find secret.*   *          # trailing comment\n"
			   "allow add  user.*     uid:1000 uid:1001\n"
			   "deny  add  user.x     uid:1000\n" /* shadowed by the rule above */
			   "allow add,find app/*  gid:65534\n"
			   "deny  add  *          root\n"
			   "declare org.ex.IFoo/default\n"
			   "declare org.ex.IFoo/other\n"
			   "declare org.ex.IBar/default\n"
			   "max-services-per-uid 3\n"
			   "isolated-uids 5000-5999\n";

	cr_assert_eq(sm_policy_parse(text, "t", &p, err, sizeof(err)), 0, "%s", err);
	cr_expect(!allows(p, SM_ACT_FIND, "secret.key", 0));
	cr_expect(allows(p, SM_ACT_FIND, "secretary", 0));
	cr_expect(allows(p, SM_ACT_ADD, "user.x", 1000));
	cr_expect(allows(p, SM_ACT_ADD, "user.y", 1001));
	cr_expect(!allows(p, SM_ACT_ADD, "user.y", 1002));
	cr_expect(allows(p, SM_ACT_ADD, "app/thing", 65534)); /* nobody is in nogroup (65534) */
	cr_expect(!allows(p, SM_ACT_ADD, "anything", 0));     /* root denied explicitly */
	cr_expect(sm_policy_is_declared(p, "org.ex.IFoo/default"));
	cr_expect(!sm_policy_is_declared(p, "org.ex.IFoo"));
	cr_expect_eq(sm_policy_limits(p)->max_services_per_uid, 3);
	cr_expect(sm_policy_is_isolated(p, 5000) && sm_policy_is_isolated(p, 5999) && !sm_policy_is_isolated(p, 99000));
	{
		char **v = NULL;
		size_t n = 0;

		cr_assert_eq(sm_policy_declared_instances(p, "org.ex.IFoo", &v, &n), 0);
		cr_assert_eq(n, 2);
		cr_expect_str_eq(v[0], "default");
		cr_expect_str_eq(v[1], "other");
		bc_strv_free(v, n);
		cr_assert_eq(sm_policy_declared_instances(p, "org.ex", &v, &n), 0);
		cr_expect_eq(n, 0);
		bc_strv_free(v, n);
	}
	sm_policy_free(p);
}

Test(policy, gid_from_user_database)
{
	struct sm_policy *p;
	struct sm_caller c;
	char err[256];

	/* root's primary group is 0 everywhere. */
	cr_assert_eq(sm_policy_parse("allow add only.gid0 gid:0\ndeny add * *\n", "t", &p, err, sizeof(err)), 0,
		     "%s", err);
	cr_expect(sm_policy_uses_groups(p));
	sm_caller_init(&c, 0, 1);
	cr_expect(c.n_gids >= 1);
	cr_expect(sm_policy_allows(p, SM_ACT_ADD, "only.gid0", &c));
	cr_expect(!sm_policy_allows(p, SM_ACT_ADD, "other", &c));
	/* A uid without an entry has no groups. */
	sm_caller_init(&c, 4000000000u, 1);
	cr_expect_eq(c.n_gids, 0);
	cr_expect(!sm_policy_allows(p, SM_ACT_ADD, "only.gid0", &c));
	sm_policy_free(p);
}

Test(policy, syntax_errors_name_the_line)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "allow add\n", "t:1: usage" },
		{ "\nallow frob x *\n", "t:2: unknown action" },
		{ "allow add x uid:abc\n", "t:1: bad id" },
		{ "allow add x someone\n", "t:1: bad principal" },
		{ "allow add x user:no-such-user-here\n", "t:1: unknown user" },
		{ "allow add x group:no-such-group-here\n", "t:1: unknown group" },
		{ "declare\n", "t:1: usage: declare" },
		{ "declare bad name\n", "t:1: usage: declare" },
		{ "declare a.IX/d port\n", "t:1: usage: declare" },
		{ "declare a.IX/d colour blue\n", "t:1: usage: declare" },
		{ "declare a.IX/d updatable-via-apex com/x\n", "t:1: bad APEX name" },
		{ "declare a.IX/d ip 10.0.0.300 port 1\n", "t:1: bad IP address" },
		{ "declare a.IX/d ip ::1 port 65536\n", "t:1: bad port" },
		{ "declare a.IX/d ip ::1 port 0\n", "t:1: bad port" },
		{ "declare a.IX/d ip ::1\n", "t:1: ip and port go together" },
		{ "declare a.IX/d port 1\n", "t:1: ip and port go together" },
		{ "declare a.IX/d\ndeclare a.IX/d\n", "t:2: 'a.IX/d' is declared twice" },
		{ "max-services lots\n", "t:1: usage: max-services" },
		{ "max-services 99999999\n", "t:1: usage: max-services" },
		{ "isolated-uids 9-3\n", "t:1: bad uid range" },
		{ "frobnicate\n", "t:1: unknown statement" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sm_policy *p = NULL;
		char err[256];

		cr_expect_eq(sm_policy_parse(bad[i].text, "t", &p, err, sizeof(err)), -EINVAL, "%s", bad[i].text);
		cr_expect(strncmp(err, bad[i].msg, strlen(bad[i].msg)) == 0, "'%s' gave '%s'", bad[i].text, err);
		cr_expect_null(p);
	}
}

Test(policy, load_file)
{
	char path[] = "/tmp/sm-policy-XXXXXX";
	struct sm_policy *p = NULL;
	char err[256];
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("allow add x.* uid:7\n", f);
	fclose(f);
	cr_assert_eq(sm_policy_load(path, &p, err, sizeof(err)), 0, "%s", err);
	cr_expect(allows(p, SM_ACT_ADD, "x.y", 7));
	sm_policy_free(p);
	unlink(path);
	cr_expect_eq(sm_policy_load(path, &p, err, sizeof(err)), -ENOENT);
}

/* ---- header detection ------------------------------------------------- */

static int detect(const void *data, size_t n, struct sm_header *h)
{
	bc_parcel *p = NULL;
	int r;

	cr_assert_eq(bc_parcel_new_from_data(data, n, NULL, 0, &p), 0);
	r = sm_read_header(p, h);
	bc_parcel_unref(p);
	return r;
}

Test(header, each_dialect)
{
	static const int wires[] = { BINDERC_WIRE_ANDROID_9, BINDERC_WIRE_ANDROID_10, BINDERC_WIRE_ANDROID_11,
		BINDERC_WIRE_ANDROID_12, BINDERC_WIRE_ANDROID_13 };

	for (size_t i = 0; i < sizeof(wires) / sizeof(wires[0]); i++) {
		for (int part = BINDERC_PARTITION_SYSTEM; part <= BINDERC_PARTITION_VENDOR; part++) {
			bc_parcel *p = NULL;
			struct sm_header h;

			cr_assert_eq(bc_parcel_new(&p), 0);
			bc_parcel_set_wire(p, wires[i], part);
			bc_parcel_write_interface_token(p, SM_DESCRIPTOR);
			bc_parcel_write_int32(p, 42);
			cr_assert_eq(detect(bc_parcel_data(p), bc_parcel_size(p), &h), 0, "wire %d", wires[i]);
			cr_expect_eq(h.dialect, wires[i] >= BINDERC_WIRE_ANDROID_11 ? BINDERC_SM_DIALECT_AIDL : BINDERC_SM_DIALECT_LEGACY);
			if (wires[i] >= BINDERC_WIRE_ANDROID_11)
				cr_expect_eq(h.partition, part);
			else
				cr_expect_eq(h.wire, wires[i]);
			bc_parcel_unref(p);
		}
	}
}

Test(header, worksource_26_is_not_android_9)
{
	/* Android 10 form whose work source happens to be 26, the length of
	 * the descriptor. */
	bc_parcel *p = NULL;
	struct sm_header h;

	cr_assert_eq(bc_parcel_new(&p), 0);
	bc_parcel_write_int32(p, 0x400000);
	bc_parcel_write_int32(p, 26);
	bc_parcel_write_string16(p, SM_DESCRIPTOR);
	cr_assert_eq(detect(bc_parcel_data(p), bc_parcel_size(p), &h), 0);
	cr_expect_eq(h.wire, BINDERC_WIRE_ANDROID_10);
	bc_parcel_unref(p);
}

Test(header, malformed)
{
	static const uint8_t empty[1] = { 0 };
	uint8_t buf[64];
	bc_parcel *p = NULL;
	struct sm_header h;

	cr_expect_eq(detect(empty, 0, &h), -EBADMSG);
	memset(buf, 0xff, sizeof(buf));
	cr_expect_eq(detect(buf, sizeof(buf), &h), -EBADMSG);
	memset(buf, 0, sizeof(buf));
	cr_expect_eq(detect(buf, 4, &h), -EBADMSG);

	/* Truncated descriptor, at every length. */
	cr_assert_eq(bc_parcel_new(&p), 0);
	bc_parcel_set_wire(p, BINDERC_WIRE_ANDROID_13, BINDERC_PARTITION_SYSTEM);
	bc_parcel_write_interface_token(p, SM_DESCRIPTOR);
	for (size_t n = 0; n + 4 <= bc_parcel_size(p); n += 4)
		cr_expect_eq(detect(bc_parcel_data(p), n, &h), -EBADMSG, "length %zu", n);
	bc_parcel_unref(p);

	/* Another interface. */
	cr_assert_eq(bc_parcel_new(&p), 0);
	bc_parcel_write_interface_token(p, "android.os.IServiceManagerX");
	cr_expect_eq(detect(bc_parcel_data(p), bc_parcel_size(p), &h), -EPERM);
	bc_parcel_unref(p);
	cr_assert_eq(bc_parcel_new(&p), 0);
	bc_parcel_set_wire(p, BINDERC_WIRE_ANDROID_9, BINDERC_PARTITION_SYSTEM);
	bc_parcel_write_interface_token(p, "android.os.IServiceManageR");
	cr_expect_eq(detect(bc_parcel_data(p), bc_parcel_size(p), &h), -EPERM);
	bc_parcel_unref(p);
}

/* ---- legacy dialect ------------------------------------------------------ */

static void legacy_methods(const int *wire)
{
	struct sm *sm = new_sm(NULL);
	bc_binder *a = new_service(), *b = new_service();
	bc_parcel *in, *reply;
	char *s = NULL;

	cr_expect_eq(lookup(sm, *wire, 0, SM_LEGACY_GET, "a"), NULL);
	cr_assert_eq(legacy_add(sm, *wire, 0, "a", a), 0);
	cr_assert_eq(legacy_add(sm, *wire, 0, "b", b), 0);
	cr_expect_eq(lookup(sm, *wire, 1000, SM_LEGACY_GET, "a"), a);
	cr_expect_eq(lookup(sm, *wire, 1000, SM_LEGACY_CHECK, "b"), b);
	cr_expect_eq(lookup(sm, *wire, 1000, SM_LEGACY_CHECK, "c"), NULL);

	/* Android 8 clients send no dump priority. */
	in = req(*wire);
	bc_parcel_write_string16(in, "c");
	bc_parcel_write_binder(in, a);
	bc_parcel_write_int32(in, 1);
	cr_expect_eq(call(sm, 0, SM_LEGACY_ADD, in, &reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(lookup(sm, *wire, 1000, SM_LEGACY_CHECK, "c"), a);

	/* list by index, with and without the priority filter */
	for (int32_t i = 0; i < 4; i++) {
		static const char *const names[] = { "a", "b", "c" };

		in = req(*wire);
		bc_parcel_write_int32(in, i);
		if (i & 1)
			bc_parcel_write_int32(in, BINDERC_SM_DUMP_ALL);
		if (i < 3) {
			cr_assert_eq(call(sm, 1000, SM_LEGACY_LIST, in, &reply), 0);
			cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
			cr_expect_str_eq(s, names[i]);
			free(s);
		} else {
			cr_expect_eq(call(sm, 1000, SM_LEGACY_LIST, in, &reply), -ENOENT);
		}
		bc_parcel_unref(reply);
	}
	/* no service with CRITICAL priority */
	in = req(*wire);
	bc_parcel_write_int32(in, 0);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_CRITICAL);
	cr_expect_eq(call(sm, 1000, SM_LEGACY_LIST, in, &reply), -ENOENT);
	bc_parcel_unref(reply);

	/* errors: denied, bad name, null binder, unknown code */
	cr_expect_eq(legacy_add(sm, *wire, 1000, "d", a), -EPERM);
	cr_expect_eq(legacy_add(sm, *wire, 0, "bad name", a), -EINVAL);
	cr_expect_eq(legacy_add(sm, *wire, 0, "d", NULL), -EINVAL);
	in = req(*wire);
	cr_expect_eq(call(sm, 0, SM_AIDL_REGISTER_FOR_NOTIFICATIONS, in, &reply), -EBADMSG);
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_svc, 3);

	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(b);
}

Test(legacy, methods_android9_header)
{
	static const int w = BINDERC_WIRE_ANDROID_9;

	legacy_methods(&w);
}

Test(legacy, methods_android10_header)
{
	static const int w = BINDERC_WIRE_ANDROID_10;

	legacy_methods(&w);
}

/* ---- AIDL dialect ------------------------------------------------------- */

Test(aidl, get_check_add_list)
{
	struct sm *sm = new_sm(NULL);
	bc_binder *a = new_service(), *b = new_service();
	bc_parcel *in, *reply;
	char **v = NULL;
	size_t n = 0;

	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 0, SM_AIDL_GET_SERVICE, "a"), NULL);
	cr_assert_eq(aidl_add(sm, 0, "a", a, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_assert_eq(aidl_add(sm, 0, "b", b, BINDERC_SM_DUMP_CRITICAL), BINDERC_EX_NONE);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 1000, SM_AIDL_GET_SERVICE, "a"), a);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 1000, SM_AIDL_CHECK_SERVICE, "b"), b);
	/* what one dialect registered, the other finds */
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_9, 1000, SM_LEGACY_CHECK, "b"), b);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_ALL);
	cr_assert_eq(call(sm, 1000, SM_AIDL_LIST_SERVICES, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 2);
	cr_expect_str_eq(v[0], "a");
	cr_expect_str_eq(v[1], "b");
	bc_strv_free(v, n);
	bc_parcel_unref(reply);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_CRITICAL);
	cr_assert_eq(call(sm, 1000, SM_AIDL_LIST_SERVICES, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(v[0], "b");
	bc_strv_free(v, n);
	bc_parcel_unref(reply);

	/* replacement */
	cr_assert_eq(aidl_add(sm, 0, "a", b, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 1000, SM_AIDL_CHECK_SERVICE, "a"), b);
	cr_expect_eq(sm->n_svc, 2);

	/* errors */
	cr_expect_eq(aidl_add(sm, 1000, "c", a, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_SECURITY);
	cr_expect_eq(aidl_add(sm, 0, "", a, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_eq(aidl_add(sm, 0, "c", NULL, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_eq(sm->n_svc, 2);
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(b);
}

/* A local IServiceCallback that records what it is told. */
struct seen {
	int count;
	char name[64];
	bc_binder *binder;
};

static int cb_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	struct seen *seen = ud;
	char *name = NULL;
	bc_binder *b = NULL;

	(void)self, (void)reply;
	cr_assert_eq(code, SM_CALLBACK_ON_REGISTRATION);
	cr_assert(bc_txn_get_flags(txn) & BINDERC_FLAG_ONEWAY);
	cr_assert_eq(bc_parcel_enforce_interface(in, SM_CALLBACK_DESCRIPTOR), 0);
	cr_assert_eq(bc_parcel_read_string16(in, &name, NULL), 0);
	cr_assert_eq(bc_parcel_read_binder(in, &b), 0);
	seen->count++;
	snprintf(seen->name, sizeof(seen->name), "%s", name);
	seen->binder = b;
	bc_binder_unref(b);
	free(name);
	return 0;
}

static bc_binder *new_callback(struct seen *seen)
{
	static bc_class *cls;
	bc_binder *b = NULL;

	if (!cls)
		cr_assert_eq(bc_class_new(SM_CALLBACK_DESCRIPTOR, cb_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, seen, &b), 0);
	return b;
}

static int watch_call(struct sm *sm, uid_t uid, uint32_t code, const char *name, bc_binder *cb)
{
	bc_parcel *in = req(BINDERC_WIRE_ANDROID_13), *reply;
	int r;

	bc_parcel_write_string16(in, name);
	bc_parcel_write_binder(in, cb);
	r = call(sm, uid, code, in, &reply);
	if (r == 0)
		r = read_i32(reply);
	bc_parcel_unref(reply);
	return r;
}

Test(aidl, notifications)
{
	struct sm *sm = new_sm(NULL);
	struct seen s1 = { 0 }, s2 = { 0 };
	bc_binder *cb1 = new_callback(&s1), *cb2 = new_callback(&s2), *a = new_service(), *b = new_service();

	cr_assert_eq(watch_call(sm, 1000, SM_AIDL_REGISTER_FOR_NOTIFICATIONS, "x", cb1), 0);
	cr_expect_eq(s1.count, 0);
	cr_assert_eq(aidl_add(sm, 0, "x", a, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(s1.count, 1);
	cr_expect_str_eq(s1.name, "x");
	cr_expect_eq(s1.binder, a);
	/* registering for a name that is there: told at once */
	cr_assert_eq(watch_call(sm, 1000, SM_AIDL_REGISTER_FOR_NOTIFICATIONS, "x", cb2), 0);
	cr_expect_eq(s2.count, 1);
	/* other names do not notify */
	cr_assert_eq(aidl_add(sm, 0, "y", b, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(s1.count, 1);
	/* re-registration notifies both */
	cr_assert_eq(aidl_add(sm, 0, "x", b, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(s1.count, 2);
	cr_expect_eq(s2.count, 2);
	cr_expect_eq(s1.binder, b);
	/* unregister: no more news; twice is an error */
	cr_assert_eq(watch_call(sm, 1000, SM_AIDL_UNREGISTER_FOR_NOTIFICATIONS, "x", cb1), 0);
	cr_expect_eq(watch_call(sm, 1000, SM_AIDL_UNREGISTER_FOR_NOTIFICATIONS, "x", cb1), BINDERC_EX_ILLEGAL_STATE);
	cr_assert_eq(aidl_add(sm, 0, "x", a, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(s1.count, 2);
	cr_expect_eq(s2.count, 3);
	/* bad arguments */
	cr_expect_eq(watch_call(sm, 1000, SM_AIDL_REGISTER_FOR_NOTIFICATIONS, "bad name", cb1), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_eq(watch_call(sm, 1000, SM_AIDL_REGISTER_FOR_NOTIFICATIONS, "x", NULL), BINDERC_EX_NULL_POINTER);
	cr_expect_eq(sm->n_cbs, 1);
	sm_fini(sm);
	bc_binder_unref(cb1);
	bc_binder_unref(cb2);
	bc_binder_unref(a);
	bc_binder_unref(b);
}

Test(aidl, declared_and_the_rest)
{
	struct sm *sm = new_sm("declare org.ex.IFoo/default\ndeclare org.ex.IFoo/hidden\n"
			       "deny find org.ex.IFoo/hidden uid:1000\n");
	bc_binder *a = new_service(), *b = new_service();
	bc_parcel *in, *reply;
	char **v = NULL, *s = NULL;
	size_t n = 0;
	bool yes;

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "org.ex.IFoo/default");
	cr_assert_eq(call(sm, 1000, SM_AIDL_IS_DECLARED, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_bool(reply, &yes), 0);
	cr_expect(yes);
	bc_parcel_unref(reply);
	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "org.ex.IFoo/nope");
	cr_assert_eq(call(sm, 1000, SM_AIDL_IS_DECLARED, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_bool(reply, &yes), 0);
	cr_expect(!yes);
	bc_parcel_unref(reply);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "org.ex.IFoo");
	cr_assert_eq(call(sm, 1000, SM_AIDL_GET_DECLARED_INSTANCES, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 1); /* "hidden" is not findable by uid 1000 */
	cr_expect_str_eq(v[0], "default");
	bc_strv_free(v, n);
	bc_parcel_unref(reply);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "x");
	cr_assert_eq(call(sm, 1000, SM_AIDL_UPDATABLE_VIA_APEX, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_null(s);
	bc_parcel_unref(reply);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "apex");
	cr_assert_eq(call(sm, 1000, SM_AIDL_GET_UPDATABLE_NAMES, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_expect_eq(n, 0);
	cr_expect_not_null(v);
	bc_strv_free(v, n);
	bc_parcel_unref(reply);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "x");
	cr_assert_eq(call(sm, 1000, SM_AIDL_GET_CONNECTION_INFO, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_expect_eq(read_i32(reply), 0); /* null parcelable */
	bc_parcel_unref(reply);

	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "x");
	bc_parcel_write_binder(in, a);
	bc_parcel_write_binder(in, a);
	cr_assert_eq(call(sm, 1000, SM_AIDL_REGISTER_CLIENT_CALLBACK, in, &reply), 0);
	cr_expect_eq(read_i32(reply), BINDERC_EX_SECURITY); /* uid 1000 may not add "x" */
	bc_parcel_unref(reply);

	/* tryUnregisterService: only with the registered binder */
	cr_assert_eq(aidl_add(sm, 0, "x", a, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_assert_eq(aidl_add(sm, 0, "y", b, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(watch_call(sm, 0, SM_AIDL_TRY_UNREGISTER_SERVICE, "x", b), BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_eq(watch_call(sm, 1000, SM_AIDL_TRY_UNREGISTER_SERVICE, "x", a), BINDERC_EX_SECURITY);
	cr_expect_eq(watch_call(sm, 0, SM_AIDL_TRY_UNREGISTER_SERVICE, "z", a), BINDERC_EX_ILLEGAL_STATE);
	cr_expect_eq(watch_call(sm, 0, SM_AIDL_TRY_UNREGISTER_SERVICE, "x", a), 0);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 0, SM_AIDL_CHECK_SERVICE, "x"), NULL);

	/* getServiceDebugInfo */
	in = req(BINDERC_WIRE_ANDROID_13);
	cr_assert_eq(call(sm, 1000, SM_AIDL_GET_SERVICE_DEBUG_INFO, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(read_i32(reply), 1);
	cr_assert_eq(read_i32(reply), 1);
	{
		size_t end;
		int32_t pid;

		cr_assert_eq(bc_parcel_enter_parcelable(reply, &end), 0);
		cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
		cr_expect_str_eq(s, "y");
		free(s);
		cr_assert_eq(bc_parcel_read_int32(reply, &pid), 0);
		cr_expect_eq(pid, 1234);
		cr_assert_eq(bc_parcel_exit_parcelable(reply, end), 0);
	}
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_parcel_unref(reply);

	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(b);
}

/* ---- policy applied ----------------------------------------------------- */

Test(policy_applied, denials_answered_as_android)
{
	struct sm *sm = new_sm("allow add user.* uid:1000\n"
			       "deny find private.* uid:1000\n"
			       "max-services-per-uid 2\n");
	bc_binder *a = new_service();
	struct seen seen = { 0 };
	bc_binder *cb = new_callback(&seen);
	bc_parcel *in, *reply;
	char **v = NULL;
	size_t n = 0;

	cr_expect_eq(aidl_add(sm, 1000, "user.1", a, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(aidl_add(sm, 1000, "other", a, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_SECURITY);
	cr_expect_eq(legacy_add(sm, BINDERC_WIRE_ANDROID_9, 1000, "other", a), -EPERM);
	cr_expect_eq(aidl_add(sm, 0, "private.key", a, BINDERC_SM_DUMP_DEFAULT), 0);
	/* hidden services read as absent: OK + null, and are not listed */
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 1000, SM_AIDL_GET_SERVICE, "private.key"), NULL);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_9, 1000, SM_LEGACY_CHECK, "private.key"), NULL);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 0, SM_AIDL_GET_SERVICE, "private.key"), a);
	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_ALL);
	cr_assert_eq(call(sm, 1000, SM_AIDL_LIST_SERVICES, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 1);
	cr_expect_str_eq(v[0], "user.1");
	bc_strv_free(v, n);
	bc_parcel_unref(reply);
	cr_expect_eq(watch_call(sm, 1000, SM_AIDL_REGISTER_FOR_NOTIFICATIONS, "private.key", cb), BINDERC_EX_SECURITY);
	cr_expect_eq(seen.count, 0);

	/* the per-uid limit: EX_SERVICE_SPECIFIC(ENOSPC); replacing is fine */
	cr_expect_eq(aidl_add(sm, 1000, "user.2", a, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(aidl_add(sm, 1000, "user.3", a, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_SERVICE_SPECIFIC);
	cr_expect_eq(legacy_add(sm, BINDERC_WIRE_ANDROID_10, 1000, "user.3", a), -ENOSPC);
	cr_expect_eq(aidl_add(sm, 1000, "user.2", a, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_expect_eq(sm->n_svc, 3);
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(cb);
}

Test(policy_applied, isolated_uids)
{
	struct sm *sm = new_sm("isolated-uids 5000-5999\n");
	bc_binder *a = new_service(), *b = new_service();
	bc_parcel *in, *reply;

	cr_assert_eq(aidl_add(sm, 0, "plain", a, BINDERC_SM_DUMP_DEFAULT), 0);
	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, "open");
	bc_parcel_write_binder(in, b);
	bc_parcel_write_bool(in, true);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_DEFAULT);
	cr_assert_eq(call(sm, 0, SM_AIDL_ADD_SERVICE, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 5001, SM_AIDL_GET_SERVICE, "plain"), NULL);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 5001, SM_AIDL_GET_SERVICE, "open"), b);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 6000, SM_AIDL_GET_SERVICE, "plain"), a);
	sm_fini(sm);
	bc_binder_unref(a);
	bc_binder_unref(b);
}

/* ---- malformed requests change nothing ----------------------------------- */

Test(malformed, truncations_and_trailing_bytes)
{
	struct sm *sm = new_sm(NULL);
	bc_binder *a = new_service();
	bc_parcel *good, *in, *reply;

	cr_assert_eq(aidl_add(sm, 0, "keep", a, BINDERC_SM_DUMP_DEFAULT), 0);
	/* every truncation of a valid addService, received as plain data */
	good = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(good, "new");
	bc_parcel_write_binder(good, a);
	bc_parcel_write_bool(good, false);
	bc_parcel_write_int32(good, BINDERC_SM_DUMP_DEFAULT);
	for (size_t len = 0; len < bc_parcel_size(good); len += 4) {
		size_t no;
		const uint64_t *offs = bc_parcel_offsets(good, &no);

		if (len < offs[0] + 24)
			no = 0;
		cr_assert_eq(bc_parcel_new_from_data(bc_parcel_data(good), len, offs, no, &in), 0);
		/* Cut right after the name it is Android 15/16's checkService
		 * (code 3): a lookup, answered, changing nothing. */
		if (len == 84)
			cr_expect_eq(call(sm, 0, SM_AIDL_ADD_SERVICE, in, &reply), 0);
		else
			cr_expect_lt(call(sm, 0, SM_AIDL_ADD_SERVICE, in, &reply), 0, "length %zu", len);
		bc_parcel_unref(reply);
		cr_expect_null(sm_find(sm, "new"));
	}
	bc_parcel_unref(good);
	/* a null name */
	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_string16(in, NULL);
	cr_expect_eq(call(sm, 0, SM_AIDL_GET_SERVICE, in, &reply), -EBADMSG);
	bc_parcel_unref(reply);
	/* an int where the binder should be */
	in = req(BINDERC_WIRE_ANDROID_9);
	bc_parcel_write_string16(in, "new");
	for (int i = 0; i < 8; i++)
		bc_parcel_write_int32(in, 0x73682a85);
	cr_expect_eq(call(sm, 0, SM_LEGACY_ADD, in, &reply), -EBADMSG);
	bc_parcel_unref(reply);
	/* unknown codes in both dialects (17 is no release's), and a
	 * negative list index */
	in = req(BINDERC_WIRE_ANDROID_13);
	cr_expect_eq(call(sm, 0, 17, in, &reply), -EBADMSG);
	bc_parcel_unref(reply);
	in = req(BINDERC_WIRE_ANDROID_9);
	cr_expect_eq(call(sm, 0, 5, in, &reply), -EBADMSG);
	bc_parcel_unref(reply);
	in = req(BINDERC_WIRE_ANDROID_9);
	bc_parcel_write_int32(in, -1);
	cr_expect_eq(call(sm, 0, SM_LEGACY_LIST, in, &reply), -EBADMSG);
	bc_parcel_unref(reply);
	/* wrong descriptor */
	cr_assert_eq(bc_parcel_new(&in), 0);
	bc_parcel_write_interface_token(in, "org.example.INotTheManager");
	bc_parcel_write_string16(in, "keep");
	cr_expect_eq(call(sm, 0, SM_AIDL_GET_SERVICE, in, &reply), -EPERM);
	bc_parcel_unref(reply);

	cr_expect_eq(sm->n_svc, 1);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 0, SM_AIDL_CHECK_SERVICE, "keep"), a);
	sm_fini(sm);
	bc_binder_unref(a);
}

Test(registry, many_services_sorted)
{
	struct sm *sm = new_sm(NULL);
	bc_binder *a = new_service();
	char **v = NULL;
	size_t n = 0;
	bc_parcel *in, *reply;

	for (int i = 299; i >= 0; i--) {
		char name[32];

		snprintf(name, sizeof(name), "svc.%03d", i);
		cr_assert_eq(aidl_add(sm, 0, name, a, BINDERC_SM_DUMP_DEFAULT), 0);
	}
	in = req(BINDERC_WIRE_ANDROID_13);
	bc_parcel_write_int32(in, BINDERC_SM_DUMP_ALL);
	cr_assert_eq(call(sm, 0, SM_AIDL_LIST_SERVICES, in, &reply), 0);
	cr_assert_eq(read_i32(reply), 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 300);
	for (size_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "svc.%03zu", i);
		cr_expect_str_eq(v[i], name);
	}
	bc_strv_free(v, n);
	bc_parcel_unref(reply);
	sm_remove(sm, "svc.150");
	cr_expect_null(sm_find(sm, "svc.150"));
	cr_expect_not_null(sm_find(sm, "svc.151"));
	cr_expect_eq(sm->n_svc, 299);
	sm_fini(sm);
	bc_binder_unref(a);
}

/* ---- raw-byte requests: leniency, release tables, cross-release ------------
 *
 * Requests and replies are written out word by word (little endian int32s)
 * from the AIDL definitions and the parcel format, not produced by the
 * library.  The one exception is a binder object: its 24 bytes hold
 * process-local pointers, so the token OBJ (the test service) or CB (a
 * second local object) is written with bc_parcel_write_binder (the
 * object, then the stability word where the wire has one) and read back in
 * a reply with bc_parcel_read_binder and compared by identity.
 */
#define OBJ 0xb1d0ff01u
#define CB 0xb1d0ff02u
#define END 0xb1d0ffffu
#define ANY 0xb1d0fffeu /* in a reply: the rest is not compared */
#define NOBJ 0xb1d0ff03u /* a null binder (object and stability word) */

/* Android 11+ header: strict-mode policy (Android 12+ sets bit 31), work
 * source -1, 'SYST', String16 "android.os.IServiceManager" (26 chars). */
#define H_AIDL                                                                                        \
	0x80000000u, 0xffffffffu, 0x53595354u, 26u, 0x006e0061u, 0x00720064u, 0x0069006fu, 0x002e0064u, \
		0x0073006fu, 0x0049002eu, 0x00650053u, 0x00760072u, 0x00630069u, 0x004d0065u, 0x006e0061u, \
		0x00670061u, 0x00720065u, 0x00000000u
/* Android 9: policy 0x40<<16, then the descriptor; Android 10 adds the
 * work source. */
#define DESC_WORDS                                                                                     \
	26u, 0x006e0061u, 0x00720064u, 0x0069006fu, 0x002e0064u, 0x0073006fu, 0x0049002eu, 0x00650053u, \
		0x00760072u, 0x00630069u, 0x004d0065u, 0x006e0061u, 0x00670061u, 0x00720065u, 0x00000000u
#define H_9 0x00400000u, DESC_WORDS
#define H_10 0x00400000u, 0xffffffffu, DESC_WORDS
/* String16 "s1", "s2", "a.IFoo", "default" */
#define S_S1 2u, 0x00310073u, 0x00000000u
#define S_S2 2u, 0x00320073u, 0x00000000u
#define S_AIFOO 6u, 0x002e0061u, 0x00460049u, 0x006f006fu, 0x00000000u
#define S_DEFAULT 7u, 0x00650064u, 0x00610066u, 0x006c0075u, 0x00000074u

static bc_binder *g_svc, *g_cb;
static int g_shape; /* golden_sm's Android 15 variant (enum sm_union_shape) */

/* A fresh registry: "s1" registered by root (pid 1234) as g_svc. */
static struct sm *golden_sm(int release)
{
	static struct sm sm;
	static bool used;
	struct sm_policy *p = NULL;
	struct sm_caller c;
	char err[256];

	if (used)
		sm_fini(&sm);
	used = true;
	if (!g_svc) {
		g_svc = new_service();
		g_cb = new_service();
	}
	cr_assert_eq(sm_policy_parse("declare s1\ndeclare a.IFoo/default\n", "golden", &p, err, sizeof(err)), 0);
	sm_init(&sm, p);
	sm.release = release;
	sm.shape = g_shape;
	sm.strong_count = no_clients;
	sm_caller_init(&c, 0, 1234);
	cr_assert_eq(sm_add(&sm, "s1", g_svc, &c, false, BINDERC_SM_DUMP_DEFAULT), 0);
	return &sm;
}

static bc_parcel *raw_request(int wire, const uint32_t *w)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	cr_assert_eq(bc_parcel_set_wire(p, wire, BINDERC_PARTITION_SYSTEM), 0);
	for (; *w != END; w++) {
		if (*w == OBJ || *w == CB || *w == NOBJ)
			cr_assert_eq(bc_parcel_write_binder(p, *w == OBJ ? g_svc : *w == CB ? g_cb : NULL), 0);
		else
			cr_assert_eq(bc_parcel_write_uint32(p, *w), 0);
	}
	return p;
}

static void expect_reply(bc_parcel *reply, const uint32_t *w, const char *what)
{
	for (size_t i = 0; w[i] != END; i++) {
		if (w[i] == ANY)
			return;
		if (w[i] == OBJ || w[i] == CB || w[i] == NOBJ) {
			bc_binder *b = NULL;

			cr_assert_eq(bc_parcel_read_binder(reply, &b), 0, "%s: word %zu: no binder", what, i);
			if (w[i] == NOBJ)
				cr_expect_null(b, "%s: word %zu: not the null binder", what, i);
			else
				cr_expect(sm_same_binder(b, w[i] == OBJ ? g_svc : g_cb), "%s: word %zu: another binder",
					  what, i);
			bc_binder_unref(b);
		} else {
			uint32_t v = 0;

			cr_assert_eq(bc_parcel_read_uint32(reply, &v), 0, "%s: reply ends at word %zu", what, i);
			cr_expect_eq(v, w[i], "%s: word %zu: 0x%08x, want 0x%08x", what, i, v, w[i]);
		}
	}
	cr_expect_eq(bc_parcel_remaining(reply), 0, "%s: %zu bytes more than expected", what,
		     bc_parcel_remaining(reply));
}

/* One method: its arguments and its reply (as registry golden_sm()). */
struct golden {
	int method;
	const char *name;
	uint32_t req[40];   /* after the header */
	uint32_t reply[40];
	bool watch_first;   /* register g_cb for "s1" before */
};

/* Bodies are the same in every release that has the method; only codes
 * move (see the per-release code lists below). */
static const struct golden goldens[] = {
	{ SM_M_GET_SERVICE, "getService", { S_S1, END }, { 0, OBJ, END }, false },
	{ SM_M_GET_SERVICE2, "getService2", { S_S1, END },
	  /* status, Service non-null, tag 0 (serviceWithMetadata), parcelable
	   * non-null, size 36 (size + object + stability + bool), binder,
	   * isLazyService false */
	  { 0, 1, 0, 1, 36, OBJ, 0, END }, false },
	{ SM_M_CHECK_SERVICE, "checkService", { S_S1, END }, { 0, OBJ, END }, false },
	{ SM_M_CHECK_SERVICE2, "checkService2", { S_S1, END }, { 0, 1, 0, 1, 36, OBJ, 0, END }, false },
	/* name, binder, allowIsolated false, dumpPriority DEFAULT -> status */
	{ SM_M_ADD_SERVICE, "addService", { S_S2, OBJ, 0, 8, END }, { 0, END }, false },
	/* dumpPriority ALL -> status, String[] { "s1" } */
	{ SM_M_LIST_SERVICES, "listServices", { 15, END }, { 0, 1, S_S1, END }, false },
	{ SM_M_REGISTER_FOR_NOTIFICATIONS, "registerForNotifications", { S_S1, CB, END }, { 0, END }, false },
	{ SM_M_UNREGISTER_FOR_NOTIFICATIONS, "unregisterForNotifications", { S_S1, CB, END }, { 0, END }, true },
	{ SM_M_IS_DECLARED, "isDeclared", { S_S1, END }, { 0, 1, END }, false },
	{ SM_M_GET_DECLARED_INSTANCES, "getDeclaredInstances", { S_AIFOO, END }, { 0, 1, S_DEFAULT, END }, false },
	/* @nullable String: null is length -1 */
	{ SM_M_UPDATABLE_VIA_APEX, "updatableViaApex", { S_S1, END }, { 0, 0xffffffffu, END }, false },
	{ SM_M_GET_UPDATABLE_NAMES, "getUpdatableNames", { S_S1, END }, { 0, 0, END }, false },
	/* @nullable ConnectionInfo: null parcelable is int32 0 */
	{ SM_M_GET_CONNECTION_INFO, "getConnectionInfo", { S_S1, END }, { 0, 0, END }, false },
	/* by the registering pid, with the registered binder: status only */
	{ SM_M_REGISTER_CLIENT_CALLBACK, "registerClientCallback", { S_S1, OBJ, CB, END }, { 0, END }, false },
	{ SM_M_TRY_UNREGISTER_SERVICE, "tryUnregisterService", { S_S1, OBJ, END }, { 0, END }, false },
	/* ServiceDebugInfo[] { { "s1", 1234 } }: count, non-null, size 20
	 * (size + String16 + int), name, debugPid */
	{ SM_M_GET_SERVICE_DEBUG_INFO, "getServiceDebugInfo", { END }, { 0, 1, 1, 20, S_S1, 1234, END }, false },
};

static const struct golden *golden_of(int method)
{
	for (size_t i = 0; i < sizeof(goldens) / sizeof(goldens[0]); i++)
		if (goldens[i].method == method)
			return &goldens[i];
	cr_assert_fail("no golden for method %d", method);
	return NULL;
}

static int wire_of(int release)
{
	return release == 11 ? BINDERC_WIRE_ANDROID_11 : release == 12 ? BINDERC_WIRE_ANDROID_12 : BINDERC_WIRE_ANDROID_13;
}

static bc_parcel *golden_request(int release, const struct golden *g)
{
	uint32_t w[80];
	static const uint32_t hdr[] = { H_AIDL };
	size_t n = 0;

	for (size_t i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++)
		w[n++] = hdr[i];
	for (size_t i = 0; g->req[i] != END; i++)
		w[n++] = g->req[i];
	w[n] = END;
	return raw_request(wire_of(release), w);
}

/* Run @g as code @code on a device of @release; check the reply. */
static void run_golden(int release, uint32_t code, const struct golden *g)
{
	struct sm *sm = golden_sm(release);
	bc_parcel *reply;
	char what[96];

	snprintf(what, sizeof(what), "android-%d %s (code %u)", release, g->name, code);
	if (g->watch_first) {
		struct sm_caller c;

		sm_caller_init(&c, 0, 1);
		cr_assert_eq(sm_watch(sm, "s1", g_cb, &c, BINDERC_WIRE_ANDROID_13, 0), 0);
	}
	cr_assert_eq(call(sm, 0, code, golden_request(release, g), &reply), 0, "%s refused", what);
	expect_reply(reply, g->reply, what);
	bc_parcel_unref(reply);
	if (g->method == SM_M_ADD_SERVICE)
		cr_expect_not_null(sm_find(sm, "s2"), "%s: not registered", what);
	if (g->method == SM_M_TRY_UNREGISTER_SERVICE)
		cr_expect_null(sm_find(sm, "s1"), "%s: still registered", what);
	if (g->method == SM_M_REGISTER_CLIENT_CALLBACK)
		cr_expect(sm_is_lazy(sm_find(sm, "s1")), "%s: no client callback", what);
	if (g->method == SM_M_REGISTER_FOR_NOTIFICATIONS)
		cr_expect_eq(sm->n_cbs, 1, "%s", what);
	if (g->method == SM_M_UNREGISTER_FOR_NOTIFICATIONS)
		cr_expect_eq(sm->n_cbs, 0, "%s", what);
}

/* Each release's codes, hand-copied from its IServiceManager.aidl order. */
struct release_codes {
	int release;
	int methods[SM_MAX_CODE + 1]; /* [code] */
};

static const struct release_codes release_codes[] = {
	{ 11, { [1] = SM_M_GET_SERVICE, [2] = SM_M_CHECK_SERVICE, [3] = SM_M_ADD_SERVICE, [4] = SM_M_LIST_SERVICES,
		[5] = SM_M_REGISTER_FOR_NOTIFICATIONS, [6] = SM_M_UNREGISTER_FOR_NOTIFICATIONS, [7] = SM_M_IS_DECLARED,
		[8] = SM_M_REGISTER_CLIENT_CALLBACK, [9] = SM_M_TRY_UNREGISTER_SERVICE } },
	{ 12, { [1] = SM_M_GET_SERVICE, [2] = SM_M_CHECK_SERVICE, [3] = SM_M_ADD_SERVICE, [4] = SM_M_LIST_SERVICES,
		[5] = SM_M_REGISTER_FOR_NOTIFICATIONS, [6] = SM_M_UNREGISTER_FOR_NOTIFICATIONS, [7] = SM_M_IS_DECLARED,
		[8] = SM_M_GET_DECLARED_INSTANCES, [9] = SM_M_UPDATABLE_VIA_APEX, [10] = SM_M_REGISTER_CLIENT_CALLBACK,
		[11] = SM_M_TRY_UNREGISTER_SERVICE, [12] = SM_M_GET_SERVICE_DEBUG_INFO } },
	{ 13, { [1] = SM_M_GET_SERVICE, [2] = SM_M_CHECK_SERVICE, [3] = SM_M_ADD_SERVICE, [4] = SM_M_LIST_SERVICES,
		[5] = SM_M_REGISTER_FOR_NOTIFICATIONS, [6] = SM_M_UNREGISTER_FOR_NOTIFICATIONS, [7] = SM_M_IS_DECLARED,
		[8] = SM_M_GET_DECLARED_INSTANCES, [9] = SM_M_UPDATABLE_VIA_APEX, [10] = SM_M_GET_CONNECTION_INFO,
		[11] = SM_M_REGISTER_CLIENT_CALLBACK, [12] = SM_M_TRY_UNREGISTER_SERVICE,
		[13] = SM_M_GET_SERVICE_DEBUG_INFO } },
	{ 14, { [1] = SM_M_GET_SERVICE, [2] = SM_M_CHECK_SERVICE, [3] = SM_M_ADD_SERVICE, [4] = SM_M_LIST_SERVICES,
		[5] = SM_M_REGISTER_FOR_NOTIFICATIONS, [6] = SM_M_UNREGISTER_FOR_NOTIFICATIONS, [7] = SM_M_IS_DECLARED,
		[8] = SM_M_GET_DECLARED_INSTANCES, [9] = SM_M_UPDATABLE_VIA_APEX, [10] = SM_M_GET_UPDATABLE_NAMES,
		[11] = SM_M_GET_CONNECTION_INFO, [12] = SM_M_REGISTER_CLIENT_CALLBACK,
		[13] = SM_M_TRY_UNREGISTER_SERVICE, [14] = SM_M_GET_SERVICE_DEBUG_INFO } },
	{ 15, { [1] = SM_M_GET_SERVICE, [2] = SM_M_GET_SERVICE2, [3] = SM_M_CHECK_SERVICE, [4] = SM_M_ADD_SERVICE,
		[5] = SM_M_LIST_SERVICES, [6] = SM_M_REGISTER_FOR_NOTIFICATIONS,
		[7] = SM_M_UNREGISTER_FOR_NOTIFICATIONS, [8] = SM_M_IS_DECLARED, [9] = SM_M_GET_DECLARED_INSTANCES,
		[10] = SM_M_UPDATABLE_VIA_APEX, [11] = SM_M_GET_UPDATABLE_NAMES, [12] = SM_M_GET_CONNECTION_INFO,
		[13] = SM_M_REGISTER_CLIENT_CALLBACK, [14] = SM_M_TRY_UNREGISTER_SERVICE,
		[15] = SM_M_GET_SERVICE_DEBUG_INFO } },
	{ 16, { [1] = SM_M_GET_SERVICE, [2] = SM_M_GET_SERVICE2, [3] = SM_M_CHECK_SERVICE, [4] = SM_M_CHECK_SERVICE2,
		[5] = SM_M_ADD_SERVICE, [6] = SM_M_LIST_SERVICES, [7] = SM_M_REGISTER_FOR_NOTIFICATIONS,
		[8] = SM_M_UNREGISTER_FOR_NOTIFICATIONS, [9] = SM_M_IS_DECLARED, [10] = SM_M_GET_DECLARED_INSTANCES,
		[11] = SM_M_UPDATABLE_VIA_APEX, [12] = SM_M_GET_UPDATABLE_NAMES, [13] = SM_M_GET_CONNECTION_INFO,
		[14] = SM_M_REGISTER_CLIENT_CALLBACK, [15] = SM_M_TRY_UNREGISTER_SERVICE,
		[16] = SM_M_GET_SERVICE_DEBUG_INFO } },
};

static void golden_release(int release)
{
	const struct release_codes *rc = &release_codes[release - 11];

	cr_assert_eq(rc->release, release);
	for (uint32_t code = 1; code <= SM_MAX_CODE; code++) {
		cr_expect_eq(sm_method_of(release, code), rc->methods[code], "android-%d code %u: table disagrees",
			     release, code);
		if (rc->methods[code])
			run_golden(release, code, golden_of(rc->methods[code]));
	}
}

Test(golden, android_11) { golden_release(11); }
Test(golden, android_12) { golden_release(12); }
Test(golden, android_13) { golden_release(13); }
Test(golden, android_14) { golden_release(14); }
Test(golden, android_15) { golden_release(15); }
Test(golden, android_16) { golden_release(16); }

/* Legacy (Android 9 and 10 headers, C servicemanager codes 1-4, bare
 * replies, no stability words). */
Test(golden, legacy_9_and_10)
{
	static const uint32_t get9[] = { H_9, S_S1, END }, get10[] = { H_10, S_S1, END };
	static const uint32_t add9[] = { H_9, S_S2, OBJ, 0, 8, END }, list10[] = { H_10, 0, 15, END };
	static const uint32_t add9_short[] = { H_9, S_S2, OBJ, 0, END }; /* before dump priorities */
	static const uint32_t want_obj[] = { OBJ, END }, want_zero[] = { 0, END }, want_s1[] = { S_S1, END };
	bc_parcel *reply;
	struct sm *sm;

	for (uint32_t code = 1; code <= 2; code++) {
		sm = golden_sm(14);
		cr_assert_eq(call(sm, 0, code, raw_request(BINDERC_WIRE_ANDROID_9, get9), &reply), 0);
		expect_reply(reply, want_obj, "legacy 9 get/check");
		bc_parcel_unref(reply);
		cr_assert_eq(call(sm, 0, code, raw_request(BINDERC_WIRE_ANDROID_10, get10), &reply), 0);
		expect_reply(reply, want_obj, "legacy 10 get/check");
		bc_parcel_unref(reply);
	}
	sm = golden_sm(14);
	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_9, add9), &reply), 0);
	expect_reply(reply, want_zero, "legacy add");
	bc_parcel_unref(reply);
	cr_expect_eq(sm_find(sm, "s2")->dump_flags, 8);
	sm = golden_sm(14);
	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_9, add9_short), &reply), 0);
	expect_reply(reply, want_zero, "legacy add without priority");
	bc_parcel_unref(reply);
	cr_expect_not_null(sm_find(sm, "s2"));
	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_10, list10), &reply), 0);
	expect_reply(reply, want_s1, "legacy list 0");
	bc_parcel_unref(reply);
}

/* ---- leniency: what Android accepts, we accept -------------------------- */

/* Android's stubs stop reading after the last argument. */
Test(leniency, trailing_word_after_lookup_accepted)
{
	static const uint32_t r[] = { H_AIDL, S_S1, 7, END }, want[] = { 0, OBJ, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 2, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want, "checkService + 1 word");
	bc_parcel_unref(reply);
	cr_expect(strstr(last_log, "trailing") != NULL, "not logged: %s", last_log);
}

Test(leniency, trailing_words_after_add_accepted)
{
	static const uint32_t r[] = { H_AIDL, S_S2, OBJ, 0, 8, 0xdeadbeefu, 0x12345678u, END }, want[] = { 0, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want, "addService + 2 words");
	bc_parcel_unref(reply);
	cr_assert_not_null(sm_find(sm, "s2"));
	cr_expect_eq(sm_find(sm, "s2")->dump_flags, 8);
}

Test(leniency, trailing_word_after_legacy_list_accepted)
{
	static const uint32_t r[] = { H_9, 0, 15, 99, END }, want[] = { S_S1, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_9, r), &reply), 0);
	expect_reply(reply, want, "legacy list + 1 word");
	bc_parcel_unref(reply);
}

/* libgbinder's Android 12 ("aidl4") addService: its writer puts the
 * Category stability word (version 1, level SYSTEM 0x0c) after the object,
 * then it writes it again by hand: name, object, 0x0c000001, 0x0c000001,
 * allowIsolated 0, dumpPriority 8. */
Test(leniency, android12_repeated_stability_word_add)
{
	static const uint32_t r[] = { H_AIDL, S_S2, OBJ, 0x0c000001u, 0, 8, END }, want[] = { 0, END };
	struct sm *sm = golden_sm(12);
	bc_parcel *reply;

	/* On the Android 12 wire the library writes the object's own
	 * stability word as a Category: the same 0x0c000001. */
	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_12, r), &reply), 0);
	expect_reply(reply, want, "addService with repeated stability");
	bc_parcel_unref(reply);
	cr_assert_not_null(sm_find(sm, "s2"));
	/* the copy was skipped: not isolated, default priority (Android itself
	 * would take the copy as allowIsolated=true and priority 0) */
	cr_expect_eq(sm_find(sm, "s2")->allow_isolated, false);
	cr_expect_eq(sm_find(sm, "s2")->dump_flags, 8);
}

/* ---- strict: what Android refuses, we refuse, changing nothing ----------- */

static void expect_refused(int release, uint32_t code, int wire, const uint32_t *r, const char *what)
{
	struct sm *sm = golden_sm(release);
	bc_parcel *reply;

	cr_expect_lt(call(sm, 0, code, raw_request(wire, r), &reply), 0, "%s accepted", what);
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_svc, 1, "%s changed the registry", what);
	cr_expect_eq(sm->n_cbs, 0, "%s added a callback", what);
}

Test(strict, null_name_refused)
{
	static const uint32_t r[] = { H_AIDL, 0xffffffffu, END };

	expect_refused(14, 2, BINDERC_WIRE_ANDROID_13, r, "checkService(null)");
}

Test(strict, missing_dump_priority_refused)
{
	/* AIDL addService always carries dumpPriority; the stub fails reading it */
	static const uint32_t r[] = { H_AIDL, S_S2, OBJ, 0, END };

	expect_refused(14, 3, BINDERC_WIRE_ANDROID_13, r, "addService without dumpPriority");
}

Test(strict, int_for_binder_refused)
{
	static const uint32_t r[] = { H_AIDL, S_S1, 1, 2, 3, 4, 5, 6, 7, END };

	expect_refused(14, 5, BINDERC_WIRE_ANDROID_13, r, "registerForNotifications with ints for the callback");
}

Test(strict, wrong_interface_refused)
{
	/* "android.os.IServiceManagr" (25 chars) */
	static const uint32_t r[] = { 0x80000000u, 0xffffffffu, 0x53595354u, 25u, 0x006e0061u, 0x00720064u,
				      0x0069006fu, 0x002e0064u, 0x0073006fu, 0x0049002eu, 0x00650053u, 0x00760072u,
				      0x00630069u, 0x004d0065u, 0x006e0061u, 0x00670061u, 0x00000072u, S_S1, END };

	expect_refused(14, 2, BINDERC_WIRE_ANDROID_13, r, "wrong descriptor");
}

Test(strict, unknown_code_refused)
{
	static const uint32_t r[] = { H_AIDL, END };

	expect_refused(16, 17, BINDERC_WIRE_ANDROID_13, r, "code 17");
	expect_refused(11, 0, BINDERC_WIRE_ANDROID_13, r, "code 0");
}

/* Every truncation of every golden request, in every release, is refused
 * or (where it is another release's complete request) answered without
 * changing anything. */
Test(strict, truncations_per_release_change_nothing)
{
	for (int rel = 11; rel <= 16; rel++) {
		const struct release_codes *rc = &release_codes[rel - 11];

		for (uint32_t code = 1; code <= SM_MAX_CODE; code++) {
			const struct golden *g;
			bc_parcel *full;

			if (!rc->methods[code])
				continue;
			g = golden_of(rc->methods[code]);
			full = golden_request(rel, g);
			for (size_t len = 72; len < bc_parcel_size(full); len += 4) {
				size_t no;
				const uint64_t *offs = bc_parcel_offsets(full, &no);
				size_t keep = 0;
				struct sm *sm = golden_sm(rel);
				bc_parcel *in, *reply;

				while (keep < no && offs[keep] + 24 <= len)
					keep++;
				cr_assert_eq(bc_parcel_new_from_data(bc_parcel_data(full), len, offs, keep, &in), 0);
				bc_parcel_set_wire(in, wire_of(rel), 0);
				call(sm, 0, code, in, &reply);
				bc_parcel_unref(reply);
				cr_expect_eq(sm->n_svc, 1, "android-%d %s cut at %zu: registry changed", rel, g->name, len);
				cr_expect_not_null(sm_find(sm, "s1"), "android-%d %s cut at %zu", rel, g->name, len);
				cr_expect_eq(sm->n_cbs, 0, "android-%d %s cut at %zu: callback added", rel, g->name, len);
			}
			bc_parcel_unref(full);
		}
	}
}

/* ---- per-request detection and cross-release ---------------------------- */

/* On an Android 14 device, a 15/16 client's checkService (code 3, a name
 * only) cannot be an addService: it is read as checkService. */
Test(detect, android16_check_on_android14_device)
{
	static const uint32_t r[] = { H_AIDL, S_S1, END }, want[] = { 0, OBJ, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want, "code 3 with a name only");
	bc_parcel_unref(reply);
}

/* ... and an Android 16 addService (code 5) is not a registerForNotifications. */
Test(detect, android16_add_on_android14_device)
{
	static const uint32_t r[] = { H_AIDL, S_S2, OBJ, 0, 8, END }, want[] = { 0, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 5, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want, "code 5 with addService arguments");
	bc_parcel_unref(reply);
	cr_expect_not_null(sm_find(sm, "s2"));
	cr_expect_eq(sm->n_cbs, 0);
}

/* ... and an Android 14 addService (code 3) on an Android 16 device. */
Test(detect, android14_add_on_android16_device)
{
	static const uint32_t r[] = { H_AIDL, S_S2, OBJ, 0, 8, END }, want[] = { 0, END };
	struct sm *sm = golden_sm(16);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want, "code 3 with addService arguments");
	bc_parcel_unref(reply);
	cr_expect_not_null(sm_find(sm, "s2"));
}

/* Where the bytes are the same, the device's release decides: code 2 is
 * checkService on 14, getService2 (a Service union) on 16. */
Test(detect, same_bytes_device_release_decides)
{
	static const uint32_t r[] = { H_AIDL, S_S1, END }, want14[] = { 0, OBJ, END },
			      want16[] = { 0, 1, 0, 1, 36, OBJ, 0, END };
	bc_parcel *reply;

	cr_assert_eq(call(golden_sm(14), 0, 2, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want14, "code 2 on 14");
	bc_parcel_unref(reply);
	cr_assert_eq(call(golden_sm(16), 0, 2, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	expect_reply(reply, want16, "code 2 on 16");
	bc_parcel_unref(reply);
}

/* call() from another pid: the caller whose release is remembered. */
static int call_pid(struct sm *sm, pid_t pid, uint32_t code, const uint32_t *w, bc_parcel **reply)
{
	struct sm_caller c;
	bc_parcel *in = raw_request(BINDERC_WIRE_ANDROID_13, w), *r = NULL;
	int ret;

	cr_assert_eq(bc_parcel_new(&r), 0);
	sm_caller_init(&c, 0, pid);
	ret = sm_handle(sm, &c, code, in, r);
	bc_parcel_unref(in);
	bc_parcel_set_position(r, 0);
	*reply = r;
	return ret;
}

/*
 * Android 15 and 16 clients on an Android 14 device.  Code 7 with a name
 * and a binder fits no Android 14 method (isDeclared takes a name only);
 * it is Android 15's unregisterForNotifications and Android 16's
 * registerForNotifications.  Without history the nearest release (15)
 * wins; a caller whose earlier request could only be Android 16's (code 5
 * with addService's arguments) gets the Android 16 reading.
 */
Test(detect, android15_16_clients_on_android14_device)
{
	static const uint32_t add16[] = { H_AIDL, S_S2, OBJ, 0, 8, END }, watch[] = { H_AIDL, S_S1, CB, END },
			      add15[] = { H_AIDL, S_AIFOO, OBJ, 0, 8, END }, ok[] = { 0, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	/* no history: 15's unregisterForNotifications (nothing to remove) */
	cr_assert_eq(call_pid(sm, 501, 7, watch, &reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 0);
	/* an Android 16 client: its registerForNotifications, then its
	 * unregisterForNotifications (code 8, a name and a binder) */
	cr_assert_eq(call_pid(sm, 502, 5, add16, &reply), 0);
	expect_reply(reply, ok, "Android 16 addService");
	bc_parcel_unref(reply);
	cr_assert_eq(call_pid(sm, 502, 7, watch, &reply), 0);
	expect_reply(reply, ok, "Android 16 registerForNotifications");
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 1);
	cr_assert_eq(call_pid(sm, 502, 8, watch, &reply), 0);
	expect_reply(reply, ok, "Android 16 unregisterForNotifications");
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 0);
	/* another caller is not affected */
	cr_assert_eq(call_pid(sm, 501, 7, watch, &reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 0);
	/* the pid now speaks Android 15 only (code 4 with addService's
	 * arguments): another program has it; code 7 is 15's again */
	cr_assert_eq(call_pid(sm, 502, 4, add15, &reply), 0);
	expect_reply(reply, ok, "Android 15 addService");
	bc_parcel_unref(reply);
	cr_expect_not_null(sm_find(sm, "a.IFoo"));
	cr_assert_eq(call_pid(sm, 502, 7, watch, &reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 0);
}

/* What fits the device's release is read in it, whoever sent it: code 6
 * with a name and a binder is Android 14's unregisterForNotifications
 * even from a caller known to speak Android 16 (whose code 6 is a list);
 * and code 2 stays checkService. */
Test(detect, device_release_decides_when_it_fits)
{
	static const uint32_t add16[] = { H_AIDL, S_S2, OBJ, 0, 8, END }, watch[] = { H_AIDL, S_S1, CB, END },
			      look[] = { H_AIDL, S_S1, END }, want14[] = { 0, OBJ, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call_pid(sm, 503, 5, add16, &reply), 0);
	bc_parcel_unref(reply);
	cr_assert_eq(call_pid(sm, 503, 5, watch, &reply), 0); /* 14's registerForNotifications */
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 1);
	cr_assert_eq(call_pid(sm, 503, 6, watch, &reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_cbs, 0);
	cr_assert_eq(call_pid(sm, 503, 2, look, &reply), 0);
	expect_reply(reply, want14, "code 2 from an Android 16 caller on 14");
	bc_parcel_unref(reply);
}

/* What a client of one release registers, a client of every other release
 * (and the legacy dialects) finds, on a device of every release. */
Test(cross, register_in_one_find_in_all)
{
	for (int dev = 11; dev <= 16; dev++) {
		for (int from = 11; from <= 16; from++) {
			struct sm *sm = golden_sm(dev);
			uint32_t add = sm_code_of(from, SM_M_ADD_SERVICE);
			bc_parcel *reply;

			cr_assert_eq(call(sm, 0, add, golden_request(from, golden_of(SM_M_ADD_SERVICE)), &reply), 0);
			bc_parcel_unref(reply);
			cr_assert_not_null(sm_find(sm, "s2"), "device %d: add from %d lost", dev, from);
			if (dev == from || sm_method_of(dev, add) == SM_M_ADD_SERVICE || dev >= 15 || from >= 15) {
				/* found by checkService in every release's numbering
				 * that the device reads as checkService */
				for (int to = 11; to <= 16; to++) {
					uint32_t chk = sm_code_of(to, SM_M_CHECK_SERVICE);
					int m = sm_method_of(dev, chk);
					static const uint32_t r[] = { H_AIDL, S_S2, END }, want[] = { 0, OBJ, END };

					if (m != SM_M_CHECK_SERVICE && m != SM_M_GET_SERVICE)
						continue; /* the device's release decides (see detect) */
					cr_assert_eq(call(sm, 0, chk, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
					expect_reply(reply, want, "cross checkService");
					bc_parcel_unref(reply);
				}
			}
			cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_9, 0, SM_LEGACY_CHECK, "s2"), g_svc,
				     "device %d, added as %d: legacy 9 does not find it", dev, from);
			cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_10, 0, SM_LEGACY_GET, "s2"), g_svc);
		}
	}
}

Test(policy, android_release)
{
	struct sm_policy *p = NULL;
	char err[256];
	struct sm sm;

	cr_assert_eq(sm_policy_parse("android-release 16\n", "t", &p, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(sm_policy_release(p), 16);
	sm_init(&sm, p);
	cr_expect_eq(sm_release(&sm), 16);
	sm.release = 12; /* the command line wins */
	cr_expect_eq(sm_release(&sm), 12);
	sm_fini(&sm);
	cr_expect_eq(sm_policy_parse("android-release 10\n", "t", &p, err, sizeof(err)), -EINVAL);
	cr_expect_eq(sm_policy_parse("android-release 17\n", "t", &p, err, sizeof(err)), -EINVAL);
	cr_assert_eq(sm_policy_new_default(&p), 0);
	sm_init(&sm, p);
	cr_expect_eq(sm_release(&sm), 14);
	sm_fini(&sm);
}

/* ---- Android 15's variants ----------------------------------------------------
 *
 * android-15.0.0_r6 and r20 on number the methods as "15" does, but their
 * getService2 and checkService both answer the Service union: first
 * { @nullable IBinder binder; IBinder accessor }, later
 * { ServiceWithMetadata serviceWithMetadata; IBinder accessor }.  A union
 * is written as its tag then the member, with no size. */
#define S_S9 2u, 0x00390073u, 0x00000000u

static void golden_15_variant(int shape, const char *name, const uint32_t *found, const uint32_t *absent)
{
	static const uint32_t look_s1[] = { H_AIDL, S_S1, END }, look_s9[] = { H_AIDL, S_S9, END };
	static const uint32_t plain[] = { 0, OBJ, END };
	bc_parcel *reply;
	char what[96];

	g_shape = shape;
	/* every other method exactly as "15" */
	for (uint32_t code = 1; code <= SM_MAX_CODE; code++) {
		int m = sm_method_of(15, code);

		if (m != SM_M_NONE && m != SM_M_GET_SERVICE2 && m != SM_M_CHECK_SERVICE)
			run_golden(15, code, golden_of(m));
	}
	for (uint32_t code = 2; code <= 3; code++) {
		snprintf(what, sizeof(what), "%s code %u found", name, code);
		cr_assert_eq(call(golden_sm(15), 0, code, raw_request(BINDERC_WIRE_ANDROID_13, look_s1), &reply), 0);
		expect_reply(reply, found, what);
		bc_parcel_unref(reply);
		snprintf(what, sizeof(what), "%s code %u absent", name, code);
		cr_assert_eq(call(golden_sm(15), 0, code, raw_request(BINDERC_WIRE_ANDROID_13, look_s9), &reply), 0);
		expect_reply(reply, absent, what);
		bc_parcel_unref(reply);
	}
	/* getService stays a plain binder */
	cr_assert_eq(call(golden_sm(15), 0, 1, raw_request(BINDERC_WIRE_ANDROID_13, look_s1), &reply), 0);
	expect_reply(reply, plain, name);
	bc_parcel_unref(reply);
	g_shape = SM_UNION_DEFAULT;
}

/* status, Service non-null, tag 0 (binder), the binder */
Test(golden, android_15_r6)
{
	static const uint32_t found[] = { 0, 1, 0, OBJ, END }, absent[] = { 0, 1, 0, NOBJ, END };

	golden_15_variant(SM_UNION_15_R6, "15-r6", found, absent);
}

/* status, Service non-null, tag 0 (serviceWithMetadata), parcelable
 * non-null, size 36, binder, isLazyService */
Test(golden, android_15_r20)
{
	static const uint32_t found[] = { 0, 1, 0, 1, 36, OBJ, 0, END }, absent[] = { 0, 1, 0, 1, 36, NOBJ, 0, END };

	golden_15_variant(SM_UNION_15_R20, "15-r20", found, absent);
}

/* The variants change only Android 15's answers: on a 15-r6 device, an
 * Android 16 checkService2 (code 4 with a name only; 15's code 4 is
 * addService) gets 16's union, and on a 14 device an Android 15
 * checkService (code 3, name only) gets a plain binder. */
Test(detect, android15_variant_applies_to_android15_requests_only)
{
	static const uint32_t look[] = { H_AIDL, S_S1, END }, meta[] = { 0, 1, 0, 1, 36, OBJ, 0, END },
			      plain[] = { 0, OBJ, END };
	bc_parcel *reply;

	g_shape = SM_UNION_15_R6;
	cr_assert_eq(call(golden_sm(15), 0, 4, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, meta, "16 checkService2 on 15-r6");
	bc_parcel_unref(reply);
	cr_assert_eq(call(golden_sm(14), 0, 3, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, plain, "15 checkService on a 14 device given shape r6");
	bc_parcel_unref(reply);
	g_shape = SM_UNION_DEFAULT;
}

Test(policy, android_release_15_variants)
{
	static const char *const bad[] = { "15-r7", "15r6", "16-r6", "15-", "r6", "15-R6", "014" };
	struct sm_policy *p = NULL;
	char err[256];
	struct sm sm;
	int rel, shape;

	cr_assert_eq(sm_policy_parse("android-release 15-r20\n", "t", &p, err, sizeof(err)), 0, "%s", err);
	cr_expect_eq(sm_policy_release(p), 15);
	cr_expect_eq(sm_policy_union_shape(p), SM_UNION_15_R20);
	sm_init(&sm, p);
	cr_expect_eq(sm_release(&sm), 15);
	cr_expect_eq(sm_union_shape(&sm), SM_UNION_15_R20);
	/* the command line's release comes with its own variant */
	sm.release = 15;
	sm.shape = SM_UNION_15_R6;
	cr_expect_eq(sm_union_shape(&sm), SM_UNION_15_R6);
	sm.release = 16;
	cr_expect_eq(sm_union_shape(&sm), SM_UNION_DEFAULT, "only 15 has variants");
	sm_fini(&sm);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[64];

		snprintf(text, sizeof(text), "android-release %s\n", bad[i]);
		cr_expect_eq(sm_policy_parse(text, "t", &p, err, sizeof(err)), -EINVAL, "'%s' accepted", bad[i]);
		cr_expect_eq(sm_parse_release(bad[i], &rel, &shape), -EINVAL);
	}
	cr_assert_eq(sm_parse_release("15-r6", &rel, &shape), 0);
	cr_expect_eq(rel, 15);
	cr_expect_eq(shape, SM_UNION_15_R6);
	cr_expect_str_eq(sm_release_name(rel, shape), "15-r6");
	cr_expect_str_eq(sm_release_name(11, SM_UNION_DEFAULT), "11");
}

/* ---- checkService2 (Android 16, code 4) ---------------------------------------- */

/* isLazyService once the service registered a client callback. */
Test(check_service2, lazy_flag)
{
	static const uint32_t ccb[] = { H_AIDL, S_S1, OBJ, CB, END }, look[] = { H_AIDL, S_S1, END },
			      ok[] = { 0, END }, eager[] = { 0, 1, 0, 1, 36, OBJ, 0, END },
			      lazy[] = { 0, 1, 0, 1, 36, OBJ, 1, END };
	struct sm *sm = golden_sm(16);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, eager, "checkService2 before registerClientCallback");
	bc_parcel_unref(reply);
	cr_assert_eq(call(sm, 0, 14, raw_request(BINDERC_WIRE_ANDROID_13, ccb), &reply), 0);
	expect_reply(reply, ok, "registerClientCallback");
	bc_parcel_unref(reply);
	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, lazy, "checkService2 of a lazy service");
	bc_parcel_unref(reply);
}

/* Absent: OK and the union with a null binder, as Android ("for legacy
 * reasons" no exception); nothing is started (checkService2 never is). */
Test(check_service2, absent)
{
	static const uint32_t look[] = { H_AIDL, S_S9, END }, want[] = { 0, 1, 0, 1, 36, NOBJ, 0, END };
	struct sm *sm = golden_sm(16);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, want, "checkService2 of an absent name");
	bc_parcel_unref(reply);
	cr_expect_eq(sm->n_svc, 1);
}

/* Denied by the policy: the same answer as absent (the caller cannot tell
 * a hidden service from a missing one), while root still finds it. */
Test(check_service2, denied_reads_as_absent)
{
	struct sm *sm = new_sm("deny find s1 uid:1000\nallow find * *\nallow add * root\nandroid-release 16\n");
	static const uint32_t look[] = { H_AIDL, S_S1, END }, hidden[] = { 0, 1, 0, 1, 36, NOBJ, 0, END },
			      found[] = { 0, 1, 0, 1, 36, OBJ, 0, END };
	struct sm_caller c;
	bc_parcel *reply;

	if (!g_svc) {
		g_svc = new_service();
		g_cb = new_service();
	}
	sm_caller_init(&c, 0, 1234);
	cr_assert_eq(sm_add(sm, "s1", g_svc, &c, false, BINDERC_SM_DUMP_DEFAULT), 0);
	cr_assert_eq(call(sm, 1000, 4, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, hidden, "checkService2 denied");
	bc_parcel_unref(reply);
	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_13, look), &reply), 0);
	expect_reply(reply, found, "checkService2 by root");
	bc_parcel_unref(reply);
	sm_fini(sm);
}

/* ---- malformed legacy names --------------------------------------------------- */

/* Each refused (a transaction error, or -EINVAL for a well-formed but
 * invalid name), and nothing registered: a name of 128 characters, a lone
 * surrogate (not UTF-16), an embedded NUL ("s\0x", which must not become
 * "s"), a length past the end of the parcel, and a String16 whose
 * terminator is not zero. */
Test(strict, legacy_malformed_names_change_nothing)
{
	static const uint32_t lone_surrogate[] = { H_10, 2u, 0x0073d800u, 0, OBJ, 0, 8, END };
	static const uint32_t embedded_nul[] = { H_10, 3u, 0x00000073u, 0x00000078u, OBJ, 0, 8, END };
	static const uint32_t past_end[] = { H_10, 200u, 0x00310073u, 0, END };
	static const uint32_t no_terminator[] = { H_10, 2u, 0x00310073u, 0x00410041u, OBJ, 0, 8, END };
	static const uint32_t *const bad[] = { lone_surrogate, embedded_nul, past_end, no_terminator };
	static const char *const what[] = { "lone surrogate", "embedded NUL", "length past the end",
					    "no terminator" };
	char long_name[SM_NAME_MAX + 2];
	struct sm *sm;
	bc_parcel *reply;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (uint32_t code = 1; code <= 3; code++) {
			char w[64];

			snprintf(w, sizeof(w), "legacy code %u, %s", code, what[i]);
			sm = golden_sm(14);
			cr_expect_lt(call(sm, 0, code, raw_request(BINDERC_WIRE_ANDROID_10, bad[i]), &reply), 0,
				     "%s accepted", w);
			bc_parcel_unref(reply);
			cr_expect_eq(sm->n_svc, 1, "%s changed the registry", w);
			cr_expect_null(sm_find(sm, "s"), "%s", w);
		}
	}
	memset(long_name, 'a', SM_NAME_MAX + 1);
	long_name[SM_NAME_MAX + 1] = 0;
	sm = golden_sm(14);
	cr_expect_eq(legacy_add(sm, BINDERC_WIRE_ANDROID_9, 0, long_name, g_svc), -EINVAL);
	cr_expect_eq(sm->n_svc, 1);
	long_name[SM_NAME_MAX] = 0; /* 127: Android's limit, accepted */
	cr_expect_eq(legacy_add(sm, BINDERC_WIRE_ANDROID_9, 0, long_name, g_svc), 0);
	cr_expect_eq(sm->n_svc, 2);
}

/* ---- the dialect table (sm_protocol.h), as the client reads it ------------ */

/* The client opens a reply in its request's wire.  It used to read every
 * AIDL reply as Android 13's, so android-11 and android-12 replies were
 * read in a wire that was not theirs (harmless only while the stability
 * word is read leniently: Android 12 writes Category words). */
Test(dialect, client_reads_replies_in_the_request_wire)
{
	for (size_t i = 0; i < sizeof(sm_dialects) / sizeof(sm_dialects[0]); i++) {
		const struct sm_dialect *d = &sm_dialects[i];
		bc_parcel *reply = NULL;

		cr_assert_eq(bc_parcel_new(&reply), 0);
		cr_assert_eq(bc_parcel_set_wire(reply, d->wire, BINDERC_PARTITION_SYSTEM), 0);
		if (d->status_reply)
			cr_assert_eq(bc_parcel_write_status(reply, NULL), 0);
		cr_assert_eq(bc_parcel_write_int32(reply, 7), 0);
		/* as a reply arrives: in the process's default wire, at 0 */
		cr_assert_eq(bc_parcel_set_wire(reply, BINDERC_WIRE_DEFAULT, BINDERC_PARTITION_SYSTEM), 0);
		cr_assert_eq(bc_parcel_set_position(reply, 0), 0);
		cr_assert_eq(bc__sm_open_reply(d, reply), 0, "%s", d->name);
		cr_expect_eq(bc_parcel_get_wire(reply), d->wire, "%s: reply read in wire %d, request in %d", d->name,
			     bc_parcel_get_wire(reply), d->wire);
		cr_expect_eq(read_i32(reply), 7, "%s: past the status", d->name);
		bc_parcel_unref(reply);
	}
}

/* Each dialect is found by its name and its enum, and its code table is
 * the daemon's: the code the client sends for a method is read back as
 * that method. */
Test(dialect, names_codes_and_methods_agree)
{
	cr_expect_eq(sm_dialect_of(BINDERC_SM_DIALECT_AIDL), sm_dialect_of(SM_RELEASE_DEFAULT));
	cr_expect_eq(sm_dialect_named("aidl"), sm_dialect_of(BINDERC_SM_DIALECT_AIDL));
	cr_expect_null(sm_dialect_of(BINDERC_SM_DIALECT_DEFAULT));
	cr_expect_null(sm_dialect_named("android-17"));
	for (size_t i = 0; i < sizeof(sm_dialects) / sizeof(sm_dialects[0]); i++) {
		const struct sm_dialect *d = &sm_dialects[i];

		cr_expect_eq(sm_dialect_named(d->name), d, "%s", d->name);
		cr_expect_eq(sm_dialect_of(d->dialect), d, "%s", d->name);
		cr_expect_neq(sm_dialect_code(d, SM_M_GET_SERVICE), 0u, "%s", d->name);
		for (int m = SM_M_NONE + 1; m < SM_M_COUNT; m++) {
			uint32_t code = sm_dialect_code(d, m);

			if (code)
				cr_expect_eq(sm_dialect_method(d, code), m, "%s: method %d", d->name, m);
			if (d->release)
				cr_expect_eq(code, sm_code_of(d->release, m), "%s: method %d", d->name, m);
		}
	}
}

/* ---- declared instances and stability ---------------------------------------
 *
 * The "declare" lines stand for Android's VINTF manifest: Android 14's
 * ServiceManager.cpp answers isDeclared, getDeclaredInstances,
 * updatableViaApex, getUpdatableNames and getConnectionInfo from it and
 * refuses to register a binder of VINTF stability under an undeclared
 * name (EX_ILLEGAL_ARGUMENT "VINTF declaration error.").
 */

#define DECLS                                                                                  \
	"declare org.ex.IFoo/default updatable-via-apex com.ex.foo ip 192.0.2.7 port 5555\n"  \
	"declare org.ex.IFoo/second updatable-via-apex com.ex.foo\n"                           \
	"declare org.ex.IFoo/hidden\n"                                                         \
	"declare org.ex.IBar/default ip 2001:db8::1 port 7\n"                                  \
	"deny find org.ex.IFoo/hidden uid:1000\n"                                              \
	"deny find org.ex.IBar/* uid:1001\n"

static bc_binder *service_of(int level)
{
	bc_binder *b = new_service();

	cr_assert_eq(bc_binder_set_stability(b, level), 0);
	return b;
}

Test(declared, policy_attributes)
{
	struct sm_policy *p = NULL;
	const struct sm_decl *d;
	char err[256], **v = NULL;
	size_t n = 0;

	cr_assert_eq(sm_policy_parse(DECLS, "t", &p, err, sizeof(err)), 0, "%s", err);
	d = sm_policy_declaration(p, "org.ex.IFoo/default");
	cr_assert_not_null(d);
	cr_expect_str_eq(d->apex, "com.ex.foo");
	cr_expect_str_eq(d->ip, "192.0.2.7");
	cr_expect_eq(d->port, 5555);
	d = sm_policy_declaration(p, "org.ex.IFoo/hidden");
	cr_assert_not_null(d);
	cr_expect_null(d->apex);
	cr_expect_null(d->ip);
	cr_expect_null(sm_policy_declaration(p, "org.ex.IFoo"));
	cr_assert_eq(sm_policy_updatable_names(p, "com.ex.foo", &v, &n), 0);
	cr_assert_eq(n, 2);
	cr_expect_str_eq(v[0], "org.ex.IFoo/default");
	cr_expect_str_eq(v[1], "org.ex.IFoo/second");
	bc_strv_free(v, n);
	cr_assert_eq(sm_policy_updatable_names(p, "com.ex", &v, &n), 0);
	cr_expect_eq(n, 0);
	bc_strv_free(v, n);
	sm_policy_free(p);
}

Test(declared, vintf_binder_only_under_a_declared_name)
{
	struct sm *sm = new_sm("declare org.ex.IFoo/default\ndeclare org.ex.IFoo/second\n");
	bc_binder *vintf = service_of(BINDERC_STABILITY_VINTF), *sys = service_of(BINDERC_STABILITY_SYSTEM);
	bc_binder *vnd = service_of(BINDERC_STABILITY_VENDOR), *plain = new_service();

	cr_expect_eq(aidl_add(sm, 0, "org.ex.IFoo/default", vintf, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 0, SM_AIDL_CHECK_SERVICE, "org.ex.IFoo/default"), vintf);
	/* undeclared: refused, nothing registered, the reason in the log */
	last_log[0] = '\0';
	cr_expect_eq(aidl_add(sm, 0, "org.ex.IFoo/third", vintf, BINDERC_SM_DUMP_DEFAULT),
		     BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_null(sm_find(sm, "org.ex.IFoo/third"));
	cr_expect(strstr(last_log, "org.ex.IFoo/third") && strstr(last_log, "not declared"), "log: %s", last_log);
	cr_expect(strstr(last_log, "org.ex.IFoo/default, org.ex.IFoo/second"), "log: %s", last_log);
	cr_expect_eq(aidl_add(sm, 0, "other.IBaz/default", vintf, BINDERC_SM_DUMP_DEFAULT),
		     BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect(strstr(last_log, "no other instance"), "log: %s", last_log);
	/* legacy clients get the transaction status of a bad argument */
	{
		bc_parcel *in = req(BINDERC_WIRE_ANDROID_10), *reply;

		bc_parcel_write_string16(in, "undeclared.vintf");
		bc_parcel_write_binder(in, vintf);
		bc_parcel_write_int32(in, 0);
		bc_parcel_write_int32(in, BINDERC_SM_DUMP_DEFAULT);
		cr_expect_eq(call(sm, 0, SM_LEGACY_ADD, in, &reply), -EINVAL);
		bc_parcel_unref(reply);
		cr_expect_null(sm_find(sm, "undeclared.vintf"));
	}
	/* what does not include VINTF needs no declaration */
	cr_expect_eq(aidl_add(sm, 0, "org.ex.IFoo/third", sys, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_expect_eq(aidl_add(sm, 0, "vendor.thing", vnd, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_expect_eq(aidl_add(sm, 0, "plain.thing", plain, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	/* the policy comes first, as Android's SELinux check does */
	cr_expect_eq(aidl_add(sm, 1000, "org.ex.IFoo/none", vintf, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_SECURITY);
	sm_fini(sm);
	bc_binder_unref(vintf);
	bc_binder_unref(sys);
	bc_binder_unref(vnd);
	bc_binder_unref(plain);
}

/* An AIDL request of one String argument from @uid; the reply after its
 * status word (which must be @ex). */
static bc_parcel *query(struct sm *sm, uid_t uid, uint32_t code, const char *s, int32_t ex)
{
	bc_parcel *in = req(BINDERC_WIRE_ANDROID_13), *reply;

	bc_parcel_write_string16(in, s);
	cr_assert_eq(call(sm, uid, code, in, &reply), 0, "code %u '%s'", code, s);
	cr_assert_eq(read_i32(reply), ex, "code %u '%s'", code, s);
	return reply;
}

/* A String[] query from @uid that must answer EX_NONE and no names. */
static void expect_no_names(struct sm *sm, uid_t uid, uint32_t code, const char *s)
{
	bc_parcel *reply = query(sm, uid, code, s, 0);
	char **v = NULL;
	size_t n = 99;

	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0, "code %u '%s'", code, s);
	cr_expect_eq(n, 0, "code %u '%s': %zu names", code, s, n);
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_strv_free(v, n);
	bc_parcel_unref(reply);
}

Test(declared, queries_answer_from_the_declarations)
{
	struct sm *sm = new_sm(DECLS);
	bc_parcel *reply;
	char *s = NULL, **v = NULL;
	size_t n = 0;
	int32_t size;
	bool yes;

	/* Android 14 codes (the default release) */
	reply = query(sm, 1000, SM_AIDL_IS_DECLARED, "org.ex.IFoo/second", 0);
	cr_assert_eq(bc_parcel_read_bool(reply, &yes), 0);
	cr_expect(yes);
	bc_parcel_unref(reply);
	bc_parcel_unref(query(sm, 1000, SM_AIDL_IS_DECLARED, "org.ex.IFoo/hidden", BINDERC_EX_SECURITY));

	reply = query(sm, 1000, SM_AIDL_GET_DECLARED_INSTANCES, "org.ex.IFoo", 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 2);
	cr_expect_str_eq(v[0], "default");
	cr_expect_str_eq(v[1], "second");
	bc_strv_free(v, n);
	bc_parcel_unref(reply);
	/* declared, but none the caller may find: EX_SECURITY, as Android */
	bc_parcel_unref(query(sm, 1001, SM_AIDL_GET_DECLARED_INSTANCES, "org.ex.IBar", BINDERC_EX_SECURITY));
	expect_no_names(sm, 1001, SM_AIDL_GET_DECLARED_INSTANCES, "org.ex.INone");

	reply = query(sm, 1000, SM_AIDL_UPDATABLE_VIA_APEX, "org.ex.IFoo/default", 0);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_str_eq(s, "com.ex.foo");
	free(s);
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_parcel_unref(reply);
	reply = query(sm, 1000, SM_AIDL_UPDATABLE_VIA_APEX, "org.ex.IBar/default", 0);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_null(s);
	bc_parcel_unref(reply);
	bc_parcel_unref(query(sm, 1000, SM_AIDL_UPDATABLE_VIA_APEX, "org.ex.IFoo/hidden", BINDERC_EX_SECURITY));

	/* uid 1000 may not find IFoo/hidden, which is not updatable anyway */
	reply = query(sm, 1000, SM_AIDL_GET_UPDATABLE_NAMES, "com.ex.foo", 0);
	cr_assert_eq(bc_parcel_read_string16_array(reply, &v, &n), 0);
	cr_assert_eq(n, 2);
	cr_expect_str_eq(v[0], "org.ex.IFoo/default");
	cr_expect_str_eq(v[1], "org.ex.IFoo/second");
	bc_strv_free(v, n);
	bc_parcel_unref(reply);

	/* ConnectionInfo { String ipAddress; int port; }: non-null, size,
	 * String16, int32 */
	reply = query(sm, 1000, SM_AIDL_GET_CONNECTION_INFO, "org.ex.IBar/default", 0);
	cr_expect_eq(read_i32(reply), 1);
	size = read_i32(reply);
	cr_expect_eq(size, 4 + 4 + 24 + 4, "size %d", size); /* itself, len 11, 12 units, port */
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_str_eq(s, "2001:db8::1");
	free(s);
	cr_expect_eq(read_i32(reply), 7);
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_parcel_unref(reply);
	reply = query(sm, 1000, SM_AIDL_GET_CONNECTION_INFO, "org.ex.IFoo/second", 0);
	cr_expect_eq(read_i32(reply), 0); /* declared without ip and port: null */
	bc_parcel_unref(reply);
	bc_parcel_unref(query(sm, 1001, SM_AIDL_GET_CONNECTION_INFO, "org.ex.IBar/default", BINDERC_EX_SECURITY));
	sm_fini(sm);
}

/* The stability word after the first binder of @reply's data at @off. */
static uint32_t word_at(bc_parcel *reply, size_t off)
{
	uint32_t w = 0;

	cr_assert_geq(bc_parcel_size(reply), off + 4);
	memcpy(&w, (const unsigned char *)bc_parcel_data(reply) + off, 4);
	return w;
}

/* checkService("s1") on a device of @release, asked in @wire: the word
 * after the object in the reply. */
static uint32_t check_word(int release, int wire)
{
	static const uint32_t r[] = { H_AIDL, S_S1, END };
	struct sm *sm = golden_sm(release);
	bc_parcel *reply;
	uint32_t w;

	cr_assert_eq(call(sm, 0, 2, raw_request(wire, r), &reply), 0);
	w = word_at(reply, 4 + 24);
	bc_parcel_unref(reply);
	return w;
}

Test(declared, reply_stability_form_follows_the_release)
{
	/* Android 12 writes Category {1, 0, 0, level}, the others the level */
	cr_expect_eq(check_word(12, BINDERC_WIRE_ANDROID_12), 0x0c000001u);
	cr_expect_eq(check_word(14, BINDERC_WIRE_ANDROID_13), 0x0000000cu);
	cr_expect_eq(check_word(13, BINDERC_WIRE_ANDROID_13), 0x0000000cu);
	cr_expect_eq(check_word(11, BINDERC_WIRE_ANDROID_11), 0x0000000cu);
}

Test(declared, category_words_in_a_request_are_answered_alike)
{
	/* A callback registered in Category form on a 14 device is notified
	 * in that form. */
	static const uint32_t r[] = { H_AIDL, S_S1, CB, END }, want[] = { 0, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 5, raw_request(BINDERC_WIRE_ANDROID_12, r), &reply), 0);
	expect_reply(reply, want, "registerForNotifications in Category form");
	bc_parcel_unref(reply);
	cr_assert_eq(sm->n_cbs, 1);
	cr_expect_eq(sm->cbs[0]->wire, BINDERC_WIRE_ANDROID_12);
	/* and in raw form, raw */
	sm = golden_sm(14);
	cr_assert_eq(call(sm, 0, 5, raw_request(BINDERC_WIRE_ANDROID_13, r), &reply), 0);
	bc_parcel_unref(reply);
	cr_assert_eq(sm->n_cbs, 1);
	cr_expect_eq(sm->cbs[0]->wire, BINDERC_WIRE_ANDROID_13);
}

/* allowIsolated true followed by one trailing word leaves three words
 * after the object too; the word 1 (a boolean, or the Category of level 0)
 * is not taken for libgbinder's extra word. */
Test(declared, allow_isolated_true_is_not_an_extra_word)
{
	static const uint32_t r[] = { H_AIDL, S_S2, OBJ, 1, 8, 0x12345678u, END }, want[] = { 0, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_12, r), &reply), 0);
	expect_reply(reply, want, "addService, allowIsolated, trailing word");
	bc_parcel_unref(reply);
	cr_assert_not_null(sm_find(sm, "s2"));
	cr_expect_eq(sm_find(sm, "s2")->allow_isolated, true);
	cr_expect_eq(sm_find(sm, "s2")->dump_flags, 8);
}

/* checkService("s1") by @pid, asked in the raw form: the word after the
 * object in the reply. */
static uint32_t check_word_by(struct sm *sm, pid_t pid)
{
	static const uint32_t r[] = { H_AIDL, S_S1, END };
	bc_parcel *in = raw_request(BINDERC_WIRE_ANDROID_13, r), *reply = NULL;
	struct sm_caller c;
	uint32_t w;

	cr_assert_eq(bc_parcel_new(&reply), 0);
	sm_caller_init(&c, 0, pid);
	cr_assert_eq(sm_handle(sm, &c, 2, in, reply), 0);
	w = word_at(reply, 4 + 24);
	bc_parcel_unref(in);
	bc_parcel_unref(reply);
	return w;
}

/* A caller that sent a binder in Category form gets its lookups (which
 * carry no binder) answered in that form too, until it sends one in the
 * raw form; other callers are not affected. */
Test(declared, category_callers_are_remembered)
{
	static const uint32_t watch[] = { H_AIDL, S_S1, CB, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_expect_eq(check_word_by(sm, 1234), 0x0000000cu);
	cr_assert_eq(call(sm, 0, 5, raw_request(BINDERC_WIRE_ANDROID_12, watch), &reply), 0); /* pid 1234 */
	bc_parcel_unref(reply);
	cr_expect_eq(check_word_by(sm, 1234), 0x0c000001u);
	cr_expect_eq(check_word_by(sm, 4321), 0x0000000cu);
	/* unregister in the raw form: forgotten */
	cr_assert_eq(call(sm, 0, 6, raw_request(BINDERC_WIRE_ANDROID_13, watch), &reply), 0);
	bc_parcel_unref(reply);
	cr_expect_eq(check_word_by(sm, 1234), 0x0000000cu);
}

/* libgbinder's aidl4 binder-bridge forwards a binder it got elsewhere: its
 * own word is the level it was given (here VENDOR, Category 0x03000001),
 * then the service manager's extra 0x0c000001.  The extra word is skipped
 * although it differs from the object's, so the service is registered
 * with priority DEFAULT and listed. */
Test(declared, forwarded_binder_from_aidl4_is_listed)
{
	static const uint32_t r[] = { H_AIDL, S_S2, CB, 0x0c000001u, 0, 8, END }, want[] = { 0, END };
	static const uint32_t list[] = { H_AIDL, 15, END }, listed[] = { 0, 2, S_S1, S_S2, END };
	struct sm *sm = golden_sm(14);
	bc_parcel *reply;

	cr_assert_eq(bc_binder_set_stability(g_cb, BINDERC_STABILITY_VENDOR), 0);
	cr_assert_eq(call(sm, 0, 3, raw_request(BINDERC_WIRE_ANDROID_12, r), &reply), 0);
	cr_assert_eq(bc_binder_set_stability(g_cb, 0), 0);
	expect_reply(reply, want, "forwarded addService");
	bc_parcel_unref(reply);
	cr_assert_not_null(sm_find(sm, "s2"));
	cr_expect_eq(sm_find(sm, "s2")->allow_isolated, false);
	cr_expect_eq(sm_find(sm, "s2")->dump_flags, 8);
	cr_assert_eq(call(sm, 0, 4, raw_request(BINDERC_WIRE_ANDROID_12, list), &reply), 0);
	expect_reply(reply, listed, "listServices after the forwarded add");
	bc_parcel_unref(reply);
}

/* ---- vnd mode: Android's vndservicemanager ------------------------------- */

/*
 * vndservicemanager is ServiceManager.cpp built with VENDORSERVICEMANAGER
 * (Android 11 to 16 alike): no libvintf, so addService skips
 * meetsDeclarationRequirements and the declaration queries answer after
 * the find check as if the manifest were empty.  The declare lines of our
 * policy are that manifest; vnd mode ignores them.
 */

Test(vnd, vintf_binder_registered_without_declaration)
{
	struct sm *sm = new_sm("declare org.ex.IFoo/default\n"); /* and: only root may add */
	bc_binder *vintf = service_of(BINDERC_STABILITY_VINTF);

	/* the same request the system mode refuses ... */
	cr_expect_eq(aidl_add(sm, 0, "org.ex.IFoo/third", vintf, BINDERC_SM_DUMP_DEFAULT),
		     BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_null(sm_find(sm, "org.ex.IFoo/third"));
	/* ... registers in vnd mode, in both dialects, declared or not */
	sm->vnd = true;
	cr_expect_eq(aidl_add(sm, 0, "org.ex.IFoo/third", vintf, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_expect_eq(lookup(sm, BINDERC_WIRE_ANDROID_13, 0, SM_AIDL_CHECK_SERVICE, "org.ex.IFoo/third"), vintf);
	cr_expect_eq(aidl_add(sm, 0, "no.slash.name", vintf, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	cr_expect_eq(legacy_add(sm, BINDERC_WIRE_ANDROID_10, 0, "undeclared.vintf", vintf), 0);
	cr_expect_not_null(sm_find(sm, "undeclared.vintf"));
	cr_expect_eq(aidl_add(sm, 0, "org.ex.IFoo/default", vintf, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_NONE);
	/* the policy still applies, as Android's vnd SELinux check does */
	cr_expect_eq(aidl_add(sm, 1000, "org.ex.IFoo/fourth", vintf, BINDERC_SM_DUMP_DEFAULT), BINDERC_EX_SECURITY);
	cr_expect_null(sm_find(sm, "org.ex.IFoo/fourth"));
	sm_fini(sm);
	bc_binder_unref(vintf);
}

Test(vnd, declaration_queries_answer_nothing)
{
	struct sm *sm = new_sm(DECLS);
	bc_parcel *reply;
	char *s = NULL;
	bool yes = true;

	sm->vnd = true;
	/* isDeclared: false for a declared name; EX_SECURITY before that */
	reply = query(sm, 1000, SM_AIDL_IS_DECLARED, "org.ex.IFoo/second", 0);
	cr_assert_eq(bc_parcel_read_bool(reply, &yes), 0);
	cr_expect_not(yes);
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_parcel_unref(reply);
	bc_parcel_unref(query(sm, 1000, SM_AIDL_IS_DECLARED, "org.ex.IFoo/hidden", BINDERC_EX_SECURITY));

	/* getDeclaredInstances: empty and EX_NONE, also where the system mode
	 * says EX_SECURITY (declared but all hidden): no instance to hide */
	expect_no_names(sm, 1000, SM_AIDL_GET_DECLARED_INSTANCES, "org.ex.IFoo");
	expect_no_names(sm, 1001, SM_AIDL_GET_DECLARED_INSTANCES, "org.ex.IBar");

	/* updatableViaApex: null; EX_SECURITY for a hidden name */
	reply = query(sm, 1000, SM_AIDL_UPDATABLE_VIA_APEX, "org.ex.IFoo/default", 0);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_null(s);
	free(s);
	bc_parcel_unref(reply);
	bc_parcel_unref(query(sm, 1000, SM_AIDL_UPDATABLE_VIA_APEX, "org.ex.IFoo/hidden", BINDERC_EX_SECURITY));

	/* getUpdatableNames: empty */
	expect_no_names(sm, 1000, SM_AIDL_GET_UPDATABLE_NAMES, "com.ex.foo");

	/* getConnectionInfo: null (declared with ip and port); EX_SECURITY
	 * for a hidden name */
	reply = query(sm, 1000, SM_AIDL_GET_CONNECTION_INFO, "org.ex.IBar/default", 0);
	cr_expect_eq(read_i32(reply), 0);
	cr_expect_eq(bc_parcel_remaining(reply), 0);
	bc_parcel_unref(reply);
	bc_parcel_unref(query(sm, 1001, SM_AIDL_GET_CONNECTION_INFO, "org.ex.IBar/default", BINDERC_EX_SECURITY));

	/* the same daemon, back in system mode, answers from them again */
	sm->vnd = false;
	reply = query(sm, 1000, SM_AIDL_IS_DECLARED, "org.ex.IFoo/second", 0);
	cr_assert_eq(bc_parcel_read_bool(reply, &yes), 0);
	cr_expect(yes);
	bc_parcel_unref(reply);
	sm_fini(sm);
}
