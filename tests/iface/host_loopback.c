// SPDX-License-Identifier: MIT
/*
 * Host tests: proxy closures -> parcel -> stub dispatch -> implementation
 * and back, without a kernel.  Two seams: a transport that hands the
 * request to bc_iface_dispatch() (copying object-free parcels through
 * bc_parcel_new_from_data() as a wire would), and an in-process local
 * object made by bc_iface_stub_new() (bc_binder_transact() runs its
 * handler on the calling thread).
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>

#include "testiface.h"

struct loop {
	bc_iface *iface;
	const void *impl;
	void *userdata;
	int sends;
};

static bc_parcel *rewire(bc_parcel *p)
{
	size_t n_offs;
	bc_parcel *copy = NULL;

	bc_parcel_offsets(p, &n_offs);
	if (n_offs)
		return bc_parcel_ref(p); /* objects cannot cross a fake wire */
	cr_assert_eq(bc_parcel_new_from_data(bc_parcel_data(p), bc_parcel_size(p), NULL, 0, &copy), 0);
	return copy;
}

static int loop_send(void *ctx, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags)
{
	struct loop *l = ctx;
	bc_parcel *in = rewire(data), *reply = NULL;
	int r;

	l->sends++;
	cr_assert_eq(bc_parcel_new(&reply), 0);
	r = bc_iface_dispatch(l->iface, l->impl, l->userdata, code, in, reply);
	bc_parcel_unref(in);
	if (r == 0 && !(flags & BINDERC_FLAG_ONEWAY) && ret_reply) {
		*ret_reply = rewire(reply);
	} else if (flags & BINDERC_FLAG_ONEWAY) {
		r = 0;
	}
	bc_parcel_unref(reply);
	return r;
}

static struct t_state state;
static struct loop lp;
static bc_iface *f;
static bc_iface_proxy *px;
static const struct t_iface *T;

static void setup(void)
{
	memset(&state, 0, sizeof(state));
	cr_assert_eq(bc_iface_new(&t_iface_def, &f, NULL), 0);
	lp = (struct loop){ f, &t_impl, &state, 0 };
	cr_assert_eq(bc_iface_proxy_new_transport(f, loop_send, &lp, &px), 0);
	T = bc_iface_proxy_methods(px);
}

static void teardown(void)
{
	px = bc_iface_proxy_unref(px);
	f = bc_iface_unref(f);
}

/* Last statement of every test: free the fixtures, then look for leaks. */
#define T_DONE() do { teardown(); T_NO_LEAKS(); } while (0)

TestSuite(loop, .init = setup, .fini = teardown);

Test(loop, add_closure_and_varargs)
{
	int32_t sum = 0;

	cr_expect_eq(T->add(px, 2, 3, &sum), 0);
	cr_expect_eq(sum, 5);
	cr_expect_eq(bc_call(px, "add", -7, 3, &sum), 0);
	cr_expect_eq(sum, -4);
	cr_expect_eq(T->add(px, INT32_MAX, 1, NULL), 0); /* output discarded */
	cr_expect_eq(atomic_load(&state.calls), 3);
	cr_expect_eq(lp.sends, 3);
	T_DONE();
}

Test(loop, scalars_every_type)
{
	int32_t oi;
	uint32_t ou;
	int64_t ox;
	uint64_t ot;
	bool ob;
	int8_t oy;
	uint16_t oc;
	float of;
	double od;

	cr_assert_eq(T->scalars(px, -5, 0x80000001u, INT64_MIN + 1, UINT64_MAX - 2, true, -128, 0xfffe, 1.5f, -0.25,
				&oi, &ou, &ox, &ot, &ob, &oy, &oc, &of, &od),
		     0);
	cr_expect_eq(oi, 5);
	cr_expect_eq(ou, 0x7ffffffeu);
	cr_expect_eq(ox, INT64_MAX);
	cr_expect_eq(ot, 2);
	cr_expect_eq(ob, false);
	cr_expect_eq(oy, -128); /* -(-128) wraps in int8 */
	cr_expect_eq(oc, 0xffff);
	cr_expect_float_eq(of, 3.0f, 0);
	cr_expect_float_eq(od, -0.5, 0);
	/* the same through varargs (promotions) */
	cr_assert_eq(bc_call(px, "scalars", 7, 1u, (int64_t)3, (uint64_t)0, false, 5, 'A', 0.5, 8.0, &oi, &ou, &ox,
			     &ot, &ob, &oy, &oc, &of, &od),
		     0);
	cr_expect_eq(oi, -7);
	cr_expect_eq(ou, 0xfffffffeu);
	cr_expect_eq(ox, -3);
	cr_expect_eq(ot, UINT64_MAX);
	cr_expect_eq(ob, true);
	cr_expect_eq(oy, -5);
	cr_expect_eq(oc, 'B');
	cr_expect_float_eq(of, 1.0f, 0);
	cr_expect_float_eq(od, 16.0, 0);
	T_DONE();
}

Test(loop, strings)
{
	char *o = NULL;

	cr_assert_eq(T->str(px, "h\xc3\xa9llo \xf0\x9f\x98\x80", &o), 0);
	cr_expect_str_eq(o, "h\xc3\xa9llo \xf0\x9f\x98\x80!");
	free(o);
	cr_assert_eq(T->str(px, "", &o), 0);
	cr_expect_str_eq(o, "!");
	free(o);
	o = (char *)"untouched";
	cr_expect_eq(T->str(px, NULL, &o), -EINVAL); /* not nullable */
	cr_expect_str_eq(o, "untouched");
	cr_expect_eq(T->str(px, "\xff", &o), -EILSEQ); /* not UTF-8 */
	cr_assert_eq(T->nstr(px, NULL, &o), 0);
	cr_expect_null(o);
	cr_assert_eq(T->nstr(px, "x", &o), 0);
	cr_expect_str_eq(o, "x");
	free(o);
	cr_assert_eq(bc_call(px, "str", "va", &o), 0);
	cr_expect_str_eq(o, "va!");
	free(o);
	T_DONE();
}

Test(loop, byte_buffers)
{
	uint8_t in[7] = { 1, 2, 3, 4, 5, 6, 7 };
	void *o = NULL;
	size_t n = 99;

	cr_assert_eq(T->bytes(px, in, sizeof(in), &o, &n), 0);
	cr_assert_eq(n, 7);
	cr_expect_eq(((uint8_t *)o)[0], 0xfe);
	cr_expect_eq(memcmp((uint8_t *)o + 1, in + 1, 6), 0);
	free(o);
	cr_assert_eq(T->bytes(px, NULL, 0, &o, &n), 0); /* the empty buffer */
	cr_expect_not_null(o);
	cr_expect_eq(n, 0);
	free(o);
	cr_expect_eq(T->bytes(px, NULL, 3, &o, &n), -EINVAL);
	cr_assert_eq(T->nbytes(px, NULL, 0, &o, &n), 0);
	cr_expect_null(o);
	cr_assert_eq(T->nbytes(px, in, 3, &o, &n), 0);
	cr_expect_eq(n, 3);
	cr_expect_eq(memcmp(o, in, 3), 0);
	free(o);
	cr_assert_eq(bc_call(px, "bytes", in, (size_t)2, &o, &n), 0);
	cr_expect_eq(n, 2);
	free(o);
	T_DONE();
}

Test(loop, typed_arrays)
{
	int32_t i[] = { 1, -2, 3 }, *oi;
	int64_t x[] = { INT64_MIN, 0 }, *ox;
	bool b[] = { true, false, true, true }, *ob;
	uint16_t c[] = { 0xd83d, 'a' }, *oc;
	float fl[] = { 1.25f }, *of;
	double d[] = { 1e300, -2, 3 }, *od;
	uint32_t u[] = { 0xffffffffu, 1 }, *ou;
	uint64_t t[] = { UINT64_MAX }, *ot;
	size_t ni, nx, nb, nc, nf, nd, nu, nt;

	cr_assert_eq(T->arrays1(px, i, 3, x, 2, b, 4, c, 2, &oi, &ni, &ox, &nx, &ob, &nb, &oc, &nc), 0);
	cr_expect(ni == 3 && !memcmp(oi, i, sizeof(i)));
	cr_expect(nx == 2 && !memcmp(ox, x, sizeof(x)));
	cr_expect(nb == 4 && !memcmp(ob, b, sizeof(b)));
	cr_expect(nc == 2 && !memcmp(oc, c, sizeof(c)));
	free(oi), free(ox), free(ob), free(oc);
	cr_assert_eq(T->arrays2(px, fl, 1, d, 3, u, 2, t, 1, &of, &nf, &od, &nd, &ou, &nu, &ot, &nt), 0);
	cr_expect(nf == 1 && !memcmp(of, fl, sizeof(fl)));
	cr_expect(nd == 3 && !memcmp(od, d, sizeof(d)));
	cr_expect(nu == 2 && !memcmp(ou, u, sizeof(u)));
	cr_expect(nt == 1 && !memcmp(ot, t, sizeof(t)));
	free(of), free(od), free(ou), free(ot);
	/* empty arrays, and outputs discarded */
	cr_assert_eq(T->arrays1(px, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &oi, &ni, NULL, NULL, NULL, NULL, NULL, NULL),
		     0);
	cr_expect_eq(ni, 0);
	free(oi);
	T_DONE();
}

Test(loop, string_arrays)
{
	const char *v[] = { "one", "tw\xc3\xb6", "" };
	char **o;
	size_t n;

	cr_assert_eq(T->strs(px, v, 3, &o, &n), 0);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(o[0], "");
	cr_expect_str_eq(o[1], "tw\xc3\xb6");
	cr_expect_str_eq(o[2], "one");
	bc_strv_free(o, n);
	v[1] = NULL;
	cr_expect_eq(T->strs(px, v, 3, &o, &n), -EINVAL);
	T_DONE();
}

static int destroyed;
static void on_destroy(void *ud)
{
	(void)ud;
	destroyed++;
}

Test(loop, binders)
{
	bc_binder *b, *o = NULL;

	destroyed = 0;
	cr_assert_eq(bc_iface_stub_new(f, &t_impl, NULL, on_destroy, &b), 0);
	cr_assert_eq(T->binder(px, b, &o), 0);
	cr_expect_eq(o, b);
	bc_binder_unref(o);
	cr_assert_eq(T->binder(px, NULL, &o), 0);
	cr_expect_null(o);
	bc_binder_unref(b);
	cr_expect_eq(destroyed, 1);
	T_DONE();
}

Test(loop, fds)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), o = -1;
	struct stat a, c;

	cr_assert_geq(fd, 0);
	cr_assert_eq(T->fd(px, fd, &o), 0);
	cr_assert_geq(o, 0);
	cr_expect_neq(o, fd);
	cr_assert_eq(fstat(fd, &a), 0);
	cr_assert_eq(fstat(o, &c), 0);
	cr_expect(a.st_ino == c.st_ino && a.st_dev == c.st_dev);
	close(o);
	cr_expect_eq(T->fd(px, -1, &o), -EINVAL);
	close(fd);
	T_DONE();
}

Test(loop, errors_and_exceptions)
{
	int32_t never = -1;
	const bc_status *st;

	cr_expect_eq(T->fail(px, 0, &never), 0);
	cr_expect_eq(never, 7);
	never = -1;
	cr_expect_eq(T->fail(px, 1, &never), 42);
	st = bc_iface_last_status();
	cr_expect_eq(st->exception, BINDERC_EX_SERVICE_SPECIFIC);
	cr_expect_eq(st->service_error, 42);
	cr_expect_eq(never, -1);
	cr_expect_eq(T->fail(px, 2, &never), -EREMOTEIO);
	st = bc_iface_last_status();
	cr_expect_eq(st->exception, BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_str_eq(st->message, "bad argument");
	cr_expect_eq(T->fail(px, 3, &never), 5);
	cr_expect_str_eq(bc_iface_last_status()->message, "five");
	cr_expect_eq(T->fail(px, 4, &never), -ENOSYS);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_NONE);
	cr_expect_eq(T->fail(px, 5, &never), -EREMOTEIO);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_UNSUPPORTED_OPERATION);
	cr_expect_eq(never, -1);
	cr_expect_eq(T->fail(px, 99, &never), -EINVAL);
	cr_expect_eq(T->add(px, 1, 1, &never), 0);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_NONE);
	T_DONE();
}

Test(loop, oneway_and_void)
{
	int32_t n = 0;

	cr_expect_eq(T->poke(px, 3), 0);
	cr_expect_eq(bc_call(px, "poke", 4), 0);
	cr_expect_eq(T->count(px, &n), 0);
	cr_expect_eq(n, 7);
	cr_expect_eq(T->nothing(px), 0);
	cr_expect_eq(bc_call(px, "nothing"), 0);
	T_DONE();
}

Test(loop, unimplemented_method_is_unknown)
{
	struct t_iface partial = t_impl;
	int32_t sum;

	partial.add = NULL;
	lp.impl = &partial;
	cr_expect_eq(T->add(px, 1, 2, &sum), -EBADMSG);
	cr_expect_eq(T->fail(px, 0, &sum), 0);
	T_DONE();
}

/* ---- an in-process local object: the real stub path ------------------ */

Test(local, stub_object_and_proxy)
{
	struct t_state st = { 0 };
	bc_binder *b;
	bc_iface_proxy *p;
	const struct t_iface *t;
	char *desc = NULL, *o = NULL;
	int32_t sum = 0;
	bc_iface *fi;

	cr_assert_eq(bc_iface_new(&t_iface_def, &fi, NULL), 0);
	destroyed = 0;
	cr_assert_eq(bc_iface_stub_new(fi, &t_impl, &st, on_destroy, &b), 0);
	cr_assert_eq(bc_iface_proxy_new(fi, b, &p), 0);
	bc_iface_unref(fi);
	cr_expect_eq(bc_iface_proxy_get_binder(p), b);
	t = bc_iface_proxy_methods(p);
	cr_expect_eq(t->add(p, 20, 22, &sum), 0);
	cr_expect_eq(sum, 42);
	cr_expect_eq(atomic_load(&st.calls), 1);
	cr_expect_eq(t->str(p, "abc", &o), 0);
	cr_expect_str_eq(o, "abc!");
	free(o);
	cr_expect_eq(t->poke(p, 2), 0);
	cr_expect_eq(atomic_load(&st.pokes), 2);
	cr_expect_eq(bc_binder_ping(b), 0);
	cr_assert_eq(bc_binder_get_interface(b, &desc), 0);
	cr_expect_str_eq(desc, T_DESCRIPTOR);
	free(desc);
	bc_binder_unref(b);
	cr_expect_eq(destroyed, 0); /* the proxy holds it */
	bc_iface_proxy_unref(p);
	cr_expect_eq(destroyed, 1);
	T_DONE();
}

Test(local, fetch_description)
{
	bc_binder *b;
	bc_iface *fi, *got;
	bc_iface_proxy *p;
	int32_t sum;

	cr_assert_eq(bc_iface_new(&t_iface_def, &fi, NULL), 0);
	cr_assert_eq(bc_iface_stub_new(fi, &t_impl, NULL, NULL, &b), 0);
	cr_assert_eq(bc_iface_fetch(b, &got), 0);
	cr_expect_str_eq(bc_iface_get_descriptor(got), T_DESCRIPTOR);
	cr_assert_eq(bc_iface_get_n_methods(got), bc_iface_get_n_methods(fi));
	for (size_t k = 0; k < bc_iface_get_n_methods(fi); k++) {
		const struct bc_iface_method *a = bc_iface_get_method(fi, k), *c = bc_iface_get_method(got, k);

		cr_expect_str_eq(a->name, c->name);
		cr_expect_eq(a->code, c->code);
		cr_expect_str_eq(a->in_sig, c->in_sig);
		cr_expect_str_eq(a->out_sig, c->out_sig);
		cr_expect_eq(a->flags, c->flags);
	}
	/* a client without the header */
	cr_assert_eq(bc_iface_proxy_new(got, b, &p), 0);
	cr_expect_eq(bc_call(p, "add", 1, 2, &sum), 0);
	cr_expect_eq(sum, 3);
	bc_iface_proxy_unref(p);
	bc_iface_unref(got);
	bc_iface_unref(fi);
	bc_binder_unref(b);
	T_DONE();
}

static void *hammer(void *arg)
{
	const struct t_iface *t = bc_iface_proxy_methods(arg);

	for (int k = 0; k < 1000; k++) {
		int32_t sum = 0;
		char *o = NULL;

		if (t->add(arg, k, 1, &sum) != 0 || sum != k + 1)
			return (void *)1;
		if (t->fail(arg, 1, &sum) != 42 || bc_iface_last_status()->service_error != 42)
			return (void *)1;
		if (k % 10 == 0) {
			if (t->str(arg, "t", &o) != 0 || strcmp(o, "t!"))
				return (void *)1;
			free(o);
		}
	}
	return NULL;
}

Test(local, threads_share_a_proxy)
{
	struct t_state st = { 0 };
	pthread_t th[4];
	bc_binder *b;
	bc_iface_proxy *p;
	bc_iface *fi;

	cr_assert_eq(bc_iface_new(&t_iface_def, &fi, NULL), 0);
	cr_assert_eq(bc_iface_stub_new(fi, &t_impl, &st, NULL, &b), 0);
	cr_assert_eq(bc_iface_proxy_new(fi, b, &p), 0);
	for (int k = 0; k < 4; k++)
		cr_assert_eq(pthread_create(&th[k], NULL, hammer, p), 0);
	for (int k = 0; k < 4; k++) {
		void *rv;

		pthread_join(th[k], &rv);
		cr_expect_null(rv, "thread %d", k);
	}
	cr_expect_eq(atomic_load(&st.calls), 4000);
	bc_iface_proxy_unref(p);
	bc_binder_unref(b);
	bc_iface_unref(fi);
	T_DONE();
}

/* An implementation that throws, then calls another local object (which
 * dispatches on this thread) before returning: its exception survives. */
static bc_iface_proxy *nested_px;

static int nested_fail(void *self, int32_t how, int32_t *never)
{
	int32_t sum = 0;
	int r;

	(void)self, (void)never;
	r = bc_iface_throw(BINDERC_EX_ILLEGAL_STATE, "outer");
	if (how == 1) {
		const struct t_iface *t = bc_iface_proxy_methods(nested_px);

		/* the inner call throws and succeeds in turn */
		cr_expect_eq(t->fail(nested_px, 2, &sum), -EREMOTEIO);
		cr_expect_eq(t->add(nested_px, 1, 2, &sum), 0);
	}
	return r;
}

Test(local, nested_dispatch_keeps_outer_exception)
{
	struct t_iface outer_impl = t_impl;
	bc_binder *inner, *outer;
	bc_iface_proxy *p;
	bc_iface *fi;
	int32_t v;

	outer_impl.fail = nested_fail;
	cr_assert_eq(bc_iface_new(&t_iface_def, &fi, NULL), 0);
	cr_assert_eq(bc_iface_stub_new(fi, &t_impl, NULL, NULL, &inner), 0);
	cr_assert_eq(bc_iface_stub_new(fi, &outer_impl, NULL, NULL, &outer), 0);
	cr_assert_eq(bc_iface_proxy_new(fi, inner, &nested_px), 0);
	cr_assert_eq(bc_iface_proxy_new(fi, outer, &p), 0);
	cr_expect_eq(bc_call(p, "fail", 1, &v), -EREMOTEIO);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_ILLEGAL_STATE);
	cr_expect_str_eq(bc_iface_last_status()->message, "outer");
	nested_px = bc_iface_proxy_unref(nested_px);
	bc_iface_proxy_unref(p);
	bc_binder_unref(inner);
	bc_binder_unref(outer);
	bc_iface_unref(fi);
	T_DONE();
}

Test(local, resolve_by_descriptor)
{
	bc_binder *b;
	bc_iface *fi, *got;

	cr_assert_eq(bc_iface_new(&t_iface_def, &fi, NULL), 0);
	cr_assert_eq(bc_iface_stub_new(fi, &t_impl, NULL, NULL, &b), 0);
	/* not registered: fetched from the object */
	cr_assert_eq(bc_iface_resolve(b, &got), 0);
	cr_expect_neq(got, fi);
	cr_expect_str_eq(bc_iface_get_descriptor(got), T_DESCRIPTOR);
	cr_expect_eq(bc_iface_get_n_methods(got), 16);
	bc_iface_unref(got);
	/* registered: that very description */
	cr_assert_eq(bc_iface_register(fi, false), 0);
	cr_assert_eq(bc_iface_resolve(b, &got), 0);
	cr_expect_eq(got, fi);
	bc_iface_unref(got);
	cr_expect_eq(bc_iface_unregister(T_DESCRIPTOR), 0);
	bc_binder_unref(b);
	bc_iface_unref(fi);
	T_DONE();
}

Test(loop, parcel_file_descriptors)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), o = 123;
	struct stat a, c;

	cr_assert_geq(fd, 0);
	cr_assert_eq(T->pfd(px, fd, -1, &o), 0);
	cr_expect_eq(o, -1); /* null back */
	cr_assert_eq(T->pfd(px, fd, fd, &o), 0);
	cr_assert_geq(o, 0);
	cr_assert_eq(fstat(fd, &a), 0);
	cr_assert_eq(fstat(o, &c), 0);
	cr_expect(a.st_ino == c.st_ino);
	close(o);
	cr_expect_eq(bc_call(px, "pfd", fd, -1, &o), 0);
	cr_expect_eq(o, -1);
	close(fd);
	T_DONE();
}
