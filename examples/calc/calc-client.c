// SPDX-License-Identifier: MIT
/*
 * calc-client: finds "calc" through the service manager and calls it
 * through the typed proxy of calc.h: calc->add(...) is an ordinary C call
 * whose function pointer is a libffi closure that marshals, transacts and
 * unmarshals.
 *
 *   calc-client              a tour of every method
 *   calc-client RPN...       evaluate each argument, e.g. "2 3 + 4 *"
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/iface.h>
#include <binderc/servicemanager.h>

#include "calc.h"

static int failures;

/* Print the outcome of a call that did not return 0. */
static void report(const char *what, int r)
{
	const bc_status *st = bc_iface_last_status();

	if (r > 0)
		printf("%-28s -> service error %d%s%s\n", what, r, st->message && *st->message ? ": " : "",
		       st->message ? st->message : "");
	else if (r == -EREMOTEIO)
		printf("%-28s -> %s: %s\n", what, bc_exception_name(st->exception), st->message ? st->message : "");
	else
		printf("%-28s -> failed: %s\n", what, strerror(-r));
}

#define CALL(what, call, fmt, ...)                                       \
	do {                                                             \
		int r_ = (call);                                         \
		if (r_ == 0)                                             \
			printf("%-28s -> " fmt "\n", what, __VA_ARGS__); \
		else                                                     \
			report(what, r_);                                \
	} while (0)

#define EXPECT_OK(call)                                                        \
	do {                                                                   \
		int r_ = (call);                                               \
		if (r_ != 0) {                                                 \
			report(#call, r_);                                     \
			failures++;                                            \
		}                                                              \
	} while (0)

static void tour(bc_iface_proxy *p, const struct calc *calc)
{
	static const int64_t values[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	int64_t v, rem;
	double d;

	EXPECT_OK(calc->add(p, 2, 3, &v));
	printf("%-28s -> %lld\n", "add(2, 3)", (long long)v);
	CALL("sub(10, 58)", calc->sub(p, 10, 58, &v), "%lld", (long long)v);
	CALL("mul(-7, 6)", calc->mul(p, -7, 6, &v), "%lld", (long long)v);
	CALL("div(47, 5)", calc->div(p, 47, 5, &v, &rem), "%lld remainder %lld", (long long)v, (long long)rem);
	CALL("sqrt(2)", calc->sqrt(p, 2, &d), "%.6f", d);
	CALL("sum(1..10)", calc->sum(p, values, 10, &v), "%lld", (long long)v);
	CALL("eval(\"2 3 + 4 *\")", calc->eval(p, "2 3 + 4 *", &d), "%g", d);
	EXPECT_OK(calc->store(p, 42.5)); /* one-way: returns once sent */
	CALL("store(42.5); recall()", calc->recall(p, &d), "%g", d);
	/* the same call through the varargs entry point */
	CALL("bc_call(\"mul\", 6, 7)", bc_call(p, "mul", (int64_t)6, (int64_t)7, &v), "%lld", (long long)v);
	/* errors come back as the convention of binderc/iface.h says */
	printf("errors:\n");
	CALL("div(1, 0)", calc->div(p, 1, 0, &v, &rem), "%lld", (long long)v);
	CALL("sqrt(-1)", calc->sqrt(p, -1, &d), "%g", d);
	CALL("mul(INT64_MAX, 2)", calc->mul(p, INT64_MAX, 2, &v), "%lld", (long long)v);
	CALL("eval(\"2 +\")", calc->eval(p, "2 +", &d), "%g", d);
	CALL("eval(NULL)", calc->eval(p, NULL, &d), "%g", d);
}

int main(int argc, char **argv)
{
	bc_process *proc = NULL;
	bc_binder *obj = NULL;
	bc_iface *iface = NULL;
	bc_iface_proxy *p = NULL;
	bc_sm *sm = NULL;
	const struct calc *calc;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, CALC_SERVICE_NAME, &obj);
	if (r == 0)
		r = bc_iface_new(&calc_def, &iface, NULL);
	if (r == 0)
		r = bc_iface_proxy_new(iface, obj, &p);
	if (r < 0) {
		fprintf(stderr, "calc-client: %s\n", strerror(-r));
		return 1;
	}
	calc = bc_iface_proxy_methods(p);
	if (argc < 2) {
		tour(p, calc);
	} else {
		for (int i = 1; i < argc; i++) {
			double d;

			r = calc->eval(p, argv[i], &d);
			if (r == 0)
				printf("%s = %g\n", argv[i], d);
			else
				report(argv[i], r), failures++;
		}
	}
	bc_iface_proxy_unref(p);
	bc_iface_unref(iface);
	bc_binder_unref(obj);
	bc_sm_unref(sm);
	bc_process_unref(proc);
	return failures != 0;
}
