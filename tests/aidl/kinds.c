/* SPDX-License-Identifier: MIT */
/*
 * The rules gen_kinds[] (aidl/gen_kinds.c) must keep for the generator
 * around it to be right: what every row fills in, which templates go
 * with which flags, and the $ letters templates may use.  A kind added
 * as a row is checked here before any .aidl file reaches it.
 */
#include "at.h"
#include "gen.h"

/* The templates of @r, with their field names, NULL ones included. */
#define ROW_TEMPLATES(r)                                                                                     \
	{                                                                                                    \
		{ "param_in", (r)->param_in },   { "param_out", (r)->param_out }, { "ret", (r)->ret },       \
		{ "local", (r)->local },         { "member", (r)->member },       { "write", (r)->write },   \
		{ "read", (r)->read },           { "write_null", (r)->write_null },                          \
		{ "read_null", (r)->read_null }, { "free", (r)->free },           { "reset", (r)->reset },   \
		{ "init", (r)->init },           { "elem_set", (r)->elem_set },   { "new_n", (r)->new_n },   \
		{ "fixed_new", (r)->fixed_new }, { "arg", (r)->arg },                                        \
	}

struct named {
	const char *name, *tmpl;
};

Test(aidl_kinds, every_row_has_what_every_value_needs)
{
	for (size_t k = 0; k < G_NKINDS; k++) {
		const struct gkind_row *r = &gen_kinds[k];

		cr_expect_not_null(r->param_in, "kind %zu: no param_in", k);
		cr_expect_not_null(r->ret, "kind %zu: no ret", k);
		cr_expect_not_null(r->local, "kind %zu: no local", k);
		cr_expect_not_null(r->member, "kind %zu: no member", k);
		cr_expect_not_null(r->write, "kind %zu: no write", k);
		cr_expect_not_null(r->read, "kind %zu: no read", k);
		cr_expect_not_null(r->arg, "kind %zu: no arg", k);
		/* the @nullable forms come in pairs */
		cr_expect_eq(!r->write_null, !r->read_null, "kind %zu: one @nullable form without the other", k);
	}
}

Test(aidl_kinds, templates_use_known_letters)
{
	for (size_t k = 0; k < G_NKINDS; k++) {
		struct named t[] = ROW_TEMPLATES(&gen_kinds[k]);

		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
			const char *s = t[i].tmpl;

			if (!s)
				continue;
			cr_expect(*s && s[strlen(s) - 1] != '\n', "kind %zu %s: empty or ends in a newline", k,
				  t[i].name);
			for (const char *p = strchr(s, '$'); p; p = strchr(p + 1, '$'))
				cr_expect(p[1] && strchr("TFVvLPDGNSM", p[1]), "kind %zu %s: unknown $%c", k, t[i].name,
					  p[1]);
		}
	}
}

/* What the code around the templates relies on, flag by flag. */
Test(aidl_kinds, flags_match_templates)
{
	for (size_t k = 0; k < G_NKINDS; k++) {
		const struct gkind_row *r = &gen_kinds[k];
		bool len = r->flags & GK_LEN;

		/* a _len beside it: the value and its length travel together */
		cr_expect_eq(len, strstr(r->write, "$L") != NULL, "kind %zu: GK_LEN and write's $L differ", k);
		cr_expect_eq(len, strstr(r->read, "$L") != NULL, "kind %zu: GK_LEN and read's $L differ", k);
		cr_expect_eq(len, strstr(r->param_in, "$V_len") != NULL, "kind %zu: GK_LEN and param_in differ", k);
		cr_expect_eq(len, strstr(r->ret, "$V_len") != NULL, "kind %zu: GK_LEN and ret differ", k);
		cr_expect_eq(len, strstr(r->arg, "$L") != NULL, "kind %zu: GK_LEN and arg differ", k);
		/* a struct by address: reset after the declarations, init for
		 * an out parameter and a return value */
		if (r->flags & GK_ADDR) {
			cr_expect_not_null(r->reset, "kind %zu: GK_ADDR without reset", k);
			cr_expect_not_null(r->init, "kind %zu: GK_ADDR without init", k);
		}
		if (r->flags & GK_SWAP)
			cr_expect_not_null(r->free, "kind %zu: GK_SWAP without free", k);
		if (r->flags & GK_INIT_R)
			cr_expect_not_null(r->init, "kind %zu: GK_INIT_R without init", k);
		/* every init either sets _r or is out of memory: both jump to $G */
		if (r->init)
			cr_expect_not_null(strstr(r->init, "goto $G"), "kind %zu: init jumps elsewhere", k);
		if (r->new_n)
			cr_expect_not_null(strstr(r->new_n, "goto $G"), "kind %zu: new_n jumps elsewhere", k);
	}
}

Test(aidl_kinds, expand_fills_in_letters)
{
	struct aidl_opts opts = { 0 };
	struct aidl_ctx ctx = { .opts = &opts };
	struct gtype gt = { .row = &gen_kinds[G_SCALAR], .ctype = "int32_t", .fn = "int32" };
	const char *s;

	s = gen_expand(&ctx, &gt, "$T $F $V $v $L", (struct gvars){ .V = "&a", .L = "n" });
	cr_assert_str_eq(s, "int32_t int32 &a a n");
	/* what the caller gives wins over the row's type */
	s = gen_expand(&ctx, &gt, "$T", (struct gvars){ .T = "int64_t" });
	cr_assert_str_eq(s, "int64_t");
	aidl_arena_free(&ctx);
}
