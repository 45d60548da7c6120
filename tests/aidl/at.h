/* SPDX-License-Identifier: MIT */
/* Helpers shared by the bc-aidl tests. */
#ifndef BCAIDL_AT_H
#define BCAIDL_AT_H

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <binderc/binderc.h>

static inline bc_parcel *at_parcel(void)
{
	bc_parcel *p = NULL;

	cr_assert_eq(bc_parcel_new(&p), 0);
	return p;
}

/* Two parcels hold the same bytes and the same number of objects. */
static inline void at_same(const bc_parcel *got, const bc_parcel *want)
{
	size_t ng, nw;
	const unsigned char *g = bc_parcel_data(got), *w = bc_parcel_data(want);

	bc_parcel_offsets(got, &ng);
	bc_parcel_offsets(want, &nw);
	if (bc_parcel_size(got) != bc_parcel_size(want) || memcmp(g, w, bc_parcel_size(got)) != 0) {
		char a[2048] = "", b[2048] = "";
		for (size_t i = 0; i < bc_parcel_size(got) && i < 400; i++)
			snprintf(a + strlen(a), sizeof(a) - strlen(a), "%02x ", g[i]);
		for (size_t i = 0; i < bc_parcel_size(want) && i < 400; i++)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%02x ", w[i]);
		cr_assert_fail("bytes differ\n got:  %s\n want: %s", a, b);
	}
	cr_assert_eq(ng, nw, "object count %zu, want %zu", ng, nw);
}

/* A parcel's bytes equal a literal. */
static inline void at_bytes(const bc_parcel *p, const unsigned char *b, size_t n)
{
	cr_assert_eq(bc_parcel_size(p), n, "size %zu, want %zu", bc_parcel_size(p), n);
	cr_assert_eq(memcmp(bc_parcel_data(p), b, n), 0, "bytes differ");
}

#define AT_BYTES(...) ((const unsigned char[]){ __VA_ARGS__ }), sizeof((const unsigned char[]){ __VA_ARGS__ })

/* Rewind a written parcel to read it back. */
static inline void at_rewind(bc_parcel *p)
{
	cr_assert_eq(bc_parcel_set_position(p, 0), 0);
}

#endif
