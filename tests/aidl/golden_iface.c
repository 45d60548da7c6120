/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of the code bc-aidl generates for interfaces
 * (org.binderc.test.IAll, compiled with --version 3 --hash abc123):
 *  - proxy: the request each proxy function sends equals the one written
 *    by hand with bc_parcel calls (interface token, arguments in order,
 *    out-array sizes), to the transaction code and flags; hand-written
 *    replies decode into the right outputs and errors;
 *  - stub: hand-written requests given to the dispatcher produce the
 *    hand-written replies (status header, return value, out values);
 *  - loopback: proxy -> libbinder-c -> stub -> implementation and back.
 * No kernel: local objects run their handler on the calling thread.
 */
#include "at.h"

#include "org_binderc_test_IAll.h"
#include "org_binderc_test_ICallback.h"
#include "org_binderc_test_IExplicit.h"

#define DESC org_binderc_test_IAll_DESCRIPTOR

/* ---- a recording object: what did the proxy send? ------------------------- */

static unsigned char rec_data[8192];
static size_t rec_size, rec_nobj;
static uint32_t rec_code, rec_flags;
static void (*rec_reply)(bc_parcel *reply);

static int rec_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)ud;
	cr_assert_leq(bc_parcel_size(in), sizeof(rec_data));
	rec_size = bc_parcel_size(in);
	memcpy(rec_data, bc_parcel_data(in), rec_size);
	bc_parcel_offsets(in, &rec_nobj);
	rec_code = code;
	rec_flags = bc_txn_get_flags(txn);
	if (rec_reply)
		rec_reply(reply);
	else
		bc_parcel_write_status(reply, NULL);
	return 0;
}

static bc_binder *rec_new(const char *desc)
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	rec_reply = NULL;
	cr_assert_eq(bc_class_new(desc, rec_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	bc_class_unref(cls);
	return b;
}

/* A request as Android writes it: the interface token, then arguments. */
static bc_parcel *request(void)
{
	bc_parcel *p = at_parcel();

	cr_assert_eq(bc_parcel_write_interface_token(p, DESC), 0);
	return p;
}

static void expect_request(const bc_parcel *want, uint32_t code, uint32_t flags)
{
	size_t n;

	bc_parcel_offsets(want, &n);
	cr_assert_eq(rec_code, code, "code %u, want %u", rec_code, code);
	cr_assert_eq(rec_flags & BINDERC_FLAG_ONEWAY, flags);
	cr_assert_eq(rec_size, bc_parcel_size(want), "request size %zu, want %zu", rec_size, bc_parcel_size(want));
	cr_assert_eq(memcmp(rec_data, bc_parcel_data(want), rec_size), 0, "request bytes differ");
	cr_assert_eq(rec_nobj, n);
}

static void point_by_hand(bc_parcel *q, int32_t x, int32_t y, const char *label, int32_t color)
{
	size_t tok;

	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, x);
	bc_parcel_write_int32(q, y);
	bc_parcel_write_string16(q, label);
	bc_parcel_write_int32(q, color);
	bc_parcel_end_parcelable(q, tok);
}

Test(aidl_codes, transaction_codes)
{
	/* FIRST_CALL_TRANSACTION + index, or + the explicit id */
	cr_assert_eq(org_binderc_test_IAll_CODE_primitives, 1);
	cr_assert_eq(org_binderc_test_IAll_CODE_fail, 11);
	cr_assert_eq(org_binderc_test_IExplicit_CODE_first, 11);
	cr_assert_eq(org_binderc_test_IExplicit_CODE_second, 21);
	/* Android's meta transactions: FIRST_CALL + 16777214 / 16777213 */
	cr_assert_eq(org_binderc_test_IAll_CODE_getInterfaceVersion, 0xffffff);
	cr_assert_eq(org_binderc_test_IAll_CODE_getInterfaceHash, 0xfffffe);
	cr_assert_str_eq(DESC, "org.binderc.test.IAll");
	cr_assert_eq(org_binderc_test_IAll_VERSION, 3);
	cr_assert_str_eq(org_binderc_test_IAll_HASH, "abc123");
}

Test(aidl_codes, constants)
{
	cr_assert_eq(org_binderc_test_IAll_MAX, 100);
	cr_assert_eq(org_binderc_test_IAll_BIG, INT64_MAX);
	cr_assert_str_eq(org_binderc_test_IAll_NAME, "all-of-it");
	cr_assert_eq(org_binderc_test_IAll_YES, true);
	cr_assert_eq(org_binderc_test_IAll_MASK, -1); /* 0xff as a byte */
	cr_assert_eq(org_binderc_test_IAll_SEP, ',');
	cr_assert_eq(org_binderc_test_IAll_HALF, 0.5);
	cr_assert_eq(org_binderc_test_IAll_QUARTER, 0.25f);
}

/* ---- proxy: requests --------------------------------------------------------- */

static void reply_int(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, -77);
}

Test(aidl_proxy, primitives)
{
	bc_binder *b = rec_new(DESC);
	bc_parcel *q = request();
	int32_t ret = 0;

	rec_reply = reply_int;
	cr_assert_eq(org_binderc_test_IAll_primitives(b, true, -2, 0x20ac, 123456, -(INT64_C(1) << 40), 1.5f, -0.25, &ret), 0);
	bc_parcel_write_bool(q, true);
	bc_parcel_write_byte(q, -2);
	bc_parcel_write_char(q, 0x20ac);
	bc_parcel_write_int32(q, 123456);
	bc_parcel_write_int64(q, -(INT64_C(1) << 40));
	bc_parcel_write_float(q, 1.5f);
	bc_parcel_write_double(q, -0.25);
	expect_request(q, 1, 0);
	cr_assert_eq(ret, -77);
	bc_parcel_unref(q), bc_binder_unref(b);
}

static void reply_str(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_string16(r, "r\xc3\xa9ponse");
}

Test(aidl_proxy, strings)
{
	bc_binder *b = rec_new(DESC);
	bc_parcel *q = request();
	char *ret = NULL;

	rec_reply = reply_str;
	cr_assert_eq(org_binderc_test_IAll_strings(b, "h\xc3\xa9", "\xf0\x9f\x98\x80", &ret), 0);
	bc_parcel_write_string16(q, "h\xc3\xa9");
	bc_parcel_write_string16(q, "\xf0\x9f\x98\x80"); /* @utf8InCpp: UTF-16 too */
	expect_request(q, 2, 0);
	cr_assert_str_eq(ret, "r\xc3\xa9ponse");
	free(ret);
	cr_assert_eq(org_binderc_test_IAll_strings(b, NULL, "x", NULL), -EINVAL); /* non-nullable */
	bc_parcel_unref(q), bc_binder_unref(b);
}

Test(aidl_proxy, binders_and_enums)
{
	bc_binder *b = rec_new(DESC), *cb = rec_new("org.binderc.test.ICallback");
	bc_parcel *q = request();
	org_binderc_test_Color c = 0;

	cr_assert_eq(org_binderc_test_IAll_binders(b, b, cb, NULL), -ENODATA); /* reply lacks the binder */
	bc_parcel_write_binder(q, b);
	bc_parcel_write_binder(q, cb);
	expect_request(q, 3, 0);
	cr_assert_eq(org_binderc_test_IAll_binders(b, NULL, cb, NULL), -EINVAL);
	bc_parcel_unref(q);

	q = request();
	rec_reply = reply_int;
	cr_assert_eq(org_binderc_test_IAll_enums(b, org_binderc_test_Color_BLUE, org_binderc_test_Level_LOW,
						 org_binderc_test_Stamp_FAR, &c), 0);
	bc_parcel_write_int32(q, 6);
	bc_parcel_write_byte(q, -1);
	bc_parcel_write_int64(q, INT64_C(1) << 40);
	expect_request(q, 4, 0);
	cr_assert_eq(c, -77);
	bc_parcel_unref(q), bc_binder_unref(b), bc_binder_unref(cb);
}

/* Reply: status, Point return, out b, inout c (each: marker + body). */
static void reply_points(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 1);
	point_by_hand(r, 100, 101, "ret", 6);
	bc_parcel_write_int32(r, 1);
	point_by_hand(r, 200, 201, "out", 0);
	bc_parcel_write_int32(r, 1);
	point_by_hand(r, 300, 301, "inout", 5);
}

Test(aidl_proxy, parcelables_in_out_inout)
{
	bc_binder *b = rec_new(DESC);
	bc_parcel *q = request();
	org_binderc_test_Point a, ob, io, ret;

	org_binderc_test_Point_init(&a);
	org_binderc_test_Point_init(&io);
	a.x = 1, io.x = 3;
	memset(&ob, 0, sizeof(ob));
	rec_reply = reply_points;
	cr_assert_eq(org_binderc_test_IAll_parcelables(b, &a, &ob, &io, &ret), 0);
	bc_parcel_write_int32(q, 1); /* in a: marker + body */
	point_by_hand(q, 1, 7, "origin", 5);
	/* out b: nothing in the request */
	bc_parcel_write_int32(q, 1); /* inout c */
	point_by_hand(q, 3, 7, "origin", 5);
	expect_request(q, 5, 0);
	cr_assert_eq(ret.x, 100);
	cr_assert_str_eq(ret.label, "ret");
	cr_assert_eq(ob.y, 201);
	cr_assert_str_eq(ob.label, "out");
	cr_assert_eq(io.x, 300);
	cr_assert_str_eq(io.label, "inout");
	cr_assert_eq(io.color, 5);
	org_binderc_test_Point_clear(&a), org_binderc_test_Point_clear(&ob);
	org_binderc_test_Point_clear(&io), org_binderc_test_Point_clear(&ret);
	bc_parcel_unref(q), bc_binder_unref(b);
}

static void reply_arrays(bc_parcel *r)
{
	static const char *const strs[] = { "p", "q" };

	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32_array(r, (const int32_t[]){ 9, 8 }, 2);		  /* return */
	bc_parcel_write_int64_array(r, (const int64_t[]){ 1, 2, 3 }, 3);	  /* out b */
	bc_parcel_write_string16_array(r, strs, 2);				  /* inout c */
}

Test(aidl_proxy, arrays_in_out_inout)
{
	bc_binder *b = rec_new(DESC);
	bc_parcel *q = request();
	static const int32_t a[] = { 5, -6 };
	static const int8_t d[] = { 1, -1, 3 };
	static const bool e[] = { true, false };
	int64_t *ob = NULL;
	size_t ob_len = 3, c_len = 1, ret_len = 0;
	char **c = calloc(1, sizeof(char *));
	int32_t *ret = NULL;

	c[0] = strdup("old");
	rec_reply = reply_arrays;
	cr_assert_eq(org_binderc_test_IAll_arrays(b, a, 2, &ob, &ob_len, &c, &c_len, d, 3, e, 2, &ret, &ret_len), 0);
	bc_parcel_write_int32_array(q, a, 2);
	bc_parcel_write_int32(q, 3); /* out long[] b: the size asked for */
	bc_parcel_write_string16_array(q, (const char *const[]){ "old" }, 1);
	bc_parcel_write_byte_array(q, d, 3); /* byte[]: packed */
	bc_parcel_write_bool_array(q, e, 2);
	expect_request(q, 7, 0);
	cr_assert_eq(ret_len, 2);
	cr_assert_eq(ret[1], 8);
	cr_assert_eq(ob_len, 3);
	cr_assert_eq(ob[2], 3);
	cr_assert_eq(c_len, 2);
	cr_assert_str_eq(c[1], "q");
	free(ret), free(ob), bc_strv_free(c, c_len);
	bc_parcel_unref(q), bc_binder_unref(b);
}

Test(aidl_proxy, oneway_and_void)
{
	bc_binder *b = rec_new(DESC);
	bc_parcel *q = request();
	org_binderc_test_Point p;

	org_binderc_test_Point_init(&p);
	cr_assert_eq(org_binderc_test_IAll_fire(b, 12, &p), 0);
	bc_parcel_write_int32(q, 12);
	bc_parcel_write_int32(q, 1);
	point_by_hand(q, 0, 7, "origin", 5);
	expect_request(q, 8, BINDERC_FLAG_ONEWAY);
	bc_parcel_unref(q);
	q = request();
	cr_assert_eq(org_binderc_test_IAll_nothing(b), 0);
	expect_request(q, 9, 0);
	org_binderc_test_Point_clear(&p);
	bc_parcel_unref(q), bc_binder_unref(b);
}

static void reply_version(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 3);
}

Test(aidl_proxy, interface_version)
{
	bc_binder *b = rec_new(DESC);
	bc_parcel *q = request();
	int32_t v = 0;

	rec_reply = reply_version;
	cr_assert_eq(org_binderc_test_IAll_getInterfaceVersion(b, &v), 0);
	expect_request(q, 0xffffff, 0);
	cr_assert_eq(v, 3);
	bc_parcel_unref(q), bc_binder_unref(b);
}

/* ---- proxy: errors in replies ------------------------------------------------- */

static void reply_service_error(bc_parcel *r)
{
	bc_status st = BINDERC_STATUS_INIT;

	bc_status_set_service_error(&st, 42, "nope");
	bc_parcel_write_status(r, &st);
	bc_status_clear(&st);
}

static void reply_exception(bc_parcel *r)
{
	bc_status st = BINDERC_STATUS_INIT;

	bc_status_set_exception(&st, BINDERC_EX_ILLEGAL_ARGUMENT, "bad");
	bc_parcel_write_status(r, &st);
	bc_status_clear(&st);
}

static void reply_null_string(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_string16(r, NULL);
}

static void reply_truncated(bc_parcel *r)
{
	bc_parcel_write_status(r, NULL);
	bc_parcel_write_int32(r, 1);
	bc_parcel_write_int32(r, 64); /* a Point body claiming 64 bytes */
}

Test(aidl_proxy, reply_errors)
{
	bc_binder *b = rec_new(DESC);
	char *s = (char *)"untouched";
	org_binderc_test_Point a, ob, io, ret;

	rec_reply = reply_service_error;
	cr_assert_eq(org_binderc_test_IAll_fail(b, 1), 42);
	rec_reply = reply_exception;
	cr_assert_eq(org_binderc_test_IAll_strings(b, "a", "b", &s), -EREMOTEIO);
	cr_assert_str_eq(s, "untouched");
	rec_reply = reply_null_string; /* null for a non-nullable String */
	cr_assert_eq(org_binderc_test_IAll_strings(b, "a", "b", &s), -EBADMSG);
	cr_assert_str_eq(s, "untouched");
	rec_reply = reply_truncated;
	org_binderc_test_Point_init(&a);
	org_binderc_test_Point_init(&io);
	memset(&ob, 0, sizeof(ob));
	memset(&ret, 0, sizeof(ret));
	cr_assert_lt(org_binderc_test_IAll_parcelables(b, &a, &ob, &io, &ret), 0);
	cr_assert_str_eq(io.label, "origin"); /* inout untouched on failure */
	cr_assert_null(ret.label);
	org_binderc_test_Point_clear(&a), org_binderc_test_Point_clear(&io);
	bc_binder_unref(b);
}

/* ---- the service side -------------------------------------------------------------- */

static struct {
	bool z;
	int8_t b;
	uint16_t c;
	int64_t l;
	float f;
	double d;
	int32_t fired, fire_x, nothing;
	org_binderc_test_Level level;
	org_binderc_test_Stamp stamp;
	int cb_done;
} seen;

static int i_primitives(void *self, bool z, int8_t b, uint16_t c, int32_t i, int64_t l, float f, double d, int32_t *ret)
{
	cr_assert_eq(self, &seen);
	seen.z = z, seen.b = b, seen.c = c, seen.l = l, seen.f = f, seen.d = d;
	*ret = i * 2;
	return 0;
}

static int i_strings(void *self, const char *s, const char *u, char **ret)
{
	(void)self;
	*ret = malloc(strlen(s) + strlen(u) + 2);
	sprintf(*ret, "%s|%s", s, u);
	return 0;
}

static int i_binders(void *self, bc_binder *b, bc_binder *cb, bc_binder **ret)
{
	(void)self, (void)b;
	/* call the callback back (oneway) before answering */
	cr_assert_eq(org_binderc_test_ICallback_done(cb, 7, "bound"), 0);
	*ret = bc_binder_ref(cb);
	return 0;
}

static int i_enums(void *self, org_binderc_test_Color c, org_binderc_test_Level l, org_binderc_test_Stamp s,
		   org_binderc_test_Color *ret)
{
	(void)self;
	seen.level = l, seen.stamp = s;
	*ret = c == org_binderc_test_Color_RED ? org_binderc_test_Color_WHITE : org_binderc_test_Color_RED;
	return 0;
}

static int i_parcelables(void *self, const org_binderc_test_Point *a, org_binderc_test_Point *b,
			 org_binderc_test_Point *c, org_binderc_test_Point *ret)
{
	(void)self;
	cr_assert_eq(b->y, 7); /* out parcelables start with their defaults */
	cr_assert_eq(ret->y, 7);
	b->x = a->x + 1;
	c->y += 100;
	ret->x = a->x * 10;
	free(ret->label);
	ret->label = strdup("from service");
	return 0;
}

static int i_shapes(void *self, const org_binderc_test_Shape *s, org_binderc_test_Shape *ret)
{
	(void)self;
	ret->center.x = s->center.x * 2;
	ret->xs = malloc(sizeof(int32_t) * (s->xs_len + 1));
	memcpy(ret->xs, s->xs, sizeof(int32_t) * s->xs_len);
	ret->xs[s->xs_len] = -1;
	ret->xs_len = s->xs_len + 1;
	return 0;
}

static int i_arrays(void *self, const int32_t *a, size_t a_len, int64_t **b, size_t *b_len, char ***c, size_t *c_len,
		    const int8_t *d, size_t d_len, const bool *e, size_t e_len, int32_t **ret, size_t *ret_len)
{
	(void)self;
	for (size_t i = 0; i < *b_len; i++) /* out: pre-sized, zeroed */
		(*b)[i] = (int64_t)i * 10 + d_len;
	for (size_t i = 0; i < *c_len; i++) { /* inout: change in place */
		free((*c)[i]);
		(*c)[i] = strdup(e_len && e[0] ? "T" : "F");
	}
	*ret = malloc(sizeof(int32_t) * (a_len ? a_len : 1));
	for (size_t i = 0; i < a_len; i++)
		(*ret)[i] = a[i] + d[0];
	*ret_len = a_len;
	return 0;
}

static int i_fire(void *self, int32_t code, const org_binderc_test_Point *p)
{
	(void)self;
	seen.fired = code;
	seen.fire_x = p->x;
	return 5; /* dropped: one-way */
}

static int i_nothing(void *self)
{
	(void)self;
	seen.nothing++;
	return 0;
}

static int i_names(void *self, char ***ret, size_t *ret_len)
{
	(void)self;
	*ret = calloc(2, sizeof(char *));
	(*ret)[0] = strdup("x");
	(*ret)[1] = strdup("y");
	*ret_len = 2;
	return 0;
}

static int i_fail(void *self, int32_t code)
{
	(void)self;
	return code > 0 ? code : -EDOM;
}

static int i_levels(void *self, const org_binderc_test_Level *l, size_t l_len, const org_binderc_test_Color *c,
		    size_t c_len, org_binderc_test_Stamp **s, size_t *s_len, org_binderc_test_Level **ret, size_t *ret_len)
{
	(void)self;
	for (size_t i = 0; i < *s_len; i++)
		(*s)[i] = i ? org_binderc_test_Stamp_FAR : org_binderc_test_Stamp_NEG;
	*ret = malloc(l_len + 1);
	for (size_t i = 0; i < l_len; i++)
		(*ret)[i] = l[l_len - 1 - i];
	*ret_len = l_len;
	cr_assert_eq(c_len, 1);
	cr_assert_eq(c[0], org_binderc_test_Color_WHITE);
	return 0;
}

static int i_callbacks(void *self, bc_binder *const *cbs, size_t cbs_len, bc_binder ***bs, size_t *bs_len,
		       bc_binder ***ret, size_t *ret_len)
{
	(void)self;
	*ret = calloc(cbs_len + 1, sizeof(bc_binder *));
	for (size_t i = 0; i < cbs_len; i++) /* reversed */
		(*ret)[i] = bc_binder_ref(cbs[cbs_len - 1 - i]);
	*ret_len = cbs_len;
	if (*bs_len) { /* inout: drop the last one */
		bc_binder_unref((*bs)[*bs_len - 1]);
		(*bs_len)--;
	}
	return 0;
}

static const struct org_binderc_test_IAll_ops ops = {
	.levels = i_levels,
	.callbacks = i_callbacks,
	.primitives = i_primitives, .strings = i_strings, .binders = i_binders, .enums = i_enums,
	.parcelables = i_parcelables, .shapes = i_shapes, .arrays = i_arrays, .fire = i_fire,
	.nothing = i_nothing, .names = i_names, .fail = i_fail,
};

static int cb_done(void *self, int32_t code, const char *what)
{
	(void)self;
	cr_assert_eq(code, 7);
	cr_assert_str_eq(what, "bound");
	seen.cb_done++;
	return 0;
}

static const struct org_binderc_test_ICallback_ops cb_ops = { .done = cb_done };

/* Dispatch a hand-written request (after the token) and return the reply. */
static bc_parcel *serve(uint32_t code, bc_parcel *in, int want)
{
	bc_parcel *reply = at_parcel();

	at_rewind(in);
	cr_assert_eq(org_binderc_test_IAll_dispatch(&ops, &seen, code, in, reply), want);
	return reply;
}

Test(aidl_stub, primitives_reply)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;

	bc_parcel_write_bool(in, true);
	bc_parcel_write_byte(in, -2);
	bc_parcel_write_char(in, 'z');
	bc_parcel_write_int32(in, 21);
	bc_parcel_write_int64(in, INT64_MIN);
	bc_parcel_write_float(in, -1.0f);
	bc_parcel_write_double(in, 3.25);
	reply = serve(1, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 42);
	at_same(reply, want);
	at_bytes(reply, AT_BYTES(0, 0, 0, 0, 42, 0, 0, 0));
	cr_assert(seen.z);
	cr_assert_eq(seen.b, -2);
	cr_assert_eq(seen.c, 'z');
	cr_assert_eq(seen.l, INT64_MIN);
	cr_assert_eq(seen.f, -1.0f);
	cr_assert_eq(seen.d, 3.25);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

Test(aidl_stub, parcelables_reply)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;

	bc_parcel_write_int32(in, 1);
	point_by_hand(in, 4, 5, "a", 0);
	bc_parcel_write_int32(in, 1);
	point_by_hand(in, 6, 7, "c", 6);
	reply = serve(5, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 1); /* return */
	point_by_hand(want, 40, 7, "from service", 5);
	bc_parcel_write_int32(want, 1); /* out b */
	point_by_hand(want, 5, 7, "origin", 5);
	bc_parcel_write_int32(want, 1); /* inout c */
	point_by_hand(want, 6, 107, "c", 6);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

Test(aidl_stub, arrays_reply)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;

	bc_parcel_write_int32_array(in, (const int32_t[]){ 1, 2 }, 2);
	bc_parcel_write_int32(in, 2); /* out long[]: size 2 */
	bc_parcel_write_string16_array(in, (const char *const[]){ "u", "v", "w" }, 3);
	bc_parcel_write_byte_array(in, "\x05", 1);
	bc_parcel_write_bool_array(in, (const bool[]){ true }, 1);
	reply = serve(7, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32_array(want, (const int32_t[]){ 6, 7 }, 2);
	bc_parcel_write_int64_array(want, (const int64_t[]){ 1, 11 }, 2);
	bc_parcel_write_string16_array(want, (const char *const[]){ "T", "T", "T" }, 3);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

Test(aidl_stub, errors)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;
	bc_status st = BINDERC_STATUS_INIT;

	/* positive return: EX_SERVICE_SPECIFIC header and nothing else */
	bc_parcel_write_int32(in, 9);
	reply = serve(11, in, 0);
	bc_status_set_service_error(&st, 9, NULL);
	bc_parcel_write_status(want, &st);
	at_same(reply, want);
	bc_status_clear(&st);
	bc_parcel_unref(reply), bc_parcel_unref(in), bc_parcel_unref(want);
	/* negative return: the transaction status */
	in = at_parcel();
	bc_parcel_write_int32(in, -1);
	bc_parcel_unref(serve(11, in, -EDOM));
	bc_parcel_unref(in);
	/* undecodable requests: BAD_VALUE */
	in = at_parcel();
	bc_parcel_write_string16(in, NULL); /* null String */
	bc_parcel_write_string16(in, "x");
	bc_parcel_unref(serve(2, in, -EINVAL));
	bc_parcel_unref(in);
	in = at_parcel();
	bc_parcel_write_int32(in, 1); /* truncated primitives */
	bc_parcel_unref(serve(1, in, -EINVAL));
	bc_parcel_unref(in);
	in = at_parcel();
	bc_parcel_write_int32(in, 0); /* a null Point */
	bc_parcel_unref(serve(5, in, -EINVAL));
	bc_parcel_unref(in);
	in = at_parcel();
	bc_parcel_write_int32_array(in, NULL, 0);
	bc_parcel_write_int32(in, -1); /* out array of size -1 */
	bc_parcel_unref(serve(7, in, -EINVAL));
	bc_parcel_unref(in);
	/* unknown code */
	in = at_parcel();
	bc_parcel_unref(serve(99, in, -EBADMSG));
	bc_parcel_unref(in);
}

/* enum arrays travel as arrays of their backing type */
Test(aidl_stub, enum_arrays_reply)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;
	bc_binder *svc = NULL;
	org_binderc_test_Level *r = NULL;
	org_binderc_test_Stamp *s = NULL;
	size_t r_len = 0, s_len = 3;

	bc_parcel_write_byte_array(in, (const int8_t[]){ -1, 0, 127 }, 3); /* Level[]: byte-backed, packed */
	bc_parcel_write_int32_array(in, (const int32_t[]){ 0x105 }, 1);     /* Color[]: int32 each */
	bc_parcel_write_int32(in, 2);					    /* out Stamp[]: size 2 */
	reply = serve(12, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_byte_array(want, (const int8_t[]){ 127, 0, -1 }, 3);
	bc_parcel_write_int64_array(want, (const int64_t[]){ -2, INT64_C(1) << 40 }, 2);
	at_same(reply, want);
	cr_assert_eq(org_binderc_test_IAll_stub_new(&ops, &seen, NULL, &svc), 0);
	cr_assert_eq(org_binderc_test_IAll_levels(svc, (const org_binderc_test_Level[]){ 1, 2 }, 2,
						  (const org_binderc_test_Color[]){ org_binderc_test_Color_WHITE }, 1, &s,
						  &s_len, &r, &r_len),
		     0);
	cr_assert_eq(r_len, 2);
	cr_assert_eq(r[0], 2);
	cr_assert_eq(s_len, 3);
	cr_assert_eq(s[2], org_binderc_test_Stamp_FAR);
	free(r), free(s);
	bc_binder_unref(svc);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

Test(aidl_loopback, binder_arrays)
{
	bc_binder *svc = NULL, *a = NULL, *b = NULL, **ret = NULL, **bs = calloc(2, sizeof(bc_binder *));
	size_t ret_len = 0, bs_len = 2;
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;

	cr_assert_eq(org_binderc_test_IAll_stub_new(&ops, &seen, NULL, &svc), 0);
	cr_assert_eq(org_binderc_test_ICallback_stub_new(&cb_ops, NULL, NULL, &a), 0);
	cr_assert_eq(org_binderc_test_ICallback_stub_new(&cb_ops, NULL, NULL, &b), 0);
	bs[0] = bc_binder_ref(a), bs[1] = bc_binder_ref(b);
	cr_assert_eq(org_binderc_test_IAll_callbacks(svc, (bc_binder *const[]){ a, b }, 2, &bs, &bs_len, &ret, &ret_len), 0);
	cr_assert_eq(ret_len, 2);
	cr_assert_eq(ret[0], b);
	cr_assert_eq(ret[1], a);
	cr_assert_eq(bs_len, 1);
	cr_assert_eq(bs[0], a);
	for (size_t i = 0; i < ret_len; i++)
		bc_binder_unref(ret[i]);
	free(ret);
	bc_binder_unref(bs[0]);
	free(bs);
	/* the stub's reply, byte for byte */
	bc_parcel_write_int32(in, 1);
	bc_parcel_write_binder(in, a);
	bc_parcel_write_int32(in, 0);
	reply = serve(13, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 1);
	bc_parcel_write_binder(want, a);
	bc_parcel_write_int32(want, 0);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
	bc_binder_unref(a), bc_binder_unref(b), bc_binder_unref(svc);
}

Test(aidl_stub, meta_transactions)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply;

	reply = serve(0xffffff, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 3);
	at_same(reply, want);
	bc_parcel_unref(reply), bc_parcel_unref(want);
	want = at_parcel();
	reply = serve(0xfffffe, in, 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_string16(want, "abc123");
	at_same(reply, want);
	bc_parcel_unref(reply), bc_parcel_unref(want), bc_parcel_unref(in);
}

/* ---- loopback: generated proxy -> library -> generated stub -------------------------- */

static int destroyed;
static void on_destroy(void *self)
{
	cr_assert_eq(self, &seen);
	destroyed++;
}

Test(aidl_loopback, every_method)
{
	bc_binder *svc = NULL, *cb = NULL, *got = NULL;
	int32_t i = 0, v = 0;
	char *s = NULL, *hash = NULL;
	org_binderc_test_Color c = 0;
	org_binderc_test_Point a, ob, io, ret;
	org_binderc_test_Shape sh, shr;
	int64_t *lb = NULL;
	size_t lb_len = 4, sv_len = 2, r_len = 0, n_len = 0;
	char **sv = calloc(2, sizeof(char *)), **names = NULL;
	int32_t *r = NULL;

	memset(&seen, 0, sizeof(seen));
	destroyed = 0;
	cr_assert_eq(org_binderc_test_IAll_stub_new(&ops, &seen, on_destroy, &svc), 0);
	cr_assert_eq(org_binderc_test_ICallback_stub_new(&cb_ops, NULL, NULL, &cb), 0);

	cr_assert_eq(org_binderc_test_IAll_primitives(svc, true, 1, 2, 50, 4, 5, 6, &i), 0);
	cr_assert_eq(i, 100);
	cr_assert_eq(org_binderc_test_IAll_strings(svc, "left", "right", &s), 0);
	cr_assert_str_eq(s, "left|right");
	free(s);
	cr_assert_eq(org_binderc_test_IAll_binders(svc, svc, cb, &got), 0);
	cr_assert_eq(got, cb);
	cr_assert_eq(seen.cb_done, 1);
	bc_binder_unref(got);
	cr_assert_eq(org_binderc_test_IAll_enums(svc, org_binderc_test_Color_RED, org_binderc_test_Level_HIGH,
						 org_binderc_test_Stamp_NEG, &c), 0);
	cr_assert_eq(c, org_binderc_test_Color_WHITE);
	cr_assert_eq(seen.level, 127);
	cr_assert_eq(seen.stamp, -2);

	org_binderc_test_Point_init(&a);
	org_binderc_test_Point_init(&io);
	a.x = 3;
	cr_assert_eq(org_binderc_test_IAll_parcelables(svc, &a, &ob, &io, &ret), 0);
	cr_assert_eq(ob.x, 4);
	cr_assert_eq(io.y, 107);
	cr_assert_eq(ret.x, 30);
	cr_assert_str_eq(ret.label, "from service");
	org_binderc_test_Point_clear(&a), org_binderc_test_Point_clear(&ob);
	org_binderc_test_Point_clear(&io), org_binderc_test_Point_clear(&ret);

	org_binderc_test_Shape_init(&sh);
	sh.center.x = 21;
	sh.xs = malloc(2 * sizeof(int32_t));
	sh.xs[0] = 1, sh.xs[1] = 2, sh.xs_len = 2;
	cr_assert_eq(org_binderc_test_IAll_shapes(svc, &sh, &shr), 0);
	cr_assert_eq(shr.center.x, 42);
	cr_assert_eq(shr.xs_len, 3);
	cr_assert_eq(shr.xs[2], -1);
	cr_assert_str_eq(shr.note, "caf\xc3\xa9");
	org_binderc_test_Shape_clear(&sh), org_binderc_test_Shape_clear(&shr);

	sv[0] = strdup("a"), sv[1] = strdup("b");
	cr_assert_eq(org_binderc_test_IAll_arrays(svc, (const int32_t[]){ 10, 20, 30 }, 3, &lb, &lb_len, &sv, &sv_len,
						  (const int8_t[]){ 1 }, 1, (const bool[]){ false }, 1, &r, &r_len),
		     0);
	cr_assert_eq(lb_len, 4);
	cr_assert_eq(lb[3], 31);
	cr_assert_eq(sv_len, 2);
	cr_assert_str_eq(sv[0], "F");
	cr_assert_eq(r_len, 3);
	cr_assert_eq(r[2], 31);
	free(lb), bc_strv_free(sv, sv_len), free(r);

	org_binderc_test_Point_init(&a);
	a.x = 77;
	cr_assert_eq(org_binderc_test_IAll_fire(svc, 99, &a), 0);
	cr_assert_eq(seen.fired, 99);
	cr_assert_eq(seen.fire_x, 77);
	org_binderc_test_Point_clear(&a);
	cr_assert_eq(org_binderc_test_IAll_nothing(svc), 0);
	cr_assert_eq(seen.nothing, 1);
	cr_assert_eq(org_binderc_test_IAll_names(svc, &names, &n_len), 0);
	cr_assert_eq(n_len, 2);
	cr_assert_str_eq(names[1], "y");
	bc_strv_free(names, n_len);
	cr_assert_eq(org_binderc_test_IAll_fail(svc, 17), 17);
	cr_assert_eq(org_binderc_test_IAll_fail(svc, 0), -EDOM);
	cr_assert_eq(org_binderc_test_IAll_getInterfaceVersion(svc, &v), 0);
	cr_assert_eq(v, 3);
	cr_assert_eq(org_binderc_test_IAll_getInterfaceHash(svc, &hash), 0);
	cr_assert_str_eq(hash, "abc123");
	free(hash);
	/* the wrong interface: the token is enforced */
	cr_assert_eq(org_binderc_test_IExplicit_first(svc, &v), -EPERM);

	bc_binder_unref(cb);
	bc_binder_unref(svc);
	cr_assert_eq(destroyed, 1);
}
