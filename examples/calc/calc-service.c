// SPDX-License-Identifier: MIT
/*
 * calc-service: the calculator of calc.h, registered as "calc".  The
 * methods are plain C functions; libbinder-c decodes each call by the
 * signatures in calc.h and calls them through libffi.  Device:
 * $BINDER_DEVICE, else /dev/binderc, else /dev/binder.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>
#include <binderc/iface.h>
#include <binderc/servicemanager.h>

#include "calc.h"

/* The service's state: the memory register of store/recall. */
struct calc_state {
	pthread_mutex_t lock;
	double memory;
};

/* Error convention (binderc/iface.h): 0 ok, > 0 a service-specific error,
 * bc_iface_throw() for other AIDL exceptions, -errno for a status code. */

static int calc_add(void *self, int64_t a, int64_t b, int64_t *sum)
{
	(void)self;
	if (__builtin_add_overflow(a, b, sum))
		return bc_iface_throw_service(CALC_ERR_OVERFLOW, "add overflows");
	return 0;
}

static int calc_sub(void *self, int64_t a, int64_t b, int64_t *difference)
{
	(void)self;
	if (__builtin_sub_overflow(a, b, difference))
		return bc_iface_throw_service(CALC_ERR_OVERFLOW, "sub overflows");
	return 0;
}

static int calc_mul(void *self, int64_t a, int64_t b, int64_t *product)
{
	(void)self;
	if (__builtin_mul_overflow(a, b, product))
		return bc_iface_throw_service(CALC_ERR_OVERFLOW, "mul overflows");
	return 0;
}

static int calc_div(void *self, int64_t a, int64_t b, int64_t *quotient, int64_t *remainder)
{
	(void)self;
	if (b == 0)
		return bc_iface_throw(BINDERC_EX_ILLEGAL_ARGUMENT, "division by zero");
	if (a == INT64_MIN && b == -1)
		return bc_iface_throw_service(CALC_ERR_OVERFLOW, "div overflows");
	*quotient = a / b;
	*remainder = a % b;
	return 0;
}

static int calc_sqrt(void *self, double x, double *root)
{
	(void)self;
	if (x < 0)
		return CALC_ERR_DOMAIN; /* a service-specific error, no message */
	*root = sqrt(x);
	return 0;
}

static int calc_sum(void *self, const int64_t *values, size_t values_len, int64_t *total)
{
	int64_t t = 0;

	(void)self;
	for (size_t k = 0; k < values_len; k++)
		if (__builtin_add_overflow(t, values[k], &t))
			return bc_iface_throw_service(CALC_ERR_OVERFLOW, "sum overflows");
	*total = t;
	return 0;
}

/* Reverse Polish notation: "2 3 + 4 *" is 20. */
static int calc_eval(void *self, const char *rpn, double *value)
{
	double stack[64];
	size_t depth = 0;
	const char *p = rpn;

	(void)self;
	while (*p) {
		char *end;
		double v;

		if (*p == ' ') {
			p++;
			continue;
		}
		if (strchr("+-*/", *p) && (p[1] == ' ' || p[1] == 0)) {
			if (depth < 2)
				return bc_iface_throw_service(CALC_ERR_SYNTAX, "operator without two operands");
			v = stack[--depth];
			switch (*p) {
			case '+': stack[depth - 1] += v; break;
			case '-': stack[depth - 1] -= v; break;
			case '*': stack[depth - 1] *= v; break;
			case '/': stack[depth - 1] /= v; break;
			}
			p++;
			continue;
		}
		v = strtod(p, &end);
		if (end == p || (*end && *end != ' '))
			return bc_iface_throw_service(CALC_ERR_SYNTAX, "not a number or operator");
		if (depth == sizeof(stack) / sizeof(stack[0]))
			return bc_iface_throw_service(CALC_ERR_SYNTAX, "expression too deep");
		stack[depth++] = v;
		p = end;
	}
	if (depth != 1)
		return bc_iface_throw_service(CALC_ERR_SYNTAX, "expression leaves no single value");
	*value = stack[0];
	return 0;
}

static int calc_store(void *self, double value)
{
	struct calc_state *st = self;

	pthread_mutex_lock(&st->lock);
	st->memory = value;
	pthread_mutex_unlock(&st->lock);
	return 0;
}

static int calc_recall(void *self, double *value)
{
	struct calc_state *st = self;

	pthread_mutex_lock(&st->lock);
	*value = st->memory;
	pthread_mutex_unlock(&st->lock);
	return 0;
}

static const struct calc calc_impl = {
	.add = calc_add,
	.sub = calc_sub,
	.mul = calc_mul,
	.div = calc_div,
	.sqrt = calc_sqrt,
	.sum = calc_sum,
	.eval = calc_eval,
	.store = calc_store,
	.recall = calc_recall,
};

int main(void)
{
	static struct calc_state state = { PTHREAD_MUTEX_INITIALIZER, 0 };
	bc_process *proc = NULL;
	bc_iface *iface = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	char *err = NULL;
	int r;

	r = bc_iface_new(&calc_def, &iface, &err);
	if (r < 0) {
		fprintf(stderr, "calc-service: %s\n", err ? err : strerror(-r));
		free(err);
		return 1;
	}
	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_iface_stub_new(iface, &calc_impl, &state, NULL, &obj);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, CALC_SERVICE_NAME, obj, 0, 0);
	if (r < 0) {
		fprintf(stderr, "calc-service: %s\n", strerror(-r));
		return 1;
	}
	printf("calc-service: registered '%s' (%s, %zu methods) on %s\n", CALC_SERVICE_NAME,
	       bc_iface_get_descriptor(iface), bc_iface_get_n_methods(iface), bc_process_get_device(proc));
	fflush(stdout);
	r = bc_process_join(proc); /* serve on this thread until stopped */
	bc_sm_unref(sm);
	bc_binder_unref(obj);
	bc_iface_unref(iface);
	bc_process_unref(proc);
	return r < 0;
}
