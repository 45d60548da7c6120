// SPDX-License-Identifier: MIT
/*
 * Host tests: the signature mini-language, description validation and its
 * messages, BINDERC_IFACE_DECLARE, lookup, the registry and closure creation.
 */
#include <criterion/criterion.h>
#include <stdio.h>

#include "testiface.h"

#define T_DONE() T_NO_LEAKS()

static void check_ok(const char *sig, int params)
{
	size_t bad = 999;

	cr_expect_eq(bc_iface_sig_check(sig, &bad), params, "sig \"%s\"", sig);
	cr_expect_eq(bad, 999, "sig \"%s\" bad offset touched", sig);
}

static void check_bad(const char *sig, size_t at)
{
	size_t bad = 999;

	cr_expect_eq(bc_iface_sig_check(sig, &bad), -EINVAL, "sig \"%s\"", sig);
	cr_expect_eq(bad, at, "sig \"%s\": bad offset %zu, expected %zu", sig, bad, at);
}

Test(sig, every_type_accepted)
{
	check_ok("", 0);
	check_ok("i", 1);
	check_ok("iuxtbycfd", 9);
	check_ok("soh", 3);
	check_ok("H?H", 2);
	check_ok("?s?o", 2);
	check_ok("[i[u[x[t[b[y[c[f[d[s", 20);
	check_ok("?[y?[s", 4);
	cr_expect_eq(bc_iface_sig_check(NULL, NULL), 0);
	T_DONE();
}

Test(sig, bad_character_located)
{
	check_bad("q", 0);
	check_bad("iq", 1);
	check_bad("i i", 1);
	check_bad("?i", 1);
	check_bad("?h", 1);
	check_bad("??s", 1);
	check_bad("?", 1);
	check_bad("[", 1);
	check_bad("i[", 2);
	check_bad("[[i", 1);
	check_bad("[o", 1);
	check_bad("[h", 1);
	check_bad("[?s", 1);
	check_bad("S", 0);
	check_bad("ii\xc3\xa9", 2);
	T_DONE();
}

Test(sig, too_many_params)
{
	char sig[40];

	memset(sig, 'i', 32);
	sig[32] = 0;
	check_ok(sig, 32);
	sig[32] = 'i', sig[33] = 0;
	check_bad(sig, 33);
	memset(sig, 0, sizeof(sig));
	for (int k = 0; k < 16; k++)
		memcpy(sig + 2 * k, "[y", 2);
	check_ok(sig, 32);
	T_DONE();
}

static char *new_error(const struct bc_iface_def *def)
{
	bc_iface *f = NULL;
	char *err = NULL;

	cr_assert_eq(bc_iface_new(def, &f, &err), -EINVAL);
	cr_assert_null(f);
	cr_assert_not_null(err);
	return err;
}

#define EXPECT_ERROR(def, text)                                                                  \
	do {                                                                                      \
		char *e_ = new_error(def);                                                        \
		cr_expect(strstr(e_, text) != NULL, "error \"%s\" lacks \"%s\"", e_, text);       \
		free(e_);                                                                         \
	} while (0)

Test(desc, error_names_the_character)
{
	struct bc_iface_method m[] = { { "add", 0, "iq", "i", 0 } };
	struct bc_iface_def d = { "x.I", m, 1 };

	EXPECT_ERROR(&d, "method \"add\" input signature \"iq\": unknown type: 'q' at offset 1");
	m[0].in_sig = "ii";
	m[0].out_sig = "i?i";
	EXPECT_ERROR(&d, "method \"add\" output signature \"i?i\": type cannot be nullable: 'i' at offset 2");
	m[0].out_sig = "[";
	EXPECT_ERROR(&d, "output signature \"[\": '[' without an element type at the end (offset 1)");
	m[0].out_sig = "[[i";
	EXPECT_ERROR(&d, "nested array: '[' at offset 1");
	T_DONE();
}

Test(desc, structural_errors)
{
	struct bc_iface_method m[] = { { "a", 0, "i", "", 0 }, { "b", 0, "", "", 0 } };
	struct bc_iface_def d = { "x.I", m, 2 };
	bc_iface *f = NULL;

	m[1].name = "a";
	EXPECT_ERROR(&d, "duplicate method name \"a\"");
	m[1].name = "b";
	m[1].code = 1;
	EXPECT_ERROR(&d, "methods \"a\" and \"b\" have the same code 0x1");
	m[1].code = 0x01000000;
	EXPECT_ERROR(&d, "method \"b\": code 0x1000000 outside the user range");
	m[1].code = 0;
	m[1].flags = BINDERC_IFACE_ONEWAY;
	m[1].out_sig = "i";
	EXPECT_ERROR(&d, "one-way method \"b\" has an output signature \"i\"");
	m[1].out_sig = NULL;
	m[1].flags = 0x10;
	EXPECT_ERROR(&d, "unknown flags 0x10");
	m[1].flags = 0;
	m[1].name = "";
	EXPECT_ERROR(&d, "method #1 has no name");
	m[1].name = "b";
	d.descriptor = "";
	EXPECT_ERROR(&d, "no descriptor");
	d.descriptor = "x.I";
	m[0].in_sig = "[i[i[i[i[i[i[i[i[i[i[i[i[i[i[i";
	m[0].out_sig = "[i[i";
	EXPECT_ERROR(&d, "method \"a\" takes 34 C parameters (more than 32)");
	m[0].out_sig = "i";
	cr_assert_eq(bc_iface_new(&d, &f, NULL), 0);
	bc_iface_unref(f);
	/* no error pointer: still refused */
	m[0].in_sig = "z";
	cr_expect_eq(bc_iface_new(&d, &f, NULL), -EINVAL);
	T_DONE();
}

Test(desc, declare_macro)
{
	static const char *const names[] = { "add",     "scalars", "str",    "nstr", "bytes",
					     "nbytes",  "arrays1", "arrays2", "strs", "binder",
					     "fd",      "fail",    "poke",   "count", "nothing", "pfd" };
	bc_iface *f;

	cr_assert_eq(t_iface_def.n_methods, 16);
	cr_assert_eq(sizeof(struct t_iface), 16 * sizeof(void (*)(void)));
	for (size_t k = 0; k < 16; k++)
		cr_expect_str_eq(t_iface_methods[k].name, names[k]);
	cr_expect_str_eq(t_iface_methods[0].in_sig, "ii");
	cr_expect_str_eq(t_iface_methods[0].out_sig, "i");
	cr_expect_str_eq(t_iface_methods[1].in_sig, "iuxtbycfd");
	cr_expect_str_eq(t_iface_methods[1].out_sig, "iuxtbycfd");
	cr_expect_str_eq(t_iface_methods[3].in_sig, "?s");
	cr_expect_str_eq(t_iface_methods[5].out_sig, "?[y");
	cr_expect_str_eq(t_iface_methods[6].in_sig, "[i[x[b[c");
	cr_expect_str_eq(t_iface_methods[7].out_sig, "[f[d[u[t");
	cr_expect_str_eq(t_iface_methods[9].in_sig, "?o");
	cr_expect_str_eq(t_iface_methods[10].in_sig, "h");
	cr_expect_str_eq(t_iface_methods[12].in_sig, "i");
	cr_expect_eq(t_iface_methods[12].flags, BINDERC_IFACE_ONEWAY);
	cr_expect_str_eq(t_iface_methods[13].in_sig, "");
	cr_expect_str_eq(t_iface_methods[14].out_sig, "");
	cr_expect_str_eq(t_iface_methods[15].in_sig, "H?H");
	cr_expect_str_eq(t_iface_methods[15].out_sig, "?H");
	cr_expect_eq(BINDERC_IFACE_INDEX(t_iface, count), 13);
	cr_expect_eq(BINDERC_IFACE_CODE(t_iface, add), 1);
	cr_expect_eq(BINDERC_IFACE_CODE(t_iface, poke), 13);
	cr_assert_eq(bc_iface_new(&t_iface_def, &f, NULL), 0);
	cr_expect_str_eq(bc_iface_get_descriptor(f), T_DESCRIPTOR);
	bc_iface_unref(f);
	T_DONE();
}

Test(desc, lookup_and_normalised_methods)
{
	struct bc_iface_method m[] = { { "a", 0, NULL, NULL, 0 }, { "b", 7, "s", "i", 0 }, { "c", 0, "", "", 0 } };
	struct bc_iface_def d = { "x.I", m, 3 };
	const struct bc_iface_method *g;
	bc_iface *f;

	cr_assert_eq(bc_iface_new(&d, &f, NULL), 0);
	m[1].name = "changed"; /* copied at creation */
	cr_expect_eq(bc_iface_get_n_methods(f), 3);
	cr_expect_eq(bc_iface_find_method(f, "b"), 1);
	cr_expect_eq(bc_iface_find_method(f, "changed"), -ENOENT);
	cr_expect_eq(bc_iface_find_code(f, 7), 1);
	cr_expect_eq(bc_iface_find_code(f, 3), 2);
	cr_expect_eq(bc_iface_find_code(f, 2), -ENOENT);
	g = bc_iface_get_method(f, 0);
	cr_assert_not_null(g);
	cr_expect_eq(g->code, 1);
	cr_expect_str_eq(g->in_sig, "");
	cr_expect_str_eq(g->out_sig, "");
	cr_expect_str_eq(bc_iface_get_method(f, 1)->name, "b");
	cr_expect_null(bc_iface_get_method(f, 3));
	bc_iface_unref(f);
	T_DONE();
}

Test(desc, registry)
{
	struct bc_iface_method m1[] = { { "a", 0, "i", "", 0 } }, m2[] = { { "a", 0, "x", "", 0 } };
	struct bc_iface_def d1 = { "reg.I", m1, 1 }, d2 = { "reg.I", m2, 1 };
	bc_iface *a, *a2, *b, *got;

	cr_assert_eq(bc_iface_new(&d1, &a, NULL), 0);
	cr_assert_eq(bc_iface_new(&d1, &a2, NULL), 0);
	cr_assert_eq(bc_iface_new(&d2, &b, NULL), 0);
	cr_expect_eq(bc_iface_lookup("reg.I", &got), -ENOENT);
	cr_assert_eq(bc_iface_register(a, false), 0);
	cr_expect_eq(bc_iface_register(a2, false), 0); /* same description */
	cr_expect_eq(bc_iface_register(b, false), -EEXIST);
	cr_assert_eq(bc_iface_lookup("reg.I", &got), 0);
	cr_expect_eq(got, a2);
	bc_iface_unref(got);
	cr_expect_eq(bc_iface_register(b, true), 0);
	cr_assert_eq(bc_iface_lookup("reg.I", &got), 0);
	cr_expect_eq(got, b);
	bc_iface_unref(got);
	cr_expect_eq(bc_iface_unregister("reg.I"), 0);
	cr_expect_eq(bc_iface_unregister("reg.I"), -ENOENT);
	bc_iface_unref(a);
	bc_iface_unref(a2);
	bc_iface_unref(b);
	T_DONE();
}

static int never_send(void *ctx, uint32_t code, bc_parcel *data, bc_parcel **ret_reply, uint32_t flags)
{
	(void)ctx, (void)code, (void)data, (void)ret_reply, (void)flags;
	return -ECONNREFUSED;
}

Test(closures, created_distinct_and_freed)
{
	const struct t_iface *t;
	bc_iface_proxy *p, *q;
	bc_iface *f;
	int32_t sum = 0;

	cr_assert_eq(bc_iface_new(&t_iface_def, &f, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new_transport(f, never_send, NULL, &p), 0);
	cr_assert_eq(bc_iface_proxy_new_transport(f, never_send, NULL, &q), 0);
	bc_iface_unref(f); /* the proxies hold it */
	t = bc_iface_proxy_methods(p);
	cr_assert_not_null(t);
	cr_expect_not_null(t->add);
	cr_expect_not_null(t->nothing);
	cr_expect_neq((void *)t->add, (void *)t->str);
	cr_expect_neq((const void *)bc_iface_proxy_methods(q), (const void *)t);
	cr_expect_neq((void *)((const struct t_iface *)bc_iface_proxy_methods(q))->add, (void *)t->add);
	cr_expect_null(bc_iface_proxy_get_binder(p));
	cr_expect_eq(t->add(p, 1, 2, &sum), -ECONNREFUSED);
	cr_expect_eq(sum, 0);
	cr_expect_eq(bc_call(q, "add", 1, 2, &sum), -ECONNREFUSED);
	cr_expect_eq(bc_call(q, "nope"), -ENOENT);
	cr_expect_eq(bc_iface_proxy_ref(p), p);
	bc_iface_proxy_unref(p);
	bc_iface_proxy_unref(p);
	bc_iface_proxy_unref(q);
	T_DONE();
}

Test(closures, many_proxies)
{
	bc_iface_proxy *p[64];
	bc_iface *f;

	cr_assert_eq(bc_iface_new(&t_iface_def, &f, NULL), 0);
	for (int round = 0; round < 4; round++) {
		for (int k = 0; k < 64; k++)
			cr_assert_eq(bc_iface_proxy_new_transport(f, never_send, NULL, &p[k]), 0);
		for (int k = 0; k < 64; k++)
			p[k] = bc_iface_proxy_unref(p[k]);
	}
	bc_iface_unref(f);
	T_DONE();
}
