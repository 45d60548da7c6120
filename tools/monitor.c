// SPDX-License-Identifier: MIT
/*
 * `binder monitor`: print every failed binder transaction as it happens,
 * from the kernel's transaction reports (<binderc/report.h>): one line per
 * report, or one JSON object per line with --json.
 *
 * The reports carry pids, not names: the command name is read from
 * /proc/PID/comm when it is printed, so a process that has exited since
 * shows without one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uapi/binder.h>

#include <binderc/report.h>

#include "monitor.h"

struct opts {
	bool json;
	const char *family;	/* NULL: every one found */
	long count;		/* stop after this many reports; 0: never */
	long timeout_ms;	/* stop after this long; -1: never */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int usage_error(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: monitor: %s%s\nTry 'binder --help'.\n", prog, what, arg ? arg : "");
	return 2;
}

static bool parse_long(const char *s, long lo, long hi, long *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*ret = v;
	return true;
}

static int parse_opts(const char *prog, int argc, char **argv, struct opts *o)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		long v;

		if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "--family") && i + 1 < argc) {
			o->family = argv[++i];
			if (strcmp(o->family, "binder") && strcmp(o->family, "binderc"))
				return usage_error(prog, "--family takes binder or binderc, not ", o->family);
		} else if (!strcmp(a, "--count") && i + 1 < argc) {
			if (!parse_long(argv[++i], 1, 1L << 30, &o->count))
				return usage_error(prog, "--count takes a positive number, not ", argv[i]);
		} else if (!strcmp(a, "--timeout") && i + 1 < argc) {
			if (!parse_long(argv[++i], 0, 1L << 20, &v))
				return usage_error(prog, "--timeout takes seconds, not ", argv[i]);
			o->timeout_ms = v * 1000;
		} else {
			return usage_error(prog, "unknown or incomplete option ", a);
		}
	}
	return 0;
}

/* The command name of @pid into buf ("" if gone or unreadable). */
static const char *comm_of(int32_t pid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	buf[0] = '\0';
	if (pid <= 0)
		return buf;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return buf;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	else
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static const char *kind_of(const struct bc_report *r)
{
	if (r->is_reply)
		return "reply";
	return (r->flags & TF_ONE_WAY) ? "oneway" : "call";
}

static void error_name(uint32_t error, char *buf, size_t size)
{
	const char *n = bc_report_error_name(error);

	if (n)
		snprintf(buf, size, "%s", n);
	else
		snprintf(buf, size, "%u", error);
}

static void print_text(const struct bc_report *r, bool several)
{
	char when[32], name[40], from[32], to[32], tid[16] = "";
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	error_name(r->error, name, sizeof(name));
	comm_of(r->from_pid, from, sizeof(from));
	comm_of(r->to_pid, to, sizeof(to));
	if (r->to_tid)
		snprintf(tid, sizeof(tid), ":%d", (int)r->to_tid);
	printf("%s.%03ld ", when, ts.tv_nsec / 1000000);
	if (several)
		printf("[%s] ", r->family);
	printf("%s %s %d:%d%s%s%s -> ", r->context, kind_of(r), (int)r->from_pid, (int)r->from_tid,
	       from[0] ? " (" : "", from, from[0] ? ")" : "");
	if (r->to_pid)
		printf("%d%s%s%s%s", (int)r->to_pid, tid, to[0] ? " (" : "", to, to[0] ? ")" : "");
	else
		printf("?");
	printf(" code 0x%x, %u bytes: %s: %s\n", r->code, r->data_size, name, bc_report_describe(r));
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			printf("\\%c", ch);
		else if (ch < 0x20)
			printf("\\u%04x", ch);
		else
			putchar(ch);
	}
	putchar('"');
}

static void json_pid(const char *key, int32_t pid)
{
	if (pid)
		printf(",\"%s\":%d", key, (int)pid);
	else
		printf(",\"%s\":null", key);
}

static void print_json(const struct bc_report *r)
{
	char name[40], comm[32];
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	error_name(r->error, name, sizeof(name));
	printf("{\"time\":%lld.%03ld,\"family\":", (long long)ts.tv_sec, ts.tv_nsec / 1000000);
	json_string(r->family);
	printf(",\"context\":");
	json_string(r->context);
	printf(",\"error\":");
	json_string(name);
	printf(",\"error_code\":%u,\"reason\":", r->error);
	json_string(bc_report_describe(r));
	printf(",\"kind\":\"%s\",\"from_pid\":%d,\"from_tid\":%d,\"from_comm\":", kind_of(r),
	       (int)r->from_pid, (int)r->from_tid);
	json_string(comm_of(r->from_pid, comm, sizeof(comm)));
	json_pid("to_pid", r->to_pid);
	json_pid("to_tid", r->to_tid);
	printf(",\"to_comm\":");
	json_string(comm_of(r->to_pid, comm, sizeof(comm)));
	printf(",\"is_reply\":%s,\"flags\":%u,\"code\":%u,\"data_size\":%u}\n", r->is_reply ? "true" : "false",
	       r->flags, r->code, r->data_size);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

int binder_monitor(const char *prog, int argc, char **argv)
{
	struct opts o = { .timeout_ms = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	bc_report_listener *l = NULL;
	long seen = 0, deadline;
	int r;

	r = parse_opts(prog, argc, argv, &o);
	if (r)
		return r;
	r = bc_report_listener_new(o.family, &l);
	if (r < 0) {
		if (r == -ENOENT)
			fprintf(stderr,
				"%s: monitor: no transaction reports here: no generic netlink family %s "
				"(binderc registers one; the mainline driver only since Linux 6.18)\n",
				prog, o.family ? o.family : "binder or binderc");
		else
			fprintf(stderr, "%s: monitor: cannot listen to the transaction reports: %s\n", prog,
				strerror(-r));
		return 3;
	}
	/* Scripts read line by line; a signal ends the loop cleanly. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!o.json) {
		fprintf(stderr, "%s: monitor: watching", prog);
		for (size_t i = 0; i < bc_report_listener_get_n_families(l); i++)
			fprintf(stderr, " %s", bc_report_listener_get_family(l, i));
		fprintf(stderr, " (Ctrl-C to stop)\n");
	}
	deadline = o.timeout_ms >= 0 ? now_ms() + o.timeout_ms : -1;
	r = 0;
	while (!stop && (!o.count || seen < o.count)) {
		struct bc_report rep;
		long wait = -1;
		int e;

		if (deadline >= 0) {
			wait = deadline - now_ms();
			if (wait <= 0)
				break;
		}
		e = bc_report_listener_read(l, &rep, wait > 1000 || wait < 0 ? 1000 : (int)wait);
		if (e == -EAGAIN || e == -EINTR)
			continue;
		if (e == -ENOBUFS) {
			fprintf(stderr, "%s: monitor: reports were lost (the receive buffer was full)\n", prog);
			continue;
		}
		if (e < 0) {
			fprintf(stderr, "%s: monitor: reading the reports: %s\n", prog, strerror(-e));
			r = 3;
			break;
		}
		if (o.json)
			print_json(&rep);
		else
			print_text(&rep, bc_report_listener_get_n_families(l) > 1);
		seen++;
	}
	bc_report_listener_unref(l);
	return r;
}
