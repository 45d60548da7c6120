// SPDX-License-Identifier: MIT
/*
 * Guest tests of signature interfaces across processes, on the device in
 * $BINDER_DEVICE (run once on mainline /dev/binder, once on /dev/binderc):
 * ffi stub vs hand-written client, hand-written stub vs ffi proxy, ffi on
 * both sides for every type, binder objects and fds through signatures,
 * 4 threads x 1000 calls, malformed calls, unknown codes, exceptions,
 * one-way calls and fetching a description from the service.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>

#include "guest.h"
#include "th_rpc.h"
#include "testiface.h"

/* A second interface whose methods move objects around. */
/* clang-format off */
#define G_METHODS(METHOD, ONEWAY, IN, OUT)                                   \
	METHOD(get_test, , OUT(binder, t))                                   \
	METHOD(call_back, IN(binder, cb) IN(i32, a) IN(i32, b), OUT(i32, sum)) \
	METHOD(make_obj, , OUT(binder, obj))                                 \
	METHOD(pipe_fd, IN(string, text), OUT(fd, rd))                       \
	METHOD(write_fd, IN(fd, fd) IN(string, text), )                      \
	METHOD(same, IN(binder, a) IN(nbinder, b), OUT(bool, same))
/* clang-format on */
BINDERC_IFACE_DECLARE(g_iface, "org.binderc.IGuest", G_METHODS);

/* ---- servers (run in the child) ---------------------------------------- */

static struct t_state srv_state;
static bc_iface *srv_t_iface;
static bc_binder *srv_t_obj;

static bc_binder *make_t_stub(void *arg, bc_process *proc)
{
	bc_binder *b;

	(void)arg, (void)proc;
	G_OK(bc_iface_new(&t_iface_def, &srv_t_iface, NULL));
	G_OK(bc_iface_stub_new(srv_t_iface, &t_impl, &srv_state, NULL, &b));
	return b;
}

/* hand-written stub of a part of ITest */
static int hand_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	int32_t a, b;
	char *s = NULL;
	bc_status st = BINDERC_STATUS_INIT;
	int r;

	(void)self, (void)txn, (void)ud;
	switch (code) {
	case BINDERC_IFACE_CODE(t_iface, add):
		if (bc_parcel_read_int32(in, &a) < 0 || bc_parcel_read_int32(in, &b) < 0)
			return -EINVAL;
		r = bc_parcel_write_status(reply, NULL);
		return r ? r : bc_parcel_write_int32(reply, a + b);
	case BINDERC_IFACE_CODE(t_iface, str): {
		size_t n;

		if (bc_parcel_read_string16(in, &s, &n) < 0 || !s)
			return -EINVAL;
		for (size_t k = 0; k < n / 2; k++) {
			char c = s[k];

			s[k] = s[n - 1 - k], s[n - 1 - k] = c;
		}
		r = bc_parcel_write_status(reply, NULL);
		if (r == 0)
			r = bc_parcel_write_string16(reply, s);
		free(s);
		return r;
	}
	case BINDERC_IFACE_CODE(t_iface, fail):
		bc_status_set_service_error(&st, 42, "hand");
		r = bc_parcel_write_status(reply, &st);
		bc_status_clear(&st);
		return r;
	}
	return -EBADMSG;
}

static bc_binder *make_hand_stub(void *arg, bc_process *proc)
{
	bc_class *c;
	bc_binder *b;

	(void)arg, (void)proc;
	G_OK(bc_class_new(T_DESCRIPTOR, hand_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &c));
	G_OK(bc_binder_new(c, NULL, &b));
	bc_class_unref(c);
	return b;
}

static int g_get_test(void *self, bc_binder **t)
{
	(void)self;
	*t = bc_binder_ref(srv_t_obj);
	return 0;
}

static int g_call_back(void *self, bc_binder *cb, int32_t a, int32_t b, int32_t *sum)
{
	bc_iface_proxy *p;
	int r;

	(void)self;
	r = bc_iface_proxy_new(srv_t_iface, cb, &p);
	if (r < 0)
		return r;
	r = ((const struct t_iface *)bc_iface_proxy_methods(p))->add(p, a, b, sum);
	bc_iface_proxy_unref(p);
	return r;
}

static int g_make_obj(void *self, bc_binder **obj)
{
	(void)self;
	return bc_iface_stub_new(srv_t_iface, &t_impl, &srv_state, NULL, obj);
}

static int g_pipe_fd(void *self, const char *text, int *rd)
{
	int p[2];
	size_t n = strlen(text);

	(void)self;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	if (write(p[1], text, n) != (ssize_t)n) {
		close(p[0]), close(p[1]);
		return -EIO;
	}
	close(p[1]);
	*rd = p[0];
	return 0;
}

static int g_write_fd(void *self, int fd, const char *text)
{
	size_t n = strlen(text);

	(void)self;
	return write(fd, text, n) == (ssize_t)n ? 0 : -EIO;
}

static int g_same(void *self, bc_binder *a, bc_binder *b, bool *same)
{
	(void)self;
	*same = a == b;
	return 0;
}

static const struct g_iface g_impl = {
	.get_test = g_get_test,
	.call_back = g_call_back,
	.make_obj = g_make_obj,
	.pipe_fd = g_pipe_fd,
	.write_fd = g_write_fd,
	.same = g_same,
};

static bc_binder *make_g_stub(void *arg, bc_process *proc)
{
	bc_iface *gi;
	bc_binder *b;

	(void)arg, (void)proc;
	G_OK(bc_iface_new(&t_iface_def, &srv_t_iface, NULL));
	G_OK(bc_iface_stub_new(srv_t_iface, &t_impl, &srv_state, NULL, &srv_t_obj));
	G_OK(bc_iface_new(&g_iface_def, &gi, NULL));
	G_OK(bc_iface_stub_new(gi, &g_impl, NULL, NULL, &b));
	bc_iface_unref(gi);
	return b;
}

/* ---- client side ------------------------------------------------------ */

static pid_t srv_pid;
static bc_process *proc;
static bc_binder *srv;
static bc_iface *ti;
static bc_iface_proxy *tp;
static const struct t_iface *T;

static void connect_to(bc_binder *(*make)(void *, bc_process *))
{
	srv_pid = g_server_start(make, NULL);
	cr_assert_gt(srv_pid, 0, "server did not start");
	cr_assert_eq(g_client(&proc, &srv), 0);
	cr_assert_eq(bc_iface_new(&t_iface_def, &ti, NULL), 0);
}

static void use_t(bc_binder *b)
{
	cr_assert_eq(bc_iface_proxy_new(ti, b, &tp), 0);
	T = bc_iface_proxy_methods(tp);
}

static void teardown(void)
{
	tp = bc_iface_proxy_unref(tp);
	ti = bc_iface_unref(ti);
	srv = bc_binder_unref(srv);
	if (proc) {
		bc_process_stop(proc);
		proc = bc_process_unref(proc);
	}
	th_kill(srv_pid);
	srv_pid = 0;
}

TestSuite(guest, .fini = teardown, .timeout = 600); /* hang detector: the debug kernel is slow */

Test(guest, ffi_stub_hand_written_client)
{
	bc_parcel *req, *rep = NULL;
	bc_status st = BINDERC_STATUS_INIT;
	int32_t v = 0;
	char *s = NULL;

	connect_to(make_t_stub);
	cr_assert_eq(bc_binder_new_parcel(srv, &req), 0);
	cr_assert_eq(bc_parcel_write_interface_token(req, T_DESCRIPTOR), 0);
	cr_assert_eq(bc_parcel_write_int32(req, 40), 0);
	cr_assert_eq(bc_parcel_write_int32(req, 2), 0);
	cr_assert_eq(bc_binder_transact(srv, BINDERC_IFACE_CODE(t_iface, add), req, &rep, 0, NULL), 0);
	bc_parcel_unref(req);
	cr_assert_eq(bc_parcel_read_status(rep, &st), 0);
	cr_expect(bc_status_is_ok(&st));
	cr_assert_eq(bc_parcel_read_int32(rep, &v), 0);
	cr_expect_eq(v, 42);
	rep = bc_parcel_unref(rep);

	cr_assert_eq(bc_binder_new_parcel(srv, &req), 0);
	cr_assert_eq(bc_parcel_write_interface_token(req, T_DESCRIPTOR), 0);
	cr_assert_eq(bc_parcel_write_string16(req, "gr\xc3\xbc\xc3\x9f"), 0);
	cr_assert_eq(bc_binder_transact(srv, BINDERC_IFACE_CODE(t_iface, str), req, &rep, 0, NULL), 0);
	bc_parcel_unref(req);
	cr_assert_eq(bc_parcel_read_status(rep, &st), 0);
	cr_assert_eq(bc_parcel_read_string16(rep, &s, NULL), 0);
	cr_expect_str_eq(s, "gr\xc3\xbc\xc3\x9f!");
	free(s);
	rep = bc_parcel_unref(rep);

	cr_assert_eq(bc_binder_new_parcel(srv, &req), 0);
	cr_assert_eq(bc_parcel_write_interface_token(req, T_DESCRIPTOR), 0);
	cr_assert_eq(bc_parcel_write_int32(req, 1), 0);
	cr_assert_eq(bc_binder_transact(srv, BINDERC_IFACE_CODE(t_iface, fail), req, &rep, 0, NULL), 0);
	bc_parcel_unref(req);
	cr_assert_eq(bc_parcel_read_status(rep, &st), 0);
	cr_expect_eq(st.exception, BINDERC_EX_SERVICE_SPECIFIC);
	cr_expect_eq(st.service_error, 42);
	bc_status_clear(&st);
	bc_parcel_unref(rep);
}

Test(guest, hand_written_stub_ffi_proxy)
{
	char *s = NULL;
	int32_t v = 0;

	connect_to(make_hand_stub);
	use_t(srv);
	cr_expect_eq(T->add(tp, 40, 2, &v), 0);
	cr_expect_eq(v, 42);
	cr_expect_eq(T->str(tp, "abc", &s), 0);
	cr_expect_str_eq(s, "cba");
	free(s);
	cr_expect_eq(T->fail(tp, 0, &v), 42);
	cr_expect_str_eq(bc_iface_last_status()->message, "hand");
	cr_expect_eq(T->count(tp, &v), -EBADMSG); /* not implemented by hand */
	cr_expect_eq(bc_call(tp, "add", 1, 1, &v), 0);
	cr_expect_eq(v, 2);
}

Test(guest, ffi_both_sides_every_type)
{
	int32_t oi, *oiv;
	uint32_t ou, *ouv;
	int64_t ox, *oxv;
	uint64_t ot, *otv;
	bool ob, *obv;
	int8_t oy;
	uint16_t oc, *ocv;
	float of, *ofv;
	double od, *odv;
	char *s, **sv;
	void *buf;
	size_t n1, n2, n3, n4, big_len;
	const char *strs[] = { "a", "\xe2\x82\xac", "" };
	static uint8_t big[200000];

	connect_to(make_t_stub);
	use_t(srv);
	cr_assert_eq(T->scalars(tp, -5, 7u, INT64_MIN, UINT64_MAX, true, 100, 0xd800, 0.75f, 1e-300, &oi, &ou, &ox,
				&ot, &ob, &oy, &oc, &of, &od),
		     0);
	cr_expect(oi == 5 && ou == ~7u && ox == INT64_MIN && ot == 0 && !ob && oy == -100 && oc == 0xd801);
	cr_expect(of == 1.5f && od == 2e-300);
	cr_assert_eq(T->str(tp, "\xf0\x9f\x98\x80", &s), 0);
	cr_expect_str_eq(s, "\xf0\x9f\x98\x80!");
	free(s);
	cr_assert_eq(T->nstr(tp, NULL, &s), 0);
	cr_expect_null(s);
	for (size_t k = 0; k < sizeof(big); k++)
		big[k] = (uint8_t)(k * 7);
	/* RPC binder's receivers take bodies of at most 100,000 bytes (as
	 * Android's do): a larger call is refused before it is sent */
	if (th_rpc())
		cr_assert_eq(T->bytes(tp, big, sizeof(big), &buf, &n1), -EMSGSIZE);
	big_len = th_rpc() ? 90000 : sizeof(big);
	cr_assert_eq(T->bytes(tp, big, big_len, &buf, &n1), 0);
	cr_assert_eq(n1, big_len);
	cr_expect_eq(((uint8_t *)buf)[0], 0xff);
	cr_expect_eq(memcmp((uint8_t *)buf + 1, big + 1, big_len - 1), 0);
	free(buf);
	cr_assert_eq(T->nbytes(tp, NULL, 0, &buf, &n1), 0);
	cr_expect_null(buf);
	{
		int32_t i[] = { 1, 2 };
		int64_t x[] = { -1 };
		bool b[] = { true, false, true };
		uint16_t c[] = { 'q' };

		cr_assert_eq(T->arrays1(tp, i, 2, x, 1, b, 3, c, 1, &oiv, &n1, &oxv, &n2, &obv, &n3, &ocv, &n4), 0);
		cr_expect(n1 == 2 && oiv[1] == 2 && n2 == 1 && oxv[0] == -1 && n3 == 3 && obv[2] && n4 == 1 &&
			  ocv[0] == 'q');
		free(oiv), free(oxv), free(obv), free(ocv);
	}
	{
		float f[] = { 1.5f, 2.5f };
		double d[] = { 3.25 };
		uint32_t u[] = { 0xffffffffu };
		uint64_t t[] = { 1, 2, 3 };

		cr_assert_eq(T->arrays2(tp, f, 2, d, 1, u, 1, t, 3, &ofv, &n1, &odv, &n2, &ouv, &n3, &otv, &n4), 0);
		cr_expect(n1 == 2 && ofv[1] == 2.5f && n2 == 1 && odv[0] == 3.25 && n3 == 1 && ouv[0] == 0xffffffffu &&
			  n4 == 3 && otv[2] == 3);
		free(ofv), free(odv), free(ouv), free(otv);
	}
	cr_assert_eq(T->strs(tp, strs, 3, &sv, &n1), 0);
	cr_assert_eq(n1, 3);
	cr_expect_str_eq(sv[1], "\xe2\x82\xac");
	cr_expect_str_eq(sv[2], "a");
	bc_strv_free(sv, n1);
	cr_expect_eq(T->nothing(tp), 0);
}

Test(guest, exceptions_and_status_codes)
{
	int32_t v = -1;

	connect_to(make_t_stub);
	use_t(srv);
	cr_expect_eq(T->fail(tp, 0, &v), 0);
	cr_expect_eq(v, 7);
	cr_expect_eq(T->fail(tp, 1, &v), 42);
	cr_expect_eq(bc_iface_last_status()->service_error, 42);
	cr_expect_eq(T->fail(tp, 2, &v), -EREMOTEIO);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_ILLEGAL_ARGUMENT);
	cr_expect_str_eq(bc_iface_last_status()->message, "bad argument");
	cr_expect_eq(T->fail(tp, 3, &v), 5);
	cr_expect_str_eq(bc_iface_last_status()->message, "five");
	cr_expect_eq(T->fail(tp, 4, &v), -ENOSYS);
	cr_expect_eq(T->fail(tp, 5, &v), -EREMOTEIO);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_UNSUPPORTED_OPERATION);
}

Test(guest, binder_objects_through_signatures)
{
	bc_iface *gi;
	bc_iface_proxy *gp;
	const struct g_iface *G;
	bc_binder *t = NULL, *obj = NULL, *mine, *back = NULL;
	struct t_state my_state = { 0 };
	int32_t v = 0;
	bool same = false;

	connect_to(make_g_stub);
	cr_assert_eq(bc_iface_new(&g_iface_def, &gi, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new(gi, srv, &gp), 0);
	G = bc_iface_proxy_methods(gp);

	/* a remote object received as an output */
	cr_assert_eq(G->get_test(gp, &t), 0);
	cr_assert_not_null(t);
	cr_expect(bc_binder_is_remote(t));
	use_t(t);
	cr_expect_eq(T->add(tp, 3, 4, &v), 0);
	cr_expect_eq(v, 7);
	cr_assert_eq(G->make_obj(gp, &obj), 0);
	cr_assert_not_null(obj);
	{
		bc_iface_proxy *op;

		cr_assert_eq(bc_iface_proxy_new(ti, obj, &op), 0);
		cr_expect_eq(bc_call(op, "add", 5, 6, &v), 0);
		cr_expect_eq(v, 11);
		bc_iface_proxy_unref(op);
	}
	/* our own local object as an input: the server calls back into it */
	cr_assert_eq(bc_iface_stub_new(ti, &t_impl, &my_state, NULL, &mine), 0);
	cr_expect_eq(G->call_back(gp, mine, 20, 22, &v), 0);
	cr_expect_eq(v, 42);
	cr_expect_eq(atomic_load(&my_state.calls), 1);
	/* the server sees one proxy for one object */
	cr_expect_eq(G->same(gp, mine, mine, &same), 0);
	cr_expect(same);
	cr_expect_eq(G->same(gp, mine, NULL, &same), 0);
	cr_expect(!same);
	cr_expect_eq(G->same(gp, NULL, NULL, &same), -EINVAL); /* non-nullable a */
	/* our object sent out and back comes back as itself */
	cr_expect_eq(T->binder(tp, mine, &back), 0);
	cr_expect_eq(back, mine);
	bc_binder_unref(back);
	cr_expect_eq(T->binder(tp, NULL, &back), 0);
	cr_expect_null(back);

	bc_binder_unref(mine);
	bc_binder_unref(obj);
	bc_binder_unref(t);
	bc_iface_proxy_unref(gp);
	bc_iface_unref(gi);
}

Test(guest, fds_through_signatures)
{
	bc_iface *gi;
	bc_iface_proxy *gp;
	const struct g_iface *G;
	bc_binder *t = NULL;
	char buf[64] = { 0 };
	int rd = -1, p[2], o = -1;

	connect_to(make_g_stub);
	cr_assert_eq(bc_iface_new(&g_iface_def, &gi, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new(gi, srv, &gp), 0);
	G = bc_iface_proxy_methods(gp);

	cr_assert_eq(G->pipe_fd(gp, "from-service", &rd), 0);
	cr_assert_geq(rd, 0);
	cr_expect_eq(read(rd, buf, sizeof(buf) - 1), 12);
	cr_expect_str_eq(buf, "from-service");
	close(rd);

	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	cr_expect_eq(G->write_fd(gp, p[1], "to-service"), 0);
	memset(buf, 0, sizeof(buf));
	cr_expect_eq(read(p[0], buf, sizeof(buf) - 1), 10);
	cr_expect_str_eq(buf, "to-service");

	/* an fd there and a duplicate back */
	cr_assert_eq(G->get_test(gp, &t), 0);
	use_t(t);
	cr_assert_eq(T->fd(tp, p[1], &o), 0);
	cr_assert_geq(o, 0);
	cr_expect_eq(write(o, "dup", 3), 3);
	memset(buf, 0, sizeof(buf));
	cr_expect_eq(read(p[0], buf, sizeof(buf) - 1), 3);
	cr_expect_str_eq(buf, "dup");
	close(o);
	/* the same as ParcelFileDescriptors (nullable one back) */
	cr_assert_eq(T->pfd(tp, p[1], p[1], &o), 0);
	cr_assert_geq(o, 0);
	cr_expect_eq(write(o, "pfd", 3), 3);
	memset(buf, 0, sizeof(buf));
	cr_expect_eq(read(p[0], buf, sizeof(buf) - 1), 3);
	cr_expect_str_eq(buf, "pfd");
	close(o);
	cr_assert_eq(T->pfd(tp, p[1], -1, &o), 0);
	cr_expect_eq(o, -1);
	close(p[0]), close(p[1]);
	bc_binder_unref(t);
	bc_iface_proxy_unref(gp);
	bc_iface_unref(gi);
}

static void *hammer(void *arg)
{
	intptr_t id = (intptr_t)arg;

	for (int k = 0; k < 1000; k++) {
		int32_t v = 0;

		if (T->add(tp, (int32_t)id * 100000, k, &v) != 0 || v != (int32_t)id * 100000 + k)
			return (void *)1;
		if (k % 100 == 0 && (T->fail(tp, 1, &v) != 42 || bc_iface_last_status()->service_error != 42))
			return (void *)2;
	}
	return NULL;
}

Test(guest, thousand_calls_from_four_threads)
{
	pthread_t th[4];

	connect_to(make_t_stub);
	use_t(srv);
	for (intptr_t k = 0; k < 4; k++)
		cr_assert_eq(pthread_create(&th[k], NULL, hammer, (void *)k), 0);
	for (int k = 0; k < 4; k++) {
		void *rv = NULL;

		pthread_join(th[k], &rv);
		cr_expect_null(rv, "thread %d failed (%p)", k, rv);
	}
}

static int raw_call(uint32_t code, const char *descriptor, void (*fill)(bc_parcel *))
{
	bc_parcel *req, *rep = NULL;
	int r;

	cr_assert_eq(bc_binder_new_parcel(srv, &req), 0);
	if (descriptor)
		cr_assert_eq(bc_parcel_write_interface_token(req, descriptor), 0);
	if (fill)
		fill(req);
	r = bc_binder_transact(srv, code, req, &rep, 0, NULL);
	bc_parcel_unref(req);
	bc_parcel_unref(rep);
	return r;
}

static void one_int(bc_parcel *p)
{
	bc_parcel_write_int32(p, 1);
}

static void null_string(bc_parcel *p)
{
	bc_parcel_write_string16(p, NULL);
}

static void long_string_claim(bc_parcel *p)
{
	bc_parcel_write_int32(p, 5000);
	bc_parcel_write_int32(p, 0x00410041);
}

static void a_binder(bc_parcel *p)
{
	bc_parcel_write_binder(p, srv);
}

static void an_fd(bc_parcel *p)
{
	bc_parcel_write_fd(p, open("/dev/null", O_RDONLY | O_CLOEXEC), true);
}

Test(guest, malformed_calls_rejected)
{
	int32_t v = 0;

	connect_to(make_t_stub);
	use_t(srv);
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, add), T_DESCRIPTOR, one_int), -EINVAL); /* truncated */
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, add), T_DESCRIPTOR, NULL), -EINVAL);
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, str), T_DESCRIPTOR, null_string), -EINVAL);
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, str), T_DESCRIPTOR, long_string_claim), -EINVAL);
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, binder), T_DESCRIPTOR, one_int), -EINVAL); /* int for binder */
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, fd), T_DESCRIPTOR, a_binder), -EINVAL); /* binder for fd */
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, binder), T_DESCRIPTOR, an_fd), -EINVAL); /* fd for binder */
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, add), "org.binderc.IOther", one_int), -EPERM);
	cr_expect_eq(raw_call(BINDERC_IFACE_CODE(t_iface, add), NULL, one_int), -EINVAL); /* no token */
	/* unknown codes */
	cr_expect_eq(raw_call(99, T_DESCRIPTOR, NULL), -EBADMSG);
	cr_expect_eq(raw_call(BINDERC_LAST_CALL_TRANSACTION, T_DESCRIPTOR, NULL), -EBADMSG);
	cr_expect_eq(raw_call(0x12345678, NULL, NULL), -EBADMSG);
	/* and the server is fine */
	cr_expect_eq(bc_binder_ping(srv), 0);
	cr_expect_eq(T->add(tp, 1, 2, &v), 0);
	cr_expect_eq(v, 3);
}

Test(guest, oneway_calls)
{
	int32_t n = 0;
	int64_t end;

	connect_to(make_t_stub);
	use_t(srv);
	for (int k = 1; k <= 100; k++)
		cr_assert_eq(T->poke(tp, k), 0);
	/* one-way calls may still be queued behind: wait for them */
	end = th_now_ms() + TH_HANG_MS;
	do
		cr_assert_eq(T->count(tp, &n), 0);
	while (n != 5050 && th_nap_until(end));
	cr_expect_eq(n, 5050);
}

Test(guest, fetch_description_from_service)
{
	bc_iface *got;
	bc_iface_proxy *p;
	char *s = NULL;
	int32_t v = 0;

	connect_to(make_t_stub);
	cr_assert_eq(bc_iface_fetch(srv, &got), 0);
	cr_expect_str_eq(bc_iface_get_descriptor(got), T_DESCRIPTOR);
	cr_expect_eq(bc_iface_get_n_methods(got), 16);
	cr_assert_eq(bc_iface_proxy_new(got, srv, &p), 0);
	cr_expect_eq(bc_call(p, "add", 2, 2, &v), 0);
	cr_expect_eq(v, 4);
	cr_expect_eq(bc_call(p, "str", "x", &s), 0);
	cr_expect_str_eq(s, "x!");
	free(s);
	bc_iface_proxy_unref(p);
	bc_iface_unref(got);
	/* the same by descriptor: '_NTF', then '_SIG' */
	cr_assert_eq(bc_iface_resolve(srv, &got), 0);
	cr_expect_str_eq(bc_iface_get_descriptor(got), T_DESCRIPTOR);
	cr_expect_eq(bc_iface_find_method(got, "poke"), 12);
	bc_iface_unref(got);
}
