// SPDX-License-Identifier: MIT
/*
 * Tracepoints of the transaction path, read back through tracefs.
 *
 * binderc's events are trace system "binderc", each named like mainline's
 * binder event with the prefix binderc_ (binder:binder_transaction is
 * binderc:binderc_transaction) and with mainline's field names, so that
 * a trace-cmd or perfetto habit carries over.  The same test runs on
 * mainline's own "binder" events, which pins the names: what it asserts
 * of binderc it asserts of mainline, apart from the rows of
 * differences.h (binderc_transaction_failed has no mainline twin).
 *
 * The events go to a trace instance of this test's own
 * (instances/bt-trace-PID), so nothing else on the machine is disturbed
 * and nothing else lands in the buffer read here.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

#define TRACE_MAX (4u << 20) /* bytes of trace text read back */
#define LINES_MAX 4096
#define FIELDS_MAX 16

/* x86-64 and arm64 kernel addresses all lie at or above this. */
#define KERNEL_HALF 0xffff800000000000ull

static char tracefs[64];   /* where tracefs is mounted */
static char inst[128];     /* this test's instance directory */
static const char *sys;    /* "binderc" or "binder" */
static const char *prefix; /* "binderc_" or "binder_" */

/* ---- tracefs ------------------------------------------------------------ */

static bool is_tracefs(const char *dir)
{
	char p[96];

	snprintf(p, sizeof(p), "%s/instances", dir);
	return access(p, F_OK) == 0;
}

/* Finds or mounts tracefs; false if this kernel has none. */
static bool find_tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

	for (size_t i = 0; i < 2; i++) {
		if (is_tracefs(dirs[i])) {
			snprintf(tracefs, sizeof(tracefs), "%s", dirs[i]);
			return true;
		}
	}
	if (mount("nodev", dirs[0], "tracefs", 0, NULL) == 0 && is_tracefs(dirs[0])) {
		snprintf(tracefs, sizeof(tracefs), "%s", dirs[0]);
		return true;
	}
	return false;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* The whole file in a malloc'd, NUL-ended buffer (NULL if unreadable). */
static char *read_file(const char *path, size_t max)
{
	char *buf = malloc(max + 1);
	size_t len = 0;
	int fd = open(path, O_RDONLY);

	cr_assert_not_null(buf);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while (len < max) {
		ssize_t n = read(fd, buf + len, max - len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

static bool have_event(const char *event)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/events/%s/%s%s", tracefs, sys, prefix, event);
	return access(p, F_OK) == 0;
}

static void enable_event(const char *event)
{
	char p[384];
	int ret;

	snprintf(p, sizeof(p), "%s/events/%s/%s%s/enable", inst, sys, prefix, event);
	ret = write_file(p, "1");
	cr_assert_eq(ret, 0, "enable %s: %s", p, strerror(-ret));
}

static void trace_setup(void)
{
	char p[256];

	if (bt_driver() == BT_BINDERC) {
		sys = "binderc";
		prefix = "binderc_";
	} else {
		sys = "binder";
		prefix = "binder_";
	}
	if (!find_tracefs())
		cr_skip_test("no tracefs in this kernel (CONFIG_TRACING off?)");
	snprintf(p, sizeof(p), "%s/events/%s", tracefs, sys);
	if (access(p, F_OK)) {
		/* binderc always has its events; a mainline without them is
		 * one built without CONFIG_TRACEPOINTS. */
		cr_assert_neq(bt_driver(), BT_BINDERC, "binderc's trace system missing: %s", p);
		cr_skip_test("mainline's binder has no events here (%s)", p);
	}
	snprintf(inst, sizeof(inst), "%s/instances/bt-trace-%d", tracefs, (int)getpid());
	cr_assert(mkdir(inst, 0700) == 0 || errno == EEXIST, "mkdir %s: %s", inst, strerror(errno));
	fixture_setup();
}

static void trace_teardown(void)
{
	fixture_teardown();
	/* Removing the instance disables its events and frees its buffer. */
	if (inst[0])
		rmdir(inst);
}

/* ---- parsing the text trace ------------------------------------------- */

struct ev {
	char name[64];
	unsigned nfields;
	char key[FIELDS_MAX][24];
	char val[FIELDS_MAX][24];
};

static struct ev evs[LINES_MAX];
static unsigned nevs;

/*
 * One line "task-pid [cpu] flags ts: name: k=v k=v ...".  Words without
 * '=' (mainline's command names, its "from 1:2 to 3:4") are left out.
 */
static void parse_line(char *line)
{
	char *name, *end, *save, *tok;
	struct ev *e;

	if (line[0] == '#' || nevs == LINES_MAX)
		return;
	name = strstr(line, ": ");
	if (!name)
		return;
	name += 2;
	end = strstr(name, ": ");
	if (!end)
		return;
	*end = '\0';
	e = &evs[nevs++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	for (tok = strtok_r(end + 2, " ", &save); tok && e->nfields < FIELDS_MAX; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = '\0';
		snprintf(e->key[e->nfields], sizeof(e->key[0]), "%s", tok);
		snprintf(e->val[e->nfields], sizeof(e->val[0]), "%s", eq + 1);
		e->nfields++;
	}
}

static void read_trace(void)
{
	char p[256], *buf, *line, *save;

	snprintf(p, sizeof(p), "%s/tracing_on", inst);
	cr_assert_eq(write_file(p, "0"), 0);
	snprintf(p, sizeof(p), "%s/trace", inst);
	buf = read_file(p, TRACE_MAX);
	cr_assert_not_null(buf, "read %s", p);
	nevs = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, prefix))
			cr_log_info("%s", line);
		parse_line(line);
	}
	free(buf);
}

static void clear_trace(void)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/trace", inst);
	cr_assert_eq(write_file(p, ""), 0);
	snprintf(p, sizeof(p), "%s/tracing_on", inst);
	cr_assert_eq(write_file(p, "1"), 0);
}

static bool is_event(const struct ev *e, const char *event)
{
	return strncmp(e->name, prefix, strlen(prefix)) == 0 && strcmp(e->name + strlen(prefix), event) == 0;
}

/* A field as a number (0x... hex, else decimal); asserts it is there. */
static long long field(const struct ev *e, const char *key)
{
	for (unsigned i = 0; i < e->nfields; i++)
		if (!strcmp(e->key[i], key))
			return strtoll(e->val[i], NULL, 0);
	cr_assert_fail("%s has no field %s", e->name, key);
	return 0;
}

/* The first @event whose @key is @value, or NULL. */
static const struct ev *find(const char *event, const char *key, long long value)
{
	for (unsigned i = 0; i < nevs; i++)
		if (is_event(&evs[i], event) && field(&evs[i], key) == value)
			return &evs[i];
	return NULL;
}

static unsigned count(const char *event, const char *key, long long value)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nevs; i++)
		if (is_event(&evs[i], event) && field(&evs[i], key) == value)
			n++;
	return n;
}

/* No value of any recorded event looks like a kernel address. */
static void assert_no_kernel_pointers(void)
{
	unsigned checked = 0;

	for (unsigned i = 0; i < nevs; i++) {
		const struct ev *e = &evs[i];

		if (strncmp(e->name, prefix, strlen(prefix)))
			continue;
		for (unsigned f = 0; f < e->nfields; f++) {
			unsigned long long v;

			/* a negative errno is no address */
			if (e->val[f][0] == '-')
				continue;
			v = strtoull(e->val[f], NULL, 0);
			cr_expect_lt(v, KERNEL_HALF, "%s %s=%s looks like a kernel pointer", e->name, e->key[f],
				     e->val[f]);
			checked++;
		}
	}
	cr_assert_gt(checked, 0);
}

/* ---- the tests ----------------------------------------------------------- */

TestSuite(trace, .init = trace_setup, .fini = trace_teardown, .timeout = 120);

/*
 * The format files name mainline's fields with mainline's types, and none
 * of binderc's events has a pointer-typed field or prints with %p.
 */
Test(trace, formats_have_mainline_fields)
{
	static const struct {
		const char *event;
		const char *fields[8];
	} want[] = {
		{ "transaction",
		  { "int debug_id", "int target_node", "int to_proc", "int to_thread", "int reply", "unsigned int code",
		    "unsigned int flags" } },
		{ "transaction_received", { "int debug_id" } },
		{ "transaction_alloc_buf",
		  { "int debug_id", "size_t data_size", "size_t offsets_size", "size_t extra_buffers_size" } },
		{ "transaction_buffer_release", { "int debug_id", "size_t data_size" } },
		{ "transaction_failed_buffer_release", { "int debug_id", "size_t data_size" } },
		{ "command", { "uint32_t cmd" } },
		{ "return", { "uint32_t cmd" } },
		{ "wait_for_work", { "bool proc_work", "bool transaction_stack", "bool thread_todo" } },
		{ "ioctl", { "unsigned int cmd", "unsigned long arg" } },
	};
	char p[512], *fmt;
	DIR *d;
	struct dirent *de;
	unsigned nchecked = 0;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		snprintf(p, sizeof(p), "%s/events/%s/%s%s/format", tracefs, sys, prefix, want[i].event);
		fmt = read_file(p, 65536);
		cr_assert_not_null(fmt, "no event %s%s", prefix, want[i].event);
		for (size_t f = 0; f < 8 && want[i].fields[f]; f++) {
			char decl[64];

			snprintf(decl, sizeof(decl), "field:%s;", want[i].fields[f]);
			cr_expect(strstr(fmt, decl), "%s%s has no %s", prefix, want[i].event, decl);
		}
		free(fmt);
	}
	if (bt_driver() != BT_BINDERC)
		return; /* mainline 6.18's netlink_report keeps a const char * */
	snprintf(p, sizeof(p), "%s/events/%s", tracefs, sys);
	d = opendir(p);
	cr_assert_not_null(d);
	while ((de = readdir(d))) {
		char *line, *save;

		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(p, sizeof(p), "%s/events/%s/%s/format", tracefs, sys, de->d_name);
		fmt = read_file(p, 65536);
		cr_assert_not_null(fmt, "%s", p);
		for (line = strtok_r(fmt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (strstr(line, "field:") && !strstr(line, "common_"))
				cr_expect_null(strchr(line, '*'), "%s: pointer field: %s", de->d_name, line);
			if (strstr(line, "print fmt:"))
				cr_expect_null(strstr(line, "%p"), "%s prints a pointer: %s", de->d_name, line);
		}
		free(fmt);
		nchecked++;
	}
	closedir(d);
	cr_assert_geq(nchecked, 14, "only %u binderc events", nchecked);
}

/*
 * A call and its reply, a oneway and a call to a bad handle, traced: the
 * debug ids tie each transaction to its reception and its buffer, the reply
 * says reply=1 and goes to this thread, and the failure carries the
 * extended error the sender reads back.
 */
Test(trace, call_reply_oneway_failure)
{
	static const char *const events[] = { "transaction", "transaction_received", "transaction_alloc_buf",
					      "transaction_buffer_release", "return" };
	uint64_t payload = 0x1122334455667788ull;
	uint32_t seq = 0, h, bad_code = 0x4321;
	bool failed_event = bt_expected("a transaction_failed event", 0);
	struct binder_extended_error ee;
	struct binder_transaction_data t;
	struct bt_result r;
	const struct ev *call, *reply, *ow, *fail, *e;
	int call_id, reply_id, ow_id;

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		enable_event(events[i]);
	if (failed_event) {
		cr_assert(have_event("transaction_failed"));
		enable_event("transaction_failed");
	}
	h = start_server(NULL);
	clear_trace();

	t = bt_tr(h, C_ECHO, 0, &payload, sizeof(payload), NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_free(&c, r.reply.data.ptr.buffer), 0);

	t = bt_tr(h, C_SEQ, TF_ONE_WAY, &seq, sizeof(seq), NULL, 0);
	cr_assert_eq(bt_oneway(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_TRANSACTION_COMPLETE, "%s", bt_br_name(r.final));
	/* Handled in order: once this answers, the oneway was read and freed
	 * (received: the call, the oneway and this one). */
	cr_assert_eq(srv_get_report(&c, h).received, 3);

	t = bt_tr(77, bad_code, 0, &payload, sizeof(payload), NULL, 0);
	cr_assert_eq(bt_call(&c, &t, &r), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "%s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);

	read_trace();

	/* the call: to the server's proc, any of its threads, a real node */
	call = find("transaction", "code", C_ECHO);
	cr_assert_not_null(call, "no %stransaction for the call", prefix);
	call_id = (int)field(call, "transaction");
	cr_expect_eq(field(call, "reply"), 0);
	cr_expect_eq(field(call, "dest_proc"), s1.pid);
	cr_expect_eq(field(call, "dest_thread"), 0);
	cr_expect_neq(field(call, "dest_node"), 0);
	cr_expect_eq(field(call, "flags") & TF_ONE_WAY, 0);
	cr_expect_eq(count("transaction_received", "transaction", call_id), 1, "call %d received %u times", call_id,
		     count("transaction_received", "transaction", call_id));
	e = find("transaction_alloc_buf", "transaction", call_id);
	cr_assert_not_null(e, "no buffer for call %d", call_id);
	cr_expect_eq(field(e, "data_size"), sizeof(payload));
	cr_expect_eq(field(e, "offsets_size"), 0);
	cr_expect_eq(count("transaction_buffer_release", "transaction", call_id), 1);

	/* the reply: reply=1, back to this very thread, on a new debug id */
	reply = find("transaction", "reply", 1);
	cr_assert_not_null(reply, "no %stransaction with reply=1", prefix);
	reply_id = (int)field(reply, "transaction");
	cr_expect_neq(reply_id, call_id);
	cr_expect_eq(field(reply, "dest_proc"), getpid());
	cr_expect_eq(field(reply, "dest_thread"), gettid());
	cr_expect_eq(field(reply, "dest_node"), 0);
	cr_expect_eq(count("transaction_received", "transaction", reply_id), 1);
	e = find("transaction_alloc_buf", "transaction", reply_id);
	cr_assert_not_null(e, "no buffer for reply %d", reply_id);
	cr_expect_eq(field(e, "data_size"), sizeof(payload));
	cr_expect_eq(count("transaction_buffer_release", "transaction", reply_id), 1);

	/* the oneway */
	ow = find("transaction", "code", C_SEQ);
	cr_assert_not_null(ow, "no %stransaction for the oneway", prefix);
	ow_id = (int)field(ow, "transaction");
	cr_expect_eq(field(ow, "flags") & TF_ONE_WAY, TF_ONE_WAY);
	cr_expect_eq(field(ow, "reply"), 0);
	cr_expect_eq(field(ow, "dest_proc"), s1.pid);
	cr_expect_eq(count("transaction_received", "transaction", ow_id), 1);
	cr_expect_not_null(find("transaction_alloc_buf", "transaction", ow_id));
	cr_expect_eq(count("transaction_buffer_release", "transaction", ow_id), 1);

	/* the failure: no transaction (no target), BR_FAILED_REPLY returned */
	cr_expect_null(find("transaction", "code", bad_code), "a failed lookup has no target");
	cr_expect_null(find("transaction", "transaction", (long long)ee.id));
	cr_expect_geq(count("return", "cmd", BR_FAILED_REPLY), 1, "no BR_FAILED_REPLY return");
	cr_expect_eq(ee.command, BR_FAILED_REPLY);
	if (failed_event) {
		fail = find("transaction_failed", "transaction", (long long)ee.id);
		cr_assert_not_null(fail, "no transaction_failed for debug id %u", ee.id);
		cr_expect_eq(field(fail, "command"), BR_FAILED_REPLY);
		cr_expect_eq(field(fail, "param"), ee.param);
		cr_expect_eq(field(fail, "param"), -EINVAL);
		cr_expect_eq(field(fail, "code"), bad_code);
		cr_expect_eq(field(fail, "reply"), 0);
		cr_expect_eq(field(fail, "dest_proc"), 0);
		cr_expect_eq(field(fail, "data_size"), sizeof(payload));
		cr_expect_eq(count("transaction_failed", "command", BR_FAILED_REPLY), 1, "one failure, one event");
	}
	assert_no_kernel_pointers();
}

/* A refused reply: the failure says reply=1 and names the caller. */
Test(trace, failed_reply)
{
	uint8_t junk[24] = { 0 };
	binder_size_t off = 0;
	struct binder_transaction_data t;
	struct binder_extended_error ee;
	struct bt_conn rx;
	struct bt_result r;
	struct bt_br br;
	const struct ev *fail;

	if (!bt_expected("a transaction_failed event", 0))
		cr_skip_test("mainline has no transaction_failed event (differences.h)");
	enable_event("transaction_failed");
	enable_event("transaction_failed_buffer_release");
	open_node_owner(&rx, 6, 0x1700, 0x1800);
	t = bt_tr(get_handle(&c, 6), 0x58, 0, NULL, 0, NULL, 0);
	clear_trace();
	cr_assert_eq(bt_send(&c, &t), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION, &br, BT_TIMEOUT_MS), 0);
	/* an object of no known type at offset 0 */
	cr_assert_eq(bt_reply(&rx, &br.tr, junk, sizeof(junk), &off, 1), 0);
	cr_assert_eq(bt_expect(&rx, BR_TRANSACTION_COMPLETE, &br, BT_TIMEOUT_MS), 0);
	memset(&r, 0, sizeof(r));
	cr_assert_eq(bt_wait_result(&c, &r, true, BT_TIMEOUT_MS), 0);
	cr_assert_eq(r.final, BR_FAILED_REPLY, "caller got %s", bt_br_name(r.final));
	cr_assert_eq(bt_get_ee(&c, &ee), 0);
	read_trace();

	fail = find("transaction_failed", "reply", 1);
	cr_assert_not_null(fail, "no failed reply traced");
	/* the caller reads the replier's error as its own */
	cr_expect_eq(field(fail, "transaction"), ee.id);
	cr_expect_eq(field(fail, "command"), ee.command);
	cr_expect_eq(field(fail, "param"), ee.param);
	cr_expect_eq(field(fail, "dest_proc"), getpid());
	cr_expect_eq(field(fail, "dest_thread"), gettid());
	cr_expect_eq(field(fail, "data_size"), sizeof(junk));
	cr_expect_eq(field(fail, "offsets_size"), sizeof(off));
	cr_expect_not_null(find("transaction_failed_buffer_release", "transaction", ee.id),
			   "the refused reply's buffer goes back as a failure");
	assert_no_kernel_pointers();
	bt_close(&rx);
}
