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

#include "harness.h"

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

	bc_parcel_offsets(got, &ng);
	bc_parcel_offsets(want, &nw);
	th_assert_bytes(bc_parcel_data(got), bc_parcel_size(got), bc_parcel_data(want), bc_parcel_size(want));
	cr_assert_eq(ng, nw, "object count %zu, want %zu", ng, nw);
}

/* A parcel's bytes equal a literal. */
static inline void at_bytes(const bc_parcel *p, const unsigned char *b, size_t n)
{
	th_assert_bytes(bc_parcel_data(p), bc_parcel_size(p), b, n);
}

#define AT_BYTES(...) ((const unsigned char[]){ __VA_ARGS__ }), sizeof((const unsigned char[]){ __VA_ARGS__ })

/* Rewind a written parcel to read it back. */
static inline void at_rewind(bc_parcel *p)
{
	cr_assert_eq(bc_parcel_set_position(p, 0), 0);
}

#endif
