/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of @nullable (Maybe.aidl, INullable.aidl): NULL is written
 * as Android's null (-1 length for strings and arrays, a null binder
 * object), an empty array stays an empty array (count 0), and nulls read
 * back as NULL; a nullable String[] has nullable elements.
 */
#include "at.h"

#include "org_binderc_test_INullable.h"
#include "org_binderc_test_Maybe.h"

Test(aidl_nullable, parcelable_defaults_and_nulls)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Maybe m, r;
	size_t tok;

	cr_assert_eq(org_binderc_test_Maybe_init(&m), 0);
	cr_assert_null(m.name); /* a nullable String starts null */
	cr_assert_str_eq(m.greeting, "hi");
	cr_assert_eq(org_binderc_test_Maybe_write(p, &m), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_string16(q, NULL);
	bc_parcel_write_string16(q, "hi");
	bc_parcel_write_binder(q, NULL);
	bc_parcel_write_int32_array(q, NULL, 0);
	bc_parcel_write_byte_array(q, NULL, 0);
	bc_parcel_write_string16_array(q, NULL, 0);
	bc_parcel_write_int32(q, 0); /* a null Point */
	bc_parcel_write_int32(q, 0); /* a null Maybe */
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	cr_assert_eq(((const int32_t *)bc_parcel_data(p))[1], -1); /* the null name: length -1 */
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Maybe_read(p, &r), 0);
	cr_assert_null(r.name);
	cr_assert_str_eq(r.greeting, "hi");
	cr_assert_null(r.token);
	cr_assert_null(r.numbers);
	cr_assert_null(r.bytes);
	cr_assert_null(r.words);
	cr_assert_null(r.where);
	cr_assert_null(r.next);
	org_binderc_test_Maybe_clear(&m), org_binderc_test_Maybe_clear(&r);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_nullable, parcelable_values_and_empty_arrays)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Maybe m, r;
	static const int32_t none[1];
	size_t tok;

	cr_assert_eq(org_binderc_test_Maybe_init(&m), 0);
	m.name = strdup("n");
	free(m.greeting);
	m.greeting = NULL;
	m.numbers = malloc(sizeof(int32_t)); /* non-NULL, length 0: empty */
	m.numbers_len = 0;
	m.words = calloc(2, sizeof(char *));
	m.words[1] = strdup("w"); /* element 0 stays null */
	m.words_len = 2;
	m.where = malloc(sizeof(*m.where));
	org_binderc_test_Point_init(m.where);
	m.where->x = 8;
	m.next = malloc(sizeof(*m.next)); /* a list of two */
	org_binderc_test_Maybe_init(m.next);
	cr_assert_eq(org_binderc_test_Maybe_write(p, &m), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_string16(q, "n");
	bc_parcel_write_string16(q, NULL);
	bc_parcel_write_binder(q, NULL);
	bc_parcel_write_int32_array(q, none, 0);
	bc_parcel_write_byte_array(q, NULL, 0);
	bc_parcel_write_string16_array(q, (const char *const[]){ NULL, "w" }, 2);
	{
		size_t ptok, ntok;
		bc_parcel_write_int32(q, 1); /* where: present, then the body */
		bc_parcel_begin_parcelable(q, &ptok);
		bc_parcel_write_int32(q, 8);
		bc_parcel_write_int32(q, 7);
		bc_parcel_write_string16(q, "origin");
		bc_parcel_write_int32(q, 5);
		bc_parcel_end_parcelable(q, ptok);
		bc_parcel_write_int32(q, 1); /* next: present */
		bc_parcel_begin_parcelable(q, &ntok);
		bc_parcel_write_string16(q, NULL);
		bc_parcel_write_string16(q, "hi");
		bc_parcel_write_binder(q, NULL);
		bc_parcel_write_int32_array(q, NULL, 0);
		bc_parcel_write_byte_array(q, NULL, 0);
		bc_parcel_write_string16_array(q, NULL, 0);
		bc_parcel_write_int32(q, 0);
		bc_parcel_write_int32(q, 0);
		bc_parcel_end_parcelable(q, ntok);
	}
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Maybe_read(p, &r), 0);
	cr_assert_str_eq(r.name, "n");
	cr_assert_null(r.greeting);
	cr_assert_not_null(r.numbers);
	cr_assert_eq(r.numbers_len, 0);
	cr_assert_eq(r.words_len, 2);
	cr_assert_null(r.words[0]);
	cr_assert_str_eq(r.words[1], "w");
	cr_assert_not_null(r.where);
	cr_assert_eq(r.where->x, 8);
	cr_assert_not_null(r.next);
	cr_assert_str_eq(r.next->greeting, "hi");
	cr_assert_null(r.next->next);
	org_binderc_test_Maybe_clear(&m), org_binderc_test_Maybe_clear(&r);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

static int n_echo(void *self, const char *s, bc_binder *cb, const int32_t *a, size_t a_len, const char *const *words,
		  size_t words_len, char **ret)
{
	(void)self;
	if (!s) { /* null in, null out */
		cr_assert_null(cb);
		cr_assert_null(a);
		cr_assert_null(words);
		*ret = NULL;
		return 0;
	}
	cr_assert_not_null(cb);
	cr_assert_eq(a_len, 1);
	cr_assert_eq(words_len, 1);
	cr_assert_null(words[0]);
	*ret = malloc(strlen(s) + 2);
	sprintf(*ret, "%s!", s);
	return 0;
}

static int n_pass(void *self, const org_binderc_test_Maybe *m, org_binderc_test_Maybe *ret)
{
	(void)self;
	free(ret->greeting);
	ret->greeting = m->name ? strdup(m->name) : NULL;
	return 0;
}

static int n_reversed(void *self, const char *const *l, size_t l_len, char ***ret, size_t *ret_len)
{
	(void)self;
	*ret = calloc(l_len + 1, sizeof(char *));
	for (size_t i = 0; i < l_len; i++)
		(*ret)[i] = strdup(l[l_len - 1 - i]);
	*ret_len = l_len;
	return 0;
}

static int n_locate(void *self, const org_binderc_test_Point *p, org_binderc_test_Point **ret)
{
	(void)self;
	if (!p) {
		*ret = NULL;
		return 0;
	}
	*ret = malloc(sizeof(**ret));
	org_binderc_test_Point_init(*ret);
	(*ret)->x = p->x + 1;
	return 0;
}

static const struct org_binderc_test_INullable_ops nops = {
	.echo = n_echo, .pass = n_pass, .reversed = n_reversed, .locate = n_locate,
};

Test(aidl_nullable, nullable_parcelable_arguments)
{
	bc_binder *svc = NULL;
	org_binderc_test_Point pt, *r = (org_binderc_test_Point *)&pt;
	bc_parcel *in = at_parcel(), *reply = at_parcel(), *want = at_parcel();

	cr_assert_eq(org_binderc_test_INullable_stub_new(&nops, NULL, NULL, &svc), 0);
	cr_assert_eq(org_binderc_test_INullable_locate(svc, NULL, &r), 0);
	cr_assert_null(r);
	org_binderc_test_Point_init(&pt);
	pt.x = 41;
	cr_assert_eq(org_binderc_test_INullable_locate(svc, &pt, &r), 0);
	cr_assert_not_null(r);
	cr_assert_eq(r->x, 42);
	org_binderc_test_Point_free(r);
	org_binderc_test_Point_clear(&pt);
	/* a null Point in, a null Point out: int32 0 both ways */
	bc_parcel_write_int32(in, 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_INullable_dispatch(&nops, NULL, org_binderc_test_INullable_CODE_locate, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 0);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);
	bc_binder_unref(svc);
}

/* List<String>: the same bytes as String[] (int32 count, String16s). */
Test(aidl_nullable, list_of_strings)
{
	bc_binder *svc = NULL;
	char **r = NULL;
	size_t n = 0;
	bc_parcel *in = at_parcel(), *reply = at_parcel(), *want = at_parcel();

	cr_assert_eq(org_binderc_test_INullable_stub_new(&nops, NULL, NULL, &svc), 0);
	cr_assert_eq(org_binderc_test_INullable_reversed(svc, (const char *const[]){ "a", "b", "c" }, 3, &r, &n), 0);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(r[0], "c");
	bc_strv_free(r, n);
	bc_parcel_write_string16_array(in, (const char *const[]){ "x", "y" }, 2);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_INullable_dispatch(&nops, NULL, org_binderc_test_INullable_CODE_reversed, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_string16_array(want, (const char *const[]){ "y", "x" }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);
	bc_binder_unref(svc);
}

static int nop_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)txn, (void)code, (void)in, (void)reply, (void)ud;
	return 0;
}

Test(aidl_nullable, loopback)
{
	bc_binder *svc = NULL, *cb = NULL;
	bc_class *cls = NULL;
	char *s = (char *)"x";
	org_binderc_test_Maybe m, r;

	cr_assert_eq(org_binderc_test_INullable_stub_new(&nops, NULL, NULL, &svc), 0);
	cr_assert_eq(bc_class_new("org.binderc.test.ICallback", nop_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &cb), 0);
	cr_assert_eq(org_binderc_test_INullable_echo(svc, NULL, NULL, NULL, 0, NULL, 0, &s), 0);
	cr_assert_null(s);
	cr_assert_eq(org_binderc_test_INullable_echo(svc, "yes", cb, (const int32_t[]){ 4 }, 1,
						     (const char *const[]){ NULL }, 1, &s),
		     0);
	cr_assert_str_eq(s, "yes!");
	free(s);
	org_binderc_test_Maybe_init(&m);
	cr_assert_eq(org_binderc_test_INullable_pass(svc, &m, &r), 0);
	cr_assert_null(r.greeting);
	org_binderc_test_Maybe_clear(&r);
	m.name = strdup("named");
	cr_assert_eq(org_binderc_test_INullable_pass(svc, &m, &r), 0);
	cr_assert_str_eq(r.greeting, "named");
	org_binderc_test_Maybe_clear(&r), org_binderc_test_Maybe_clear(&m);
	bc_binder_unref(cb), bc_binder_unref(svc), bc_class_unref(cls);
}

/* ---- @nullable out and inout ------------------------------------------------- */

/* What the fake service checks and answers (code outs). */
static bc_parcel *outs_want;
static int outs_reply_nulls;

static int outs_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	org_binderc_test_Point pt;

	(void)self, (void)txn, (void)ud;
	cr_assert_eq(code, org_binderc_test_INullable_CODE_outs);
	at_same(in, outs_want);
	bc_parcel_write_status(reply, NULL);
	if (outs_reply_nulls) { /* every output null */
		bc_parcel_write_int32(reply, -1); /* a */
		bc_parcel_write_int32(reply, -1); /* s */
		bc_parcel_write_int32(reply, 0);  /* p */
		bc_parcel_write_int32(reply, 0);  /* q */
		bc_parcel_write_int32(reply, -1); /* l */
		bc_parcel_write_int32(reply, 0);  /* fd */
		return 0;
	}
	org_binderc_test_Point_init(&pt);
	pt.x = 5;
	bc_parcel_write_int32_array(reply, (const int32_t[]){ 1, 2 }, 2);
	bc_parcel_write_string16_array(reply, (const char *const[]){ "x", NULL }, 2);
	bc_parcel_write_int32(reply, 1);
	org_binderc_test_Point_write(reply, &pt);
	bc_parcel_write_int32(reply, 0);
	bc_parcel_write_int32(reply, 2); /* l: a null element, then a point */
	bc_parcel_write_int32(reply, 0);
	bc_parcel_write_int32(reply, 1);
	org_binderc_test_Point_write(reply, &pt);
	bc_parcel_write_int32(reply, 0);
	org_binderc_test_Point_clear(&pt);
	return 0;
}

/* The request: an out @nullable array sends the size asked for (as a
 * non-null one), inout ones their value or null (-1, int32 0 for a
 * parcelable or ParcelFileDescriptor); the reply's nulls come back as
 * NULL / -1, replacing (and freeing) the caller's inout values. */
Test(aidl_nullable, out_inout_proxy)
{
	bc_class *cls = NULL;
	bc_binder *svc = NULL;
	int32_t *a = NULL;
	char **s = NULL;
	org_binderc_test_Point *p = NULL, *q = NULL, **l = NULL;
	size_t a_len = 3, s_len = 0, l_len = 2;
	int fd = -1;

	cr_assert_eq(bc_class_new(org_binderc_test_INullable_DESCRIPTOR, outs_transact, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &svc), 0);
	bc_class_unref(cls);

	outs_want = at_parcel();
	bc_parcel_write_interface_token(outs_want, org_binderc_test_INullable_DESCRIPTOR);
	bc_parcel_write_int32(outs_want, 3);  /* a: three asked for */
	bc_parcel_write_int32(outs_want, -1); /* s: null */
	bc_parcel_write_int32(outs_want, 0);  /* q: null */
	bc_parcel_write_int32(outs_want, 2);  /* l: two asked for */
	bc_parcel_write_int32(outs_want, 0);  /* fd: null */
	outs_reply_nulls = 0;
	cr_assert_eq(org_binderc_test_INullable_outs(svc, &a, &a_len, &s, &s_len, &p, &q, &l, &l_len, &fd), 0);
	cr_assert_eq(a_len, 2);
	cr_assert(a[0] == 1 && a[1] == 2);
	cr_assert_eq(s_len, 2);
	cr_assert_str_eq(s[0], "x");
	cr_assert_null(s[1]);
	cr_assert_not_null(p);
	cr_assert_eq(p->x, 5);
	cr_assert_null(q);
	cr_assert_eq(l_len, 2);
	cr_assert_null(l[0]);
	cr_assert_eq(l[1]->x, 5);
	cr_assert_eq(fd, -1);
	bc_parcel_unref(outs_want);

	/* again with these as inout values, and every output null */
	outs_want = at_parcel();
	bc_parcel_write_interface_token(outs_want, org_binderc_test_INullable_DESCRIPTOR);
	bc_parcel_write_int32(outs_want, 2);
	bc_parcel_write_string16_array(outs_want, (const char *const[]){ "x", NULL }, 2);
	bc_parcel_write_int32(outs_want, 1);
	org_binderc_test_Point_write(outs_want, p);
	bc_parcel_write_int32(outs_want, 2);
	bc_parcel_write_int32(outs_want, 0);
	outs_reply_nulls = 1;
	q = p;
	p = NULL;
	free(a);
	org_binderc_test_Point_free_nullable_array(l, l_len);
	cr_assert_eq(org_binderc_test_INullable_outs(svc, &a, &a_len, &s, &s_len, &p, &q, &l, &l_len, &fd), 0);
	cr_assert_null(a);
	cr_assert_null(s);
	cr_assert_null(p);
	cr_assert_null(q, "the inout point was freed and replaced by null");
	cr_assert_null(l);
	cr_assert_eq(fd, -1);
	bc_parcel_unref(outs_want);
	bc_binder_unref(svc);
}

static int n_outs(void *self, int32_t **a, size_t *a_len, char ***s, size_t *s_len, org_binderc_test_Point **p,
		  org_binderc_test_Point **q, org_binderc_test_Point ***l, size_t *l_len, int *fd)
{
	(void)self, (void)s, (void)s_len;
	/* a was asked for as null (-1): NULL; l as two: two null elements */
	cr_assert_null(*a);
	cr_assert_eq(*a_len, 0);
	cr_assert_null(*p, "an out @nullable parcelable starts null");
	cr_assert_not_null(*q);
	cr_assert_eq(*l_len, 2);
	cr_assert(!l[0][0] && !l[0][1]);
	cr_assert_eq(*fd, -1);
	org_binderc_test_Point_free(*q);
	*q = NULL; /* inout: replaced by null */
	*p = malloc(sizeof(**p)); /* the stub frees it with Point_free */
	if (!*p || org_binderc_test_Point_init(*p) < 0) {
		free(*p);
		*p = NULL;
		return -ENOMEM;
	}
	(*p)->x = 9;
	return 0;
}

/* The stub takes -1 for an out @nullable array's size (Android's proxy
 * sends it for an empty optional) and writes NULL outputs as nulls. */
Test(aidl_nullable, out_inout_stub)
{
	const struct org_binderc_test_INullable_ops ops = { .outs = n_outs };
	org_binderc_test_Point pt;
	bc_parcel *in = at_parcel(), *reply = at_parcel(), *want = at_parcel();

	org_binderc_test_Point_init(&pt);
	bc_parcel_write_int32(in, -1); /* a: null asked for */
	bc_parcel_write_int32(in, -1); /* s: null */
	bc_parcel_write_int32(in, 1);  /* q: a point */
	org_binderc_test_Point_write(in, &pt);
	bc_parcel_write_int32(in, 2); /* l: two asked for */
	bc_parcel_write_int32(in, 0); /* fd: null */
	at_rewind(in);
	cr_assert_eq(org_binderc_test_INullable_dispatch(&ops, NULL, org_binderc_test_INullable_CODE_outs, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, -1); /* a */
	bc_parcel_write_int32(want, -1); /* s */
	bc_parcel_write_int32(want, 1);	 /* p */
	pt.x = 9;
	org_binderc_test_Point_write(want, &pt);
	bc_parcel_write_int32(want, 0); /* q */
	bc_parcel_write_int32(want, 2); /* l: two null elements */
	bc_parcel_write_int32(want, 0);
	bc_parcel_write_int32(want, 0);
	bc_parcel_write_int32(want, 0); /* fd */
	at_same(reply, want);
	org_binderc_test_Point_clear(&pt);
	bc_parcel_unref(in), bc_parcel_unref(reply), bc_parcel_unref(want);
}
