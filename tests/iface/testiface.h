// SPDX-License-Identifier: MIT
/*
 * The test interface shared by the host and guest tests of signature
 * interfaces: one method per type family, error paths, one-way calls, and
 * an implementation of it.
 */
#ifndef TESTIFACE_H
#define TESTIFACE_H

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/iface.h>

#define T_DESCRIPTOR "org.binderc.ITest"

/* Host tests end with this: LeakSanitizer's report alone does not fail a
 * Criterion test, an expectation does. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define T_NO_LEAKS() cr_expect_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (LeakSanitizer report above)")
#else
#define T_NO_LEAKS() ((void)0)
#endif

/* clang-format off */
#define T_METHODS(METHOD, ONEWAY, IN, OUT)                                                         \
	METHOD(add, IN(i32, a) IN(i32, b), OUT(i32, sum))                                          \
	METHOD(scalars, IN(i32, i) IN(u32, u) IN(i64, x) IN(u64, t) IN(bool, b) IN(byte, y)        \
			IN(char16, c) IN(f32, f) IN(f64, d),                                       \
		OUT(i32, oi) OUT(u32, ou) OUT(i64, ox) OUT(u64, ot) OUT(bool, ob) OUT(byte, oy)    \
			OUT(char16, oc) OUT(f32, of) OUT(f64, od))                                 \
	METHOD(str, IN(string, s), OUT(string, o))                                                 \
	METHOD(nstr, IN(nstring, s), OUT(nstring, o))                                              \
	METHOD(bytes, IN(bytes, b), OUT(bytes, o))                                                 \
	METHOD(nbytes, IN(nbytes, b), OUT(nbytes, o))                                              \
	METHOD(arrays1, IN(i32s, i) IN(i64s, x) IN(bools, b) IN(char16s, c),                       \
		OUT(i32s, oi) OUT(i64s, ox) OUT(bools, ob) OUT(char16s, oc))                       \
	METHOD(arrays2, IN(f32s, f) IN(f64s, d) IN(u32s, u) IN(u64s, t),                           \
		OUT(f32s, of) OUT(f64s, od) OUT(u32s, ou) OUT(u64s, ot))                           \
	METHOD(strs, IN(strings, v), OUT(strings, o))                                              \
	METHOD(binder, IN(nbinder, b), OUT(nbinder, o))                                            \
	METHOD(fd, IN(fd, fd), OUT(fd, o))                                                         \
	METHOD(fail, IN(i32, how), OUT(i32, never))                                                \
	ONEWAY(poke, IN(i32, v))                                                                   \
	METHOD(count, , OUT(i32, n))                                                               \
	METHOD(nothing, , )                                                                         \
	METHOD(pfd, IN(pfd, fd) IN(npfd, maybe), OUT(npfd, o))
/* clang-format on */

BINDERC_IFACE_DECLARE(t_iface, T_DESCRIPTOR, T_METHODS);

/* ---- the implementation ------------------------------------------------- */

struct t_state {
	atomic_int pokes;
	atomic_int calls;
};

#define T_STATE(self) ((struct t_state *)(self))

static inline void *t_dup(const void *p, size_t n, size_t elem)
{
	void *d = malloc(n ? n * elem : 1);

	if (d && n)
		memcpy(d, p, n * elem);
	return d;
}

static int t_add(void *self, int32_t a, int32_t b, int32_t *sum)
{
	if (self)
		atomic_fetch_add(&T_STATE(self)->calls, 1);
	*sum = (int32_t)((uint32_t)a + (uint32_t)b); /* wraps */
	return 0;
}

static int t_scalars(void *self, int32_t i, uint32_t u, int64_t x, uint64_t t, bool b, int8_t y, uint16_t c,
		     float f, double d, int32_t *oi, uint32_t *ou, int64_t *ox, uint64_t *ot, bool *ob, int8_t *oy,
		     uint16_t *oc, float *of, double *od)
{
	(void)self;
	/* something recognisable of each: the tests check the transform */
	/* negated as two's complement: INT64_MIN stays itself, without the
	 * undefined overflow of -x (UBSan, host build over RPC) */
	*oi = (int32_t)(0u - (uint32_t)i);
	*ou = ~u;
	*ox = (int64_t)(0u - (uint64_t)x);
	*ot = ~t;
	*ob = !b;
	*oy = (int8_t)-y;
	*oc = (uint16_t)(c + 1);
	*of = f * 2;
	*od = d * 2;
	return 0;
}

static int t_str(void *self, const char *s, char **o)
{
	size_t n = strlen(s);

	(void)self;
	*o = malloc(n + 2);
	if (!*o)
		return -ENOMEM;
	memcpy(*o, s, n);
	(*o)[n] = '!';
	(*o)[n + 1] = 0;
	return 0;
}

static int t_nstr(void *self, const char *s, char **o)
{
	(void)self;
	*o = s ? strdup(s) : NULL;
	return 0;
}

static int t_bytes(void *self, const void *b, size_t b_len, void **o, size_t *o_len)
{
	(void)self;
	*o = t_dup(b, b_len, 1);
	*o_len = b_len;
	if (*o && b_len)
		((uint8_t *)*o)[0] ^= 0xff;
	return *o ? 0 : -ENOMEM;
}

static int t_nbytes(void *self, const void *b, size_t b_len, void **o, size_t *o_len)
{
	(void)self;
	*o = b ? t_dup(b, b_len, 1) : NULL;
	*o_len = b ? b_len : 0;
	return 0;
}

static int t_arrays1(void *self, const int32_t *i, size_t i_len, const int64_t *x, size_t x_len, const bool *b,
		     size_t b_len, const uint16_t *c, size_t c_len, int32_t **oi, size_t *oi_len, int64_t **ox,
		     size_t *ox_len, bool **ob, size_t *ob_len, uint16_t **oc, size_t *oc_len)
{
	(void)self;
	*oi = t_dup(i, i_len, sizeof(*i)), *oi_len = i_len;
	*ox = t_dup(x, x_len, sizeof(*x)), *ox_len = x_len;
	*ob = t_dup(b, b_len, sizeof(*b)), *ob_len = b_len;
	*oc = t_dup(c, c_len, sizeof(*c)), *oc_len = c_len;
	return 0;
}

static int t_arrays2(void *self, const float *f, size_t f_len, const double *d, size_t d_len, const uint32_t *u,
		     size_t u_len, const uint64_t *t, size_t t_len, float **of, size_t *of_len, double **od,
		     size_t *od_len, uint32_t **ou, size_t *ou_len, uint64_t **ot, size_t *ot_len)
{
	(void)self;
	*of = t_dup(f, f_len, sizeof(*f)), *of_len = f_len;
	*od = t_dup(d, d_len, sizeof(*d)), *od_len = d_len;
	*ou = t_dup(u, u_len, sizeof(*u)), *ou_len = u_len;
	*ot = t_dup(t, t_len, sizeof(*t)), *ot_len = t_len;
	return 0;
}

static int t_strs(void *self, const char *const *v, size_t v_len, char ***o, size_t *o_len)
{
	(void)self;
	/* reversed */
	*o = calloc(v_len ? v_len : 1, sizeof(char *));
	if (!*o)
		return -ENOMEM;
	for (size_t k = 0; k < v_len; k++)
		(*o)[k] = strdup(v[v_len - 1 - k]);
	*o_len = v_len;
	return 0;
}

static int t_binder(void *self, bc_binder *b, bc_binder **o)
{
	(void)self;
	*o = b ? bc_binder_ref(b) : NULL;
	return 0;
}

static int t_fd(void *self, int fd, int *o)
{
	(void)self;
	*o = dup(fd);
	return *o < 0 ? -errno : 0;
}

static int t_fail(void *self, int32_t how, int32_t *never)
{
	(void)self;
	switch (how) {
	case 0:
		*never = 7;
		return 0;
	case 1:
		return 42; /* service-specific */
	case 2:
		return bc_iface_throw(BINDERC_EX_ILLEGAL_ARGUMENT, "bad argument");
	case 3:
		return bc_iface_throw_service(5, "five");
	case 4:
		return -ENOSYS; /* a status code */
	case 5: {
		/* set an output, then fail: the stub must free nothing wrong */
		*never = 9;
		return bc_iface_throw(BINDERC_EX_UNSUPPORTED_OPERATION, NULL);
	}
	}
	return -EINVAL;
}

static int t_poke(void *self, int32_t v)
{
	if (self)
		atomic_fetch_add(&T_STATE(self)->pokes, v);
	return 0;
}

static int t_count(void *self, int32_t *n)
{
	*n = self ? atomic_load(&T_STATE(self)->pokes) : -1;
	return 0;
}

static int t_nothing(void *self)
{
	(void)self;
	return 0;
}

static int t_pfd(void *self, int fd, int maybe, int *o)
{
	(void)self;
	if (fcntl(fd, F_GETFD) < 0)
		return -EBADF;
	*o = maybe >= 0 ? dup(maybe) : -1;
	return 0;
}

static const struct t_iface t_impl __attribute__((unused)) = {
	.add = t_add,
	.scalars = t_scalars,
	.str = t_str,
	.nstr = t_nstr,
	.bytes = t_bytes,
	.nbytes = t_nbytes,
	.arrays1 = t_arrays1,
	.arrays2 = t_arrays2,
	.strs = t_strs,
	.binder = t_binder,
	.fd = t_fd,
	.fail = t_fail,
	.poke = t_poke,
	.count = t_count,
	.nothing = t_nothing,
	.pfd = t_pfd,
};

#endif
