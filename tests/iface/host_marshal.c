// SPDX-License-Identifier: MIT
/*
 * Host tests: marshalling by signature against golden parcels (the AIDL
 * wire format, Android 13 dialect: the library default), both directions:
 * what a proxy sends, what a stub answers, what a proxy makes of a reply;
 * and malformed calls and replies.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>

#include "testiface.h"

/* ---- expected bytes, built by hand ------------------------------------ */

struct gold {
	uint8_t d[2048];
	size_t n;
};

static void g32(struct gold *g, uint32_t v)
{
	g->d[g->n++] = v & 0xff;
	g->d[g->n++] = (v >> 8) & 0xff;
	g->d[g->n++] = (v >> 16) & 0xff;
	g->d[g->n++] = v >> 24;
}

static void g64(struct gold *g, uint64_t v)
{
	g32(g, (uint32_t)v);
	g32(g, (uint32_t)(v >> 32));
}

static void gbytes(struct gold *g, const void *p, size_t n)
{
	memcpy(g->d + g->n, p, n);
	g->n += n;
}

/* String16 of an ASCII string: length in units, units, NUL, zero pad. */
static void gstr16(struct gold *g, const char *s)
{
	size_t n = strlen(s);

	g32(g, (uint32_t)n);
	for (size_t k = 0; k <= n; k++) {
		g->d[g->n++] = (uint8_t)s[k];
		g->d[g->n++] = 0;
	}
	while (g->n % 4)
		g->d[g->n++] = 0;
}

/* Android 13 interface token: policy 1<<31, work source -1, 'SYST',
 * descriptor. */
static void gtoken(struct gold *g, const char *descriptor)
{
	g32(g, 0x80000000u);
	g32(g, 0xffffffffu);
	g32(g, 0x53595354u);
	gstr16(g, descriptor);
}

static void expect_bytes(const void *got, size_t got_n, const struct gold *want, const char *what)
{
	cr_expect_eq(got_n, want->n, "%s: %zu bytes, expected %zu", what, got_n, want->n);
	if (got_n == want->n && memcmp(got, want->d, got_n)) {
		for (size_t k = 0; k < got_n; k++)
			if (((const uint8_t *)got)[k] != want->d[k]) {
				cr_expect_fail("%s: byte %zu is %02x, expected %02x", what, k,
					       ((const uint8_t *)got)[k], want->d[k]);
				break;
			}
	}
}

/* ---- a capturing transport -------------------------------------------- */

struct capture {
	bc_parcel *req;	  /* last request */
	uint32_t code, flags;
	struct gold reply; /* what to answer */
	int status;	   /* or this */
};

static int capture_send(void *ctx, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags)
{
	struct capture *c = ctx;

	bc_parcel_unref(c->req);
	c->req = bc_parcel_ref(data);
	c->code = code;
	c->flags = flags;
	if (c->status)
		return c->status;
	if (ret_reply)
		cr_assert_eq(bc_parcel_new_from_data(c->reply.d, c->reply.n, NULL, 0, ret_reply), 0);
	return 0;
}

static bc_iface *f;
static bc_iface_proxy *px;
static const struct t_iface *T;
static struct capture cap;

static void setup(void)
{
	memset(&cap, 0, sizeof(cap));
	cr_assert_eq(bc_iface_new(&t_iface_def, &f, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new_transport(f, capture_send, &cap, &px), 0);
	T = bc_iface_proxy_methods(px);
}

static void teardown(void)
{
	cap.req = bc_parcel_unref(cap.req);
	px = bc_iface_proxy_unref(px);
	f = bc_iface_unref(f);
}

/* Last statement of every test: free the fixtures, then look for leaks. */
#define T_DONE() do { teardown(); T_NO_LEAKS(); } while (0)

/* Run the stub on request bytes @req; returns dispatch's result and the
 * reply (when 0) in *@ret_reply. */
static int stub_on(uint32_t code, const struct gold *req, bc_parcel **ret_reply)
{
	bc_parcel *in, *reply;
	int r;

	cr_assert_eq(bc_parcel_new_from_data(req->d, req->n, NULL, 0, &in), 0);
	cr_assert_eq(bc_parcel_new(&reply), 0);
	r = bc_iface_dispatch(f, &t_impl, NULL, code, in, reply);
	bc_parcel_unref(in);
	if (r == 0 && ret_reply)
		*ret_reply = reply;
	else
		bc_parcel_unref(reply);
	return r;
}

TestSuite(golden, .init = setup, .fini = teardown);

Test(golden, add_request_literal)
{
	/* every byte written out: the token for "org.binderc.ITest", 2, 3 */
	static const uint8_t want[] = {
		0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0xff, 0x54, 0x53, 0x59, 0x53, /* policy, ws, SYST */
		0x11, 0x00, 0x00, 0x00, /* 17 units */
		'o',  0,    'r',  0,    'g',  0,    '.',  0,    'b',  0,	'i',  0,    'n',  0,	'd',  0,
		'e',  0,    'r',  0,    'c',  0,    '.',  0,    'I',  0,	'T',  0,    'e',  0,	's',  0,
		't',  0,    0,	  0, /* NUL, no pad needed */
		0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
	};
	struct gold g = { .n = 0 };
	int32_t sum = 0;

	gbytes(&g, want, sizeof(want));
	g32(&cap.reply, 0);
	g32(&cap.reply, 5);
	cr_assert_eq(T->add(px, 2, 3, &sum), 0);
	cr_expect_eq(sum, 5);
	cr_expect_eq(cap.code, 1);
	cr_expect_eq(cap.flags, 0);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &g, "add request");
	T_DONE();
}

Test(golden, add_reply_from_stub)
{
	struct gold req = { .n = 0 }, want = { .n = 0 };
	bc_parcel *reply;

	gtoken(&req, T_DESCRIPTOR);
	g32(&req, 40);
	g32(&req, 2);
	g32(&want, 0); /* EX_NONE */
	g32(&want, 42);
	cr_assert_eq(stub_on(1, &req, &reply), 0);
	expect_bytes(bc_parcel_data(reply), bc_parcel_size(reply), &want, "add reply");
	bc_parcel_unref(reply);
	T_DONE();
}

static void scalars_gold(struct gold *g)
{
	g32(g, (uint32_t)-5);
	g32(g, 0x80000001u);
	g64(g, 0x0102030405060708ull);
	g64(g, 0xfffffffffffffff0ull);
	g32(g, 1);		/* bool widened */
	g32(g, 0xfffffffeu);	/* byte -2 sign-extended */
	g32(g, 0x263a);		/* char16 widened */
	g32(g, 0x3fc00000u);	/* 1.5f */
	g64(g, 0xbfd0000000000000ull); /* -0.25 */
}

Test(golden, scalars_both_ways)
{
	struct gold want = { .n = 0 }, req = { .n = 0 }, rep = { .n = 0 };
	int32_t oi;
	uint32_t ou;
	int64_t ox;
	uint64_t ot;
	bool ob;
	int8_t oy;
	uint16_t oc;
	float of;
	double od;
	bc_parcel *reply;

	gtoken(&want, T_DESCRIPTOR);
	scalars_gold(&want);
	g32(&cap.reply, 0);
	scalars_gold(&cap.reply);
	cr_assert_eq(T->scalars(px, -5, 0x80000001u, 0x0102030405060708ll, 0xfffffffffffffff0ull, true, -2, 0x263a,
				1.5f, -0.25, &oi, &ou, &ox, &ot, &ob, &oy, &oc, &of, &od),
		     0);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "scalars request");
	/* the reply carried the same values back */
	cr_expect(oi == -5 && ou == 0x80000001u && ox == 0x0102030405060708ll && ot == 0xfffffffffffffff0ull);
	cr_expect(ob && oy == -2 && oc == 0x263a && of == 1.5f && od == -0.25);

	/* the stub negates: check its reply bytes */
	gtoken(&req, T_DESCRIPTOR);
	scalars_gold(&req);
	g32(&rep, 0);
	g32(&rep, 5);
	g32(&rep, 0x7ffffffeu);
	g64(&rep, (uint64_t)-0x0102030405060708ll);
	g64(&rep, 0xf);
	g32(&rep, 0);
	g32(&rep, 2);
	g32(&rep, 0x263b);
	g32(&rep, 0x40400000u); /* 3.0f */
	g64(&rep, 0xbfe0000000000000ull); /* -0.5 */
	cr_assert_eq(stub_on(2, &req, &reply), 0);
	expect_bytes(bc_parcel_data(reply), bc_parcel_size(reply), &rep, "scalars reply");
	bc_parcel_unref(reply);
	T_DONE();
}

Test(golden, strings_utf16)
{
	static const uint8_t he[] = { 0x02, 0, 0, 0, 'h', 0, 0xe9, 0, 0, 0, 0, 0 }; /* "hé", NUL, pad */
	static const uint8_t emoji[] = { 0x02, 0, 0, 0, 0x3d, 0xd8, 0x00, 0xde, 0, 0, 0, 0 }; /* U+1F600 */
	struct gold want = { .n = 0 };
	char *o = NULL;

	gtoken(&want, T_DESCRIPTOR);
	gbytes(&want, he, sizeof(he));
	g32(&cap.reply, 0);
	gbytes(&cap.reply, emoji, sizeof(emoji));
	cr_assert_eq(T->str(px, "h\xc3\xa9", &o), 0);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "String16 request");
	cr_expect_str_eq(o, "\xf0\x9f\x98\x80");
	free(o);
	T_DONE();
}

Test(golden, null_and_empty)
{
	struct gold want = { .n = 0 };
	char *o = (char *)"x";

	gtoken(&want, T_DESCRIPTOR);
	g32(&want, 0xffffffffu); /* null String16 */
	g32(&cap.reply, 0);
	g32(&cap.reply, 0); /* empty String16: length 0, NUL, pad */
	g32(&cap.reply, 0);
	cr_assert_eq(T->nstr(px, NULL, &o), 0);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "null string");
	cr_expect_str_eq(o, "");
	free(o);
	T_DONE();
}

Test(golden, byte_buffer_and_arrays)
{
	static const uint8_t buf[5] = { 1, 2, 3, 4, 5 };
	static const int32_t iv[2] = { 1, -1 };
	static const int64_t xv[1] = { -2 };
	static const bool bv[2] = { true, false };
	static const uint16_t cv[1] = { 'z' };
	struct gold want = { .n = 0 };
	void *o;
	size_t n;

	gtoken(&want, T_DESCRIPTOR);
	g32(&want, 5);
	gbytes(&want, buf, 5);
	gbytes(&want, "\0\0\0", 3); /* packed, zero pad */
	g32(&cap.reply, 0);
	g32(&cap.reply, 0xffffffffu); /* a null byte[] where non-null is due */
	cr_expect_eq(T->bytes(px, buf, 5, &o, &n), -EBADMSG);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "byte[] request");

	want.n = 0;
	gtoken(&want, T_DESCRIPTOR);
	g32(&want, 2), g32(&want, 1), g32(&want, 0xffffffffu);	 /* int[] */
	g32(&want, 1), g64(&want, (uint64_t)-2);		 /* long[] */
	g32(&want, 2), g32(&want, 1), g32(&want, 0);		 /* boolean[]: int32 each */
	g32(&want, 1), g32(&want, 'z');				 /* char[]: int32 each */
	cap.status = -ENOSYS;
	cr_expect_eq(T->arrays1(px, iv, 2, xv, 1, bv, 2, cv, 1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		     -ENOSYS);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "arrays request");
	T_DONE();
}

Test(golden, string_array)
{
	const char *v[] = { "a", "" };
	struct gold want = { .n = 0 };

	gtoken(&want, T_DESCRIPTOR);
	g32(&want, 2);
	gstr16(&want, "a");
	gstr16(&want, "");
	cap.status = -ENOSYS;
	cr_expect_eq(T->strs(px, v, 2, NULL, NULL), -ENOSYS);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "String[] request");
	T_DONE();
}

Test(golden, exception_replies_from_stub)
{
	struct gold req = { .n = 0 }, want = { .n = 0 };
	bc_parcel *reply;

	gtoken(&req, T_DESCRIPTOR);
	g32(&req, 2);
	g32(&want, (uint32_t)BINDERC_EX_ILLEGAL_ARGUMENT);
	gstr16(&want, "bad argument");
	g32(&want, 0); /* remote stack trace size */
	cr_assert_eq(stub_on(12, &req, &reply), 0);
	expect_bytes(bc_parcel_data(reply), bc_parcel_size(reply), &want, "EX_ILLEGAL_ARGUMENT reply");
	bc_parcel_unref(reply);

	req.n = want.n = 0;
	gtoken(&req, T_DESCRIPTOR);
	g32(&req, 3);
	g32(&want, (uint32_t)BINDERC_EX_SERVICE_SPECIFIC);
	gstr16(&want, "five");
	g32(&want, 0);
	g32(&want, 5); /* the service error */
	cr_assert_eq(stub_on(12, &req, &reply), 0);
	expect_bytes(bc_parcel_data(reply), bc_parcel_size(reply), &want, "EX_SERVICE_SPECIFIC reply");
	bc_parcel_unref(reply);

	/* a positive return without a message: an empty message, as C++
	 * AIDL writes it (its readers refuse a null one) */
	req.n = want.n = 0;
	gtoken(&req, T_DESCRIPTOR);
	g32(&req, 1);
	g32(&want, (uint32_t)BINDERC_EX_SERVICE_SPECIFIC);
	gstr16(&want, "");
	g32(&want, 0);
	g32(&want, 42);
	cr_assert_eq(stub_on(12, &req, &reply), 0);
	expect_bytes(bc_parcel_data(reply), bc_parcel_size(reply), &want, "service error 42 reply");
	bc_parcel_unref(reply);

	/* a status code is not a reply */
	req.n = 0;
	gtoken(&req, T_DESCRIPTOR);
	g32(&req, 4);
	cr_expect_eq(stub_on(12, &req, NULL), -ENOSYS);
	T_DONE();
}

Test(golden, exception_replies_to_proxy)
{
	int32_t never = 123;

	g32(&cap.reply, (uint32_t)BINDERC_EX_SECURITY);
	gstr16(&cap.reply, "no");
	g32(&cap.reply, 0);
	cr_expect_eq(T->fail(px, 0, &never), -EREMOTEIO);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_SECURITY);
	cr_expect_str_eq(bc_iface_last_status()->message, "no");
	cr_expect_eq(never, 123);

	cap.reply.n = 0;
	g32(&cap.reply, (uint32_t)BINDERC_EX_SERVICE_SPECIFIC);
	g32(&cap.reply, 0xffffffffu); /* null message, as Java may send */
	g32(&cap.reply, 0);
	g32(&cap.reply, 17);
	cr_expect_eq(T->fail(px, 0, &never), 17);
	cr_expect_eq(bc_iface_last_status()->service_error, 17);

	/* a "fat" reply header (EX_HAS_REPLY_HEADER) counts as EX_NONE */
	cap.reply.n = 0;
	g32(&cap.reply, (uint32_t)BINDERC_EX_HAS_REPLY_HEADER);
	g32(&cap.reply, 12); /* header size, counting itself */
	g32(&cap.reply, 0xdeadbeef);
	g32(&cap.reply, 0xdeadbeef);
	g32(&cap.reply, 77);
	cr_expect_eq(T->fail(px, 0, &never), 0);
	cr_expect_eq(never, 77);
	T_DONE();
}

Test(golden, oneway_sends_flag_and_no_reply)
{
	struct gold want = { .n = 0 };

	gtoken(&want, T_DESCRIPTOR);
	g32(&want, 9);
	cr_expect_eq(T->poke(px, 9), 0);
	cr_expect_eq(cap.code, 13);
	cr_expect_eq(cap.flags, BINDERC_FLAG_ONEWAY);
	expect_bytes(bc_parcel_data(cap.req), bc_parcel_size(cap.req), &want, "oneway request");
	T_DONE();
}

Test(golden, objects_recorded_in_offsets)
{
	size_t n_offs;
	const uint64_t *offs;
	const uint8_t *d;
	uint32_t type;
	bc_binder *b;
	size_t tok;
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	cap.status = -ENOSYS;
	cr_expect_eq(T->binder(px, NULL, NULL), -ENOSYS);
	/* a null binder: BINDER type, zero pointer and cookie, no offset,
	 * then the UNDECLARED stability word */
	bc_parcel_offsets(cap.req, &n_offs);
	cr_expect_eq(n_offs, 0);
	d = bc_parcel_data(cap.req);
	tok = 12 + 4 + 36;
	cr_assert_eq(bc_parcel_size(cap.req), tok + 24 + 4);
	memcpy(&type, d + tok, 4);
	cr_expect_eq(type, 0x73622a85u);
	for (size_t k = 8; k < 28; k++)
		cr_expect_eq(d[tok + k], 0, "byte %zu of the null binder", k);

	cr_assert_eq(bc_iface_stub_new(f, &t_impl, NULL, NULL, &b), 0);
	cr_expect_eq(T->binder(px, b, NULL), -ENOSYS);
	offs = bc_parcel_offsets(cap.req, &n_offs);
	cr_assert_eq(n_offs, 1);
	cr_expect_eq(offs[0], tok);
	cap.req = bc_parcel_unref(cap.req);
	bc_binder_unref(b);

	cr_expect_eq(T->fd(px, fd, NULL), -ENOSYS);
	offs = bc_parcel_offsets(cap.req, &n_offs);
	cr_assert_eq(n_offs, 1);
	cr_expect_eq(offs[0], tok);
	memcpy(&type, (const uint8_t *)bc_parcel_data(cap.req) + tok, 4);
	cr_expect_eq(type, 0x66642a85u);
	cr_expect_eq(bc_parcel_size(cap.req), tok + 24);
	close(fd);
	T_DONE();
}

Test(golden, describe_transaction)
{
	struct gold req = { .n = 0 };
	bc_parcel *reply;
	char *s = NULL;
	int32_t n;
	uint32_t code, flags;

	cr_assert_eq(stub_on(BINDERC_IFACE_DESCRIBE_TRANSACTION, &req, &reply), 0);
	cr_assert_eq(bc_parcel_read_int32(reply, &n), 0);
	cr_expect_eq(n, 0); /* EX_NONE */
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_str_eq(s, T_DESCRIPTOR);
	free(s);
	cr_assert_eq(bc_parcel_read_int32(reply, &n), 0);
	cr_expect_eq(n, 16);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_str_eq(s, "add");
	free(s);
	cr_assert_eq(bc_parcel_read_uint32(reply, &code), 0);
	cr_expect_eq(code, 1);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_str_eq(s, "ii");
	free(s);
	cr_assert_eq(bc_parcel_read_string16(reply, &s, NULL), 0);
	cr_expect_str_eq(s, "i");
	free(s);
	cr_assert_eq(bc_parcel_read_uint32(reply, &flags), 0);
	cr_expect_eq(flags, 0);
	bc_parcel_unref(reply);
	T_DONE();
}

/* ---- malformed calls: BAD_VALUE, never a crash -------------------------- */

TestSuite(malformed, .init = setup, .fini = teardown);

Test(malformed, every_truncation_is_bad_value)
{
	struct gold full = { .n = 0 }, cut;

	gtoken(&full, T_DESCRIPTOR);
	scalars_gold(&full);
	for (size_t n = 0; n < full.n; n++) {
		cut = full;
		cut.n = n;
		cr_expect_eq(stub_on(2, &cut, NULL), -EINVAL, "scalars cut at %zu", n);
	}
	cr_expect_eq(stub_on(2, &full, NULL), 0);
	T_DONE();
}

Test(malformed, wrong_interface_and_unknown_code)
{
	struct gold req = { .n = 0 };

	gtoken(&req, "org.binderc.IOther");
	g32(&req, 1), g32(&req, 2);
	cr_expect_eq(stub_on(1, &req, NULL), -EPERM);
	req.n = 0;
	g32(&req, 0x80000000u), g32(&req, 0xffffffffu), g32(&req, 0x564e4452u); /* 'VNDR' */
	gstr16(&req, T_DESCRIPTOR);
	g32(&req, 1), g32(&req, 2);
	cr_expect_eq(stub_on(1, &req, NULL), -EPERM);
	cr_expect_eq(stub_on(0, &req, NULL), -EBADMSG);
	cr_expect_eq(stub_on(17, &req, NULL), -EBADMSG);
	cr_expect_eq(stub_on(0x00ffffff, &req, NULL), -EBADMSG);
	T_DONE();
}

Test(malformed, wrong_types)
{
	struct gold req;

	/* String16 claiming more units than there are */
	req.n = 0, gtoken(&req, T_DESCRIPTOR), g32(&req, 1000), g32(&req, 0x00410041);
	cr_expect_eq(stub_on(3, &req, NULL), -EINVAL);
	/* null for a non-nullable String */
	req.n = 0, gtoken(&req, T_DESCRIPTOR), g32(&req, 0xffffffffu);
	cr_expect_eq(stub_on(3, &req, NULL), -EINVAL);
	/* ... fine where nullable */
	cr_expect_eq(stub_on(4, &req, NULL), 0);
	/* a lone surrogate is not UTF-16 */
	req.n = 0, gtoken(&req, T_DESCRIPTOR), g32(&req, 1), g32(&req, 0x0000d800);
	cr_expect_eq(stub_on(3, &req, NULL), -EINVAL);
	/* negative byte[] length other than -1 */
	req.n = 0, gtoken(&req, T_DESCRIPTOR), g32(&req, (uint32_t)-2);
	cr_expect_eq(stub_on(5, &req, NULL), -EINVAL);
	/* an array count far beyond the data */
	req.n = 0, gtoken(&req, T_DESCRIPTOR), g32(&req, 0x7fffffff), g32(&req, 0);
	cr_expect_eq(stub_on(7, &req, NULL), -EINVAL);
	cr_expect_eq(stub_on(9, &req, NULL), -EINVAL);
	/* plain data where a binder object is due (nothing in offsets) */
	req.n = 0, gtoken(&req, T_DESCRIPTOR);
	g32(&req, 0x73682a85u), g32(&req, 0), g64(&req, 1), g64(&req, 0), g32(&req, 0);
	cr_expect_eq(stub_on(10, &req, NULL), -EINVAL);
	/* an fd object not listed in offsets */
	req.n = 0, gtoken(&req, T_DESCRIPTOR);
	g32(&req, 0x66642a85u), g32(&req, 0), g64(&req, 0), g64(&req, 0);
	cr_expect_eq(stub_on(11, &req, NULL), -EINVAL);
	/* nothing at all for an int */
	req.n = 0, gtoken(&req, T_DESCRIPTOR);
	cr_expect_eq(stub_on(1, &req, NULL), -EINVAL);
	T_DONE();
}

Test(malformed, random_payloads_never_crash)
{
	struct gold req;
	unsigned seed = 12345;
	int ok = 0, bad = 0;

	for (uint32_t code = 1; code <= 16; code++) {
		for (int round = 0; round < 300; round++) {
			size_t len = (size_t)(rand_r(&seed) % 24) * 4;
			int r;

			req.n = 0;
			gtoken(&req, T_DESCRIPTOR);
			for (size_t k = 0; k < len; k += 4) {
				uint32_t w = (uint32_t)rand_r(&seed);

				/* small lengths and -1 now and then, so that
				 * strings and arrays sometimes decode */
				if (w % 3 == 0)
					w = (w >> 8) % 5;
				else if (w % 7 == 0)
					w = 0xffffffffu;
				g32(&req, w);
			}
			r = stub_on(code, &req, NULL);
			if (r == 0)
				ok++;
			else if (r == -EINVAL || (code == 12 && r < 0) )
				bad++;
			else
				cr_expect_fail("code %u round %d: %d", code, round, r);
		}
	}
	cr_expect_gt(ok, 0);
	cr_expect_gt(bad, 0);
	T_DONE();
}

Test(malformed, bad_replies_leak_nothing)
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
	struct gold full = { .n = 0 };
	char **sv = NULL;
	size_t n;

	g32(&full, 0);
	scalars_gold(&full);
	for (size_t cut = 0; cut < full.n; cut += 4) {
		cap.reply = full;
		cap.reply.n = cut;
		oi = 99;
		cr_expect_eq(T->scalars(px, 0, 0, 0, 0, 0, 0, 0, 0, 0, &oi, &ou, &ox, &ot, &ob, &oy, &oc, &of, &od),
			     -EBADMSG, "reply cut at %zu", cut);
		cr_expect_eq(oi, 99, "outputs untouched on failure");
	}
	/* a String[] whose second element is cut: the first one is freed */
	cap.reply.n = 0;
	g32(&cap.reply, 0);
	g32(&cap.reply, 2);
	gstr16(&cap.reply, "first");
	g32(&cap.reply, 10);
	cr_expect_eq(T->strs(px, NULL, 0, &sv, &n), -EBADMSG);
	cr_expect_null(sv);
	/* several outputs, the last one broken: earlier ones freed */
	cap.reply.n = 0;
	g32(&cap.reply, 0);
	g32(&cap.reply, 1), g32(&cap.reply, 5); /* int[] {5} */
	g32(&cap.reply, 1), g64(&cap.reply, 6); /* long[] {6} */
	g32(&cap.reply, 3);			 /* bool[3], cut */
	{
		int32_t *oiv = NULL;
		int64_t *oxv = NULL;
		size_t a, b;

		cr_expect_eq(T->arrays1(px, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &oiv, &a, &oxv, &b, NULL, NULL, NULL,
					NULL),
			     -EBADMSG);
		cr_expect_null(oiv);
		cr_expect_null(oxv);
	}
	T_DONE();
}

static bool acceptable(int r)
{
	return r == 0 || r > 0 || r == -EREMOTEIO || r == -EBADMSG;
}

Test(malformed, random_replies_never_crash)
{
	unsigned seed = 777;
	int ok = 0;

	for (int round = 0; round < 2000; round++) {
		size_t len = (size_t)(rand_r(&seed) % 16) * 4;
		int r;

		cap.reply.n = 0;
		g32(&cap.reply, rand_r(&seed) % 4 ? 0 : (uint32_t)-(rand_r(&seed) % 10));
		for (size_t k = 0; k < len; k += 4) {
			uint32_t w = (uint32_t)rand_r(&seed);

			g32(&cap.reply, w % 3 == 0 ? (w >> 8) % 4 : w % 7 == 0 ? 0xffffffffu : w);
		}
		switch (round % 5) {
		case 0: {
			char *s = NULL;

			r = T->str(px, "x", &s);
			free(s);
			break;
		}
		case 1: {
			char **sv = NULL;
			size_t n = 0;

			r = T->strs(px, NULL, 0, &sv, &n);
			bc_strv_free(sv, n);
			break;
		}
		case 2: {
			int32_t *i = NULL;
			int64_t *x = NULL;
			bool *b = NULL;
			uint16_t *c = NULL;
			size_t a, bb, cc, d;

			r = T->arrays1(px, NULL, 0, NULL, 0, NULL, 0, NULL, 0, &i, &a, &x, &bb, &b, &cc, &c, &d);
			free(i), free(x), free(b), free(c);
			break;
		}
		case 3: {
			void *v = NULL;
			size_t n;

			r = T->nbytes(px, NULL, 0, &v, &n);
			free(v);
			break;
		}
		default: {
			bc_binder *o = NULL;

			r = T->binder(px, NULL, &o);
			bc_binder_unref(o);
			break;
		}
		}
		cr_expect(acceptable(r), "round %d: %d", round, r);
		ok += r == 0;
	}
	cr_expect_gt(ok, 0);
	T_DONE();
}

Test(golden, parcel_file_descriptor)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	const uint64_t *offs;
	size_t n_offs, tok = 12 + 4 + 36;
	const uint8_t *d;
	uint32_t w[3];

	cr_assert_geq(fd, 0);
	cap.status = -ENOSYS;
	cr_expect_eq(T->pfd(px, fd, -1, NULL), -ENOSYS);
	/* int32 1 (present), int32 0 (no comm fd), the fd object; then the
	 * null one: int32 0 */
	d = bc_parcel_data(cap.req);
	cr_assert_eq(bc_parcel_size(cap.req), tok + 8 + 24 + 4);
	memcpy(w, d + tok, 12);
	cr_expect(w[0] == 1 && w[1] == 0 && w[2] == 0x66642a85u);
	memcpy(w, d + tok + 32, 4);
	cr_expect_eq(w[0], 0);
	offs = bc_parcel_offsets(cap.req, &n_offs);
	cr_assert_eq(n_offs, 1);
	cr_expect_eq(offs[0], tok + 8);
	cr_expect_eq(T->pfd(px, -1, -1, NULL), -EINVAL); /* not nullable */
	close(fd);
	T_DONE();
}
