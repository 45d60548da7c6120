// SPDX-License-Identifier: MIT
/*
 * The calculator interface, described once: calc-service and calc-client
 * both include this header.  BINDERC_IFACE_DECLARE turns the list into
 *   struct calc { int (*add)(void *self, int64_t a, int64_t b,
 *                            int64_t *sum); ... };
 * and the description calc_def (descriptor, names, signatures, codes
 * 1, 2, ... in list order).  Wire-compatible with the AIDL interface
 *
 *   package org.binderc.examples;
 *   interface ICalculator {
 *       long add(long a, long b);
 *       long sub(long a, long b);
 *       long mul(long a, long b);
 *       long div(long a, long b, out long remainder);
 *       double sqrt(double x);
 *       long sum(in long[] values);
 *       double eval(String rpn);
 *       oneway void store(double value);
 *       double recall();
 *   }
 */
#ifndef CALC_H
#define CALC_H

#include <binderc/iface.h>

#define CALC_SERVICE_NAME "calc"

/* Service-specific errors (AIDL ServiceSpecificException codes). */
enum {
	CALC_ERR_DOMAIN = 1,   /* sqrt of a negative number */
	CALC_ERR_OVERFLOW = 2, /* the result does not fit in 64 bits */
	CALC_ERR_SYNTAX = 3,   /* eval: not an RPN expression */
};

/* clang-format off */
#define CALC_METHODS(METHOD, ONEWAY, IN, OUT)                                  \
	METHOD(add,    IN(i64, a) IN(i64, b), OUT(i64, sum))                   \
	METHOD(sub,    IN(i64, a) IN(i64, b), OUT(i64, difference))            \
	METHOD(mul,    IN(i64, a) IN(i64, b), OUT(i64, product))               \
	METHOD(div,    IN(i64, a) IN(i64, b), OUT(i64, quotient) OUT(i64, remainder)) \
	METHOD(sqrt,   IN(f64, x),            OUT(f64, root))                  \
	METHOD(sum,    IN(i64s, values),      OUT(i64, total))                 \
	METHOD(eval,   IN(string, rpn),       OUT(f64, value))                 \
	ONEWAY(store,  IN(f64, value))                                         \
	METHOD(recall, ,                      OUT(f64, value))
/* clang-format on */

BINDERC_IFACE_DECLARE(calc, "org.binderc.examples.ICalculator", CALC_METHODS);

#endif
