/* SPDX-License-Identifier: MIT */
/*
 * Golden tests of fixed-size arrays (Grid.aidl, IGrid.aidl): T[N] is
 * written as T[] is (int32 count, then the elements; byte[N] packed), and
 * exactly N elements are accepted both ways: another length is -EINVAL
 * when sending and malformed (-EBADMSG, a stub's BAD_VALUE) when read.
 */
#include "at.h"

#include "org_binderc_test_Grid.h"
#include "org_binderc_test_IGrid.h"
#include "org_binderc_test_Matrix.h"
#include "org_binderc_test_Sized.h"

/* _init() gives every T[N] field N zero values: fill them in place. */
static void fill(org_binderc_test_Grid *g)
{
	static const int32_t xyz[3] = { 1, -2, 3 };

	cr_assert_eq(org_binderc_test_Grid_init(g), 0);
	cr_assert_eq(g->xyz_len, 3);
	memcpy(g->xyz, xyz, sizeof(xyz));
	cr_assert_eq(g->tag_len, 2);
	g->tag[0] = 'o', g->tag[1] = 'k';
	cr_assert_eq(g->names_len, 2);
	free(g->names[0]), free(g->names[1]);
	g->names[0] = strdup("a");
	g->names[1] = strdup("bc");
	cr_assert_eq(g->origin_len, 1);
	g->origin[0].x = 4;
}

Test(aidl_fixed, wire_as_dynamic_array_and_back)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Grid g, b;
	size_t tok;

	fill(&g);
	cr_assert_eq(org_binderc_test_Grid_write(p, &g), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 1, -2, 3 }, 3);
	bc_parcel_write_byte_array(q, "ok", 2);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_string16(q, "a");
	bc_parcel_write_string16(q, "bc");
	bc_parcel_write_int32(q, 1); /* Point[1]: count, then marker + body */
	bc_parcel_write_int32(q, 1);
	cr_assert_eq(org_binderc_test_Point_write(q, &g.origin[0]), 0);
	bc_parcel_write_int32(q, 9);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Grid_read(p, &b), 0);
	cr_assert_eq(b.xyz_len, 3);
	cr_assert_eq(b.xyz[1], -2);
	cr_assert_eq(b.tag_len, 2);
	cr_assert_eq(b.tag[1], 'k');
	cr_assert_str_eq(b.names[1], "bc");
	cr_assert_eq(b.origin_len, 1);
	cr_assert_eq(b.origin[0].x, 4);
	cr_assert_eq(b.rest, 9);
	org_binderc_test_Grid_clear(&g), org_binderc_test_Grid_clear(&b);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

/* As Android's backends (std::array<T, N>, new T[N]): a fresh Grid holds
 * N zero values per T[N] field, "" strings and default parcelables. */
Test(aidl_fixed, init_gives_n_zero_values)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Grid g, b;
	org_binderc_test_Point pt;
	size_t tok;

	cr_assert_eq(org_binderc_test_Grid_init(&g), 0);
	cr_assert_eq(g.xyz_len, 3);
	cr_assert(g.xyz[0] == 0 && g.xyz[1] == 0 && g.xyz[2] == 0);
	cr_assert_eq(g.tag_len, 2);
	cr_assert_str_eq(g.names[0], "");
	cr_assert_str_eq(g.names[1], "");
	cr_assert_eq(g.origin_len, 1);
	cr_assert_eq(g.origin[0].y, 7); /* Point's own default */
	cr_assert_eq(org_binderc_test_Grid_write(p, &g), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 0, 0, 0 }, 3);
	bc_parcel_write_byte_array(q, "\0\0", 2);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_string16(q, "");
	bc_parcel_write_string16(q, "");
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 1);
	cr_assert_eq(org_binderc_test_Point_init(&pt), 0);
	cr_assert_eq(org_binderc_test_Point_write(q, &pt), 0);
	bc_parcel_write_int32(q, 9);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	/* reading replaces the zero values (ASan: nothing leaks) */
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Grid_read(p, &b), 0);
	cr_assert_eq(b.xyz_len, 3);
	cr_assert_str_eq(b.names[1], "");
	org_binderc_test_Point_clear(&pt);
	org_binderc_test_Grid_clear(&g), org_binderc_test_Grid_clear(&b);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_fixed, other_lengths_refused)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Grid g, b;
	size_t tok;

	fill(&g);
	g.xyz_len = 2; /* sending: nothing written */
	cr_assert_eq(org_binderc_test_Grid_write(p, &g), -EINVAL);
	g.xyz_len = 3;
	g.names_len = 1;
	cr_assert_eq(org_binderc_test_Grid_write(p, &g), -EINVAL);
	g.names_len = 2; /* so _clear() frees both */
	org_binderc_test_Grid_clear(&g);

	/* receiving: four ints where three are declared */
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 1, 2, 3, 4 }, 4);
	bc_parcel_end_parcelable(q, tok);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Grid_read(q, &b), -EBADMSG);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

static int g_pair(void *self, const int32_t *v, size_t v_len, const org_binderc_test_Grid *g, int64_t **_ret,
		  size_t *_ret_len)
{
	(void)self;
	cr_assert_eq(v_len, 3);
	cr_assert_eq(g->xyz_len, 3);
	*_ret = malloc(2 * sizeof(int64_t));
	(*_ret)[0] = v[0] + v[1] + v[2];
	(*_ret)[1] = g->xyz[2];
	*_ret_len = 2;
	return 0;
}

/* @nullable int[N - 1] maybe(in @nullable int[N] v, in Sized s): null for
 * null, else the first two of v */
static int g_maybe(void *self, const int32_t *v, size_t v_len, const org_binderc_test_Sized *s, int32_t **_ret,
		   size_t *_ret_len)
{
	(void)self;
	cr_assert_eq(s->quad_len, 4);
	if (!v) {
		*_ret = NULL;
		return 0;
	}
	cr_assert_eq(v_len, 3);
	*_ret = malloc(2 * sizeof(int32_t));
	(*_ret)[0] = v[0], (*_ret)[1] = v[1];
	*_ret_len = 2;
	return 0;
}

/* long[3][2] transpose(in long[2][3] m): both row-major in C */
static int g_transpose(void *self, const int64_t *m, size_t m_len, int64_t **_ret, size_t *_ret_len)
{
	(void)self;
	cr_assert_eq(m_len, 6);
	*_ret = malloc(6 * sizeof(int64_t));
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			(*_ret)[j * 2 + i] = m[i * 3 + j];
	*_ret_len = 6;
	return 0;
}

static const struct org_binderc_test_IGrid_ops gops = { .pair = g_pair, .maybe = g_maybe, .transpose = g_transpose };

Test(aidl_fixed, stub_in_and_return)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();
	org_binderc_test_Grid g;

	fill(&g);
	bc_parcel_write_int32_array(in, (const int32_t[]){ 10, 20, 30 }, 3);
	bc_parcel_write_int32(in, 1);
	cr_assert_eq(org_binderc_test_Grid_write(in, &g), 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGrid_dispatch(&gops, NULL, org_binderc_test_IGrid_CODE_pair, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int64_array(want, (const int64_t[]){ 60, 3 }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(reply);

	/* an in T[3] holding two elements is an undecodable request */
	in = at_parcel(), reply = at_parcel();
	bc_parcel_write_int32_array(in, (const int32_t[]){ 10, 20 }, 2);
	bc_parcel_write_int32(in, 1);
	cr_assert_eq(org_binderc_test_Grid_write(in, &g), 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGrid_dispatch(&gops, NULL, org_binderc_test_IGrid_CODE_pair, in, reply), -EINVAL);
	org_binderc_test_Grid_clear(&g);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}

/* T[N * 2], T[IGrid.N]: sizes are int constant expressions, evaluated
 * like any constant (other types' constants included). */
Test(aidl_fixed, constant_expression_sizes)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Sized s, b;
	size_t tok;

	cr_assert_eq(org_binderc_test_Sized_init(&s), 0);
	cr_assert_eq(s.quad_len, 4); /* N * 2, N = 2 */
	cr_assert_eq(s.three_len, 3); /* IGrid.N */
	cr_assert_null(s.maybe); /* @nullable T[N] starts as null */
	s.quad[3] = 44;
	s.three[0] = 'x';
	cr_assert_eq(org_binderc_test_Sized_write(p, &s), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 0, 0, 0, 44 }, 4);
	bc_parcel_write_int32(q, -1); /* null String[] */
	bc_parcel_write_byte_array(q, "x\0\0", 3);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Sized_read(p, &b), 0);
	cr_assert_eq(b.quad[3], 44);
	cr_assert_null(b.maybe);
	org_binderc_test_Sized_clear(&b);
	s.quad_len = 2;
	cr_assert_eq(org_binderc_test_Sized_write(p, &s), -EINVAL);
	s.quad_len = 4;
	org_binderc_test_Sized_clear(&s);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

/* @nullable T[N]: NULL is null (-1); otherwise exactly N elements. */
Test(aidl_fixed, nullable_fixed_arrays)
{
	bc_parcel *p = at_parcel(), *q = at_parcel(), *r = at_parcel();
	org_binderc_test_Sized s, b;
	size_t tok;

	cr_assert_eq(org_binderc_test_Sized_init(&s), 0);
	s.maybe = calloc(2, sizeof(char *));
	s.maybe[0] = strdup("m"), s.maybe[1] = strdup("n");
	s.maybe_len = 2;
	cr_assert_eq(org_binderc_test_Sized_write(p, &s), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 0, 0, 0, 0 }, 4);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_string16(q, "m");
	bc_parcel_write_string16(q, "n");
	bc_parcel_write_byte_array(q, "\0\0\0", 3);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Sized_read(p, &b), 0);
	cr_assert_eq(b.maybe_len, 2);
	cr_assert_str_eq(b.maybe[1], "n");
	org_binderc_test_Sized_clear(&b);
	s.maybe_len = 1; /* neither null nor N elements */
	cr_assert_eq(org_binderc_test_Sized_write(r, &s), -EINVAL);
	s.maybe_len = 2;

	/* received: one string where two or null are declared */
	bc_parcel_unref(q), q = at_parcel();
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 0, 0, 0, 0 }, 4);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_string16(q, "m");
	bc_parcel_end_parcelable(q, tok);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Sized_read(q, &b), -EBADMSG);
	org_binderc_test_Sized_clear(&s);
	bc_parcel_unref(p), bc_parcel_unref(q), bc_parcel_unref(r);
}

Test(aidl_fixed, nullable_fixed_in_and_return)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();
	org_binderc_test_Sized s;

	cr_assert_eq(org_binderc_test_Sized_init(&s), 0);
	/* null in, null back */
	bc_parcel_write_int32(in, -1);
	bc_parcel_write_int32(in, 1);
	cr_assert_eq(org_binderc_test_Sized_write(in, &s), 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGrid_dispatch(&gops, NULL, org_binderc_test_IGrid_CODE_maybe, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, -1);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	/* three in, two back */
	in = at_parcel(), want = at_parcel(), reply = at_parcel();
	bc_parcel_write_int32_array(in, (const int32_t[]){ 5, 6, 7 }, 3);
	bc_parcel_write_int32(in, 1);
	cr_assert_eq(org_binderc_test_Sized_write(in, &s), 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGrid_dispatch(&gops, NULL, org_binderc_test_IGrid_CODE_maybe, in, reply), 0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32_array(want, (const int32_t[]){ 5, 6 }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);

	/* two in where null or three are declared: undecodable */
	in = at_parcel(), reply = at_parcel();
	bc_parcel_write_int32_array(in, (const int32_t[]){ 5, 6 }, 2);
	bc_parcel_write_int32(in, 1);
	cr_assert_eq(org_binderc_test_Sized_write(in, &s), 0);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGrid_dispatch(&gops, NULL, org_binderc_test_IGrid_CODE_maybe, in, reply), -EINVAL);
	org_binderc_test_Sized_clear(&s);
	bc_parcel_unref(in), bc_parcel_unref(reply);
}

/* T[N][M]: int32 N, then N rows each written as T[M] (as Android's
 * Parcel.writeFixedArray and the C++/NDK backends do); N * M in C. */
Test(aidl_fixed, two_dimensions_as_rows)
{
	bc_parcel *p = at_parcel(), *q = at_parcel();
	org_binderc_test_Matrix m, b;
	size_t tok;

	cr_assert_eq(org_binderc_test_Matrix_init(&m), 0);
	cr_assert_eq(m.cells_len, 6);
	cr_assert_eq(m.words_len, 2);
	cr_assert_str_eq(m.words[1], "");
	for (int i = 0; i < 6; i++)
		m.cells[i] = i + 1;
	free(m.words[0]), free(m.words[1]);
	m.words[0] = strdup("a"), m.words[1] = strdup("b");
	memcpy(m.bits, "abcd", 4);
	cr_assert_eq(org_binderc_test_Matrix_write(p, &m), 0);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 4, 5, 6 }, 3);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_string16(q, "a");
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_string16(q, "b");
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_byte_array(q, "ab", 2);
	bc_parcel_write_byte_array(q, "cd", 2);
	bc_parcel_end_parcelable(q, tok);
	at_same(p, q);
	at_rewind(p);
	cr_assert_eq(org_binderc_test_Matrix_read(p, &b), 0);
	cr_assert_eq(b.cells_len, 6);
	cr_assert_eq(b.cells[5], 6);
	cr_assert_str_eq(b.words[1], "b");
	cr_assert_eq(b.bits[2], 'c');
	org_binderc_test_Matrix_clear(&b);
	m.cells_len = 5;
	cr_assert_eq(org_binderc_test_Matrix_write(p, &m), -EINVAL);
	m.cells_len = 6;
	org_binderc_test_Matrix_clear(&m);

	/* a short row, or another row count, is malformed */
	bc_parcel_unref(q), q = at_parcel();
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int32_array(q, (const int32_t[]){ 4, 5 }, 2);
	bc_parcel_end_parcelable(q, tok);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Matrix_read(q, &b), -EBADMSG);
	bc_parcel_unref(q), q = at_parcel();
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 3);
	bc_parcel_end_parcelable(q, tok);
	at_rewind(q);
	cr_assert_eq(org_binderc_test_Matrix_read(q, &b), -EBADMSG);
	bc_parcel_unref(p), bc_parcel_unref(q);
}

Test(aidl_fixed, two_dimensions_in_and_return)
{
	bc_parcel *in = at_parcel(), *want = at_parcel(), *reply = at_parcel();

	bc_parcel_write_int32(in, 2);
	bc_parcel_write_int64_array(in, (const int64_t[]){ 1, 2, 3 }, 3);
	bc_parcel_write_int64_array(in, (const int64_t[]){ 4, 5, 6 }, 3);
	at_rewind(in);
	cr_assert_eq(org_binderc_test_IGrid_dispatch(&gops, NULL, org_binderc_test_IGrid_CODE_transpose, in, reply),
		     0);
	bc_parcel_write_status(want, NULL);
	bc_parcel_write_int32(want, 3);
	bc_parcel_write_int64_array(want, (const int64_t[]){ 1, 4 }, 2);
	bc_parcel_write_int64_array(want, (const int64_t[]){ 2, 5 }, 2);
	bc_parcel_write_int64_array(want, (const int64_t[]){ 3, 6 }, 2);
	at_same(reply, want);
	bc_parcel_unref(in), bc_parcel_unref(want), bc_parcel_unref(reply);
}
