// SPDX-License-Identifier: MIT
/*
 * binder-bench's command line and outputs, on the host: the non-binder
 * contenders (pipe, futex) need no driver, so the tables, the JSON
 * records, the option checks and the failure of a missing device can all
 * be checked here.  The figures themselves are not judged.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#ifndef BENCH_BIN
#error "BENCH_BIN: the binderc-bench binary to test"
#endif

struct run {
	char *out;
	int status;
};

/* Run binderc-bench with @args (shell words); stdout kept, stderr dropped. */
static struct run bench(const char *args)
{
	char cmd[1024];
	struct run r = { NULL, -1 };
	size_t len = 0, cap = 0;
	char buf[4096];
	size_t n;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", BENCH_BIN, args);
	f = popen(cmd, "r");
	cr_assert(f, "popen %s", cmd);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			r.out = realloc(r.out, cap);
			cr_assert(r.out);
		}
		memcpy(r.out + len, buf, n);
		len += n;
	}
	if (!r.out)
		r.out = calloc(1, 1);
	r.out[len] = 0;
	r.status = pclose(f);
	r.status = WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1;
	return r;
}

/* The line of @out containing every one of @a, @b, @c (NULL: any). */
static const char *line_with(const char *out, const char *a, const char *b, const char *c)
{
	for (const char *l = out; l && *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		char line[2048];

		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		if (strstr(line, a) && (!b || strstr(line, b)) && (!c || strstr(line, c)))
			return l;
		l = e ? e + 1 : NULL;
	}
	return NULL;
}

#define SMALL "--quick --only pipe,futex --workloads latency,pairs --payloads 0,128 --pairs 1,2 --seconds 0.1"

Test(bench_cli, json_has_meta_points_and_end)
{
	struct run r = bench(SMALL " --json");
	const char *last;

	cr_assert_eq(r.status, 0, "exit %d:\n%s", r.status, r.out);
	cr_assert(!strncmp(r.out, "{\"type\":\"meta\"", 14), "first record: %.80s", r.out);
	last = strrchr(r.out, '{');
	cr_assert(last && !strncmp(last, "{\"type\":\"end\"", 13), "last record: %s", last);
	for (const char *c = "pipe"; c; c = !strcmp(c, "pipe") ? "futex" : NULL) {
		char want[64];

		snprintf(want, sizeof(want), "\"contender\":\"%s\",\"status\":\"ok\"", c);
		cr_assert(line_with(r.out, "\"workload\":\"latency\",\"param\":\"0\"", want, "\"median_us\":"),
			  "%s latency 0:\n%s", c, r.out);
		cr_assert(line_with(r.out, "\"workload\":\"latency\",\"param\":\"128\"", want, "\"p99_us\":"));
		cr_assert(line_with(r.out, "\"workload\":\"pairs\",\"param\":\"2\"", want, "\"rep_tput\":["));
	}
	/* only what was asked: no 4 KiB point, no pairs of 4 */
	cr_assert_null(line_with(r.out, "\"param\":\"4096\"", NULL, NULL));
	cr_assert_null(line_with(r.out, "\"workload\":\"pairs\",\"param\":\"4\"", NULL, NULL));
	free(r.out);
}

Test(bench_cli, records_are_prefixed_for_guest_logs)
{
	struct run r = bench(SMALL " --workloads latency --records");

	cr_assert_eq(r.status, 0);
	for (const char *l = r.out; *l; l = strchr(l, '\n') + 1) {
		cr_assert(!strncmp(l, "BENCH {", 7), "unprefixed line: %.60s", l);
		if (!strchr(l, '\n'))
			break;
	}
	free(r.out);
}

Test(bench_cli, table_rows_for_what_ran_only)
{
	struct run r = bench(SMALL);

	cr_assert_eq(r.status, 0, "exit %d:\n%s", r.status, r.out);
	cr_assert(line_with(r.out, "### Round-trip latency", NULL, NULL), "%s", r.out);
	cr_assert(line_with(r.out, "| 0 B | pipe |", NULL, NULL), "%s", r.out);
	cr_assert(line_with(r.out, "| 128 B | futex |", "| 1.00 |", NULL), "%s", r.out);
	cr_assert(line_with(r.out, "### Throughput", NULL, NULL));
	cr_assert(line_with(r.out, "| 2 | pipe |", NULL, NULL));
	/* contenders left out with --only are not rows */
	cr_assert_null(line_with(r.out, "| binderc", NULL, NULL), "%s", r.out);
	cr_assert_null(line_with(r.out, "| socket", NULL, NULL));
	free(r.out);
}

Test(bench_cli, missing_device_is_reported_and_fails_the_run)
{
	struct run r = bench("--quick --device gone=/nonexistent/binder --only gone,futex --workloads latency "
			     "--payloads 0 --json");

	cr_assert_eq(r.status, 1, "exit %d:\n%s", r.status, r.out);
	cr_assert(line_with(r.out, "\"contender\":\"gone\",\"status\":\"error\"", "No such file", NULL), "%s", r.out);
	cr_assert(line_with(r.out, "\"contender\":\"futex\",\"status\":\"ok\"", NULL, NULL));
	/* the default devices are replaced, not added to */
	cr_assert_null(line_with(r.out, "\"contender\":\"binderc\"", NULL, NULL));
	free(r.out);
}

Test(bench_cli, bad_options_are_usage_errors)
{
	static const char *const bad[] = {
		"--payloads 2000000",   "--payloads 1,x", "--pairs 0",     "--pairs 17",  "--pairs 1-17",
		"--cpus 3-1",           "--cpus 0-",      "--cpus ,",      "--device x",  "--device =/dev/binder",
		"--device a/b=/dev/x",  "--phase fast",   "--no-such-opt", "positional",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run r = bench(bad[i]);

		cr_expect_eq(r.status, 2, "'%s': exit %d", bad[i], r.status);
		cr_expect_eq(r.out[0], 0, "'%s' printed results", bad[i]);
		free(r.out);
	}
}
