// SPDX-License-Identifier: MIT
/* bench/hist.c: the pairs workload's merged percentiles. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "hist.h"

static struct hist *new_hist(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	cr_assert(h);
	return h;
}

/* Within one bucket: 1/16 of an octave, so 1/16 of the value. */
static void assert_near(uint64_t got, uint64_t want)
{
	uint64_t tol = want / 16 + 1;

	cr_assert(got + tol >= want && got <= want + tol, "got %llu, want %llu +- %llu", (unsigned long long)got,
		  (unsigned long long)want, (unsigned long long)tol);
}

Test(hist, percentiles_of_a_uniform_range)
{
	struct hist *h = new_hist();

	for (uint64_t v = 1000; v <= 100000; v++)
		hist_add(h, v);
	cr_assert_eq(h->n, 99001);
	cr_assert_eq(h->min_ns, 1000);
	cr_assert_eq(h->max_ns, 100000);
	assert_near(hist_pct(h, 0.5), 50500);
	assert_near(hist_pct(h, 0.9), 90100);
	assert_near(hist_pct(h, 0.99), 99010);
	cr_assert_eq(hist_pct(h, 1.0), 100000, "the top is the exact max");
	free(h);
}

Test(hist, small_values_are_exact_and_clamped)
{
	struct hist *h = new_hist(), *empty = new_hist();

	hist_add(h, 3);
	hist_add(h, 3);
	hist_add(h, 7);
	cr_assert_eq(hist_pct(h, 0.5), 3);
	cr_assert_eq(hist_pct(h, 1.0), 7);
	cr_assert_eq(hist_pct(empty, 0.5), 0, "empty");
	free(h);
	free(empty);
}

Test(hist, merge_gives_the_percentiles_of_everything)
{
	struct hist *a = new_hist(), *b = new_hist(), *all = new_hist();

	/* a: 900 fast trips, b: 100 slow ones: the merged p95 is slow,
	 * though neither client's median is */
	for (int i = 0; i < 900; i++)
		hist_add(a, 10000);
	for (int i = 0; i < 100; i++)
		hist_add(b, 5000000);
	hist_merge(all, a);
	hist_merge(all, b);
	cr_assert_eq(all->n, 1000);
	cr_assert_eq(all->min_ns, 10000);
	cr_assert_eq(all->max_ns, 5000000);
	assert_near(hist_pct(all, 0.5), 10000);
	assert_near(hist_pct(all, 0.9), 10000);
	assert_near(hist_pct(all, 0.95), 5000000);
	/* the largest values land in the last buckets without overflow */
	hist_add(all, UINT64_MAX);
	cr_assert_eq(hist_pct(all, 1.0), UINT64_MAX);
	free(a);
	free(b);
	free(all);
}
