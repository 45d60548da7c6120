/* SPDX-License-Identifier: MIT */
/* Helpers shared by the bc-aidl tests. */
#ifndef BCAIDL_AT_H
#define BCAIDL_AT_H

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* fds (golden_fds.c, golden_lists.c) */
/* Same bytes except the fd numbers of fd objects; same files behind them. */
static inline void at_same_but_fds(const bc_parcel *got, const bc_parcel *want)
{
	size_t n = bc_parcel_size(got), ng, nw;
	const uint64_t *og = bc_parcel_offsets(got, &ng), *ow = bc_parcel_offsets(want, &nw);
	unsigned char *a = malloc(n + 1), *b = malloc(n + 1);

	cr_assert_eq(n, bc_parcel_size(want), "size %zu, want %zu", n, bc_parcel_size(want));
	cr_assert_eq(ng, nw);
	memcpy(a, bc_parcel_data(got), n);
	memcpy(b, bc_parcel_data(want), n);
	for (size_t i = 0; i < ng; i++) {
		int32_t fa, fb;
		struct stat sa, sb;

		cr_assert_eq(og[i], ow[i]);
		memcpy(&fa, a + og[i] + 8, 4);
		memcpy(&fb, b + ow[i] + 8, 4);
		cr_assert_eq(fstat(fa, &sa), 0);
		cr_assert_eq(fstat(fb, &sb), 0);
		cr_assert(sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev, "object %zu: another file", i);
		memset(a + og[i] + 8, 0, 8);
		memset(b + ow[i] + 8, 0, 8);
	}
	cr_assert_eq(memcmp(a, b, n), 0, "bytes differ");
	free(a), free(b);
}

static inline int at_temp_file(const char *content)
{
	char path[] = "/tmp/bc-aidl-fd.XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	unlink(path);
	cr_assert_eq(write(fd, content, strlen(content)), (ssize_t)strlen(content));
	return fd;
}

static inline bool at_same_file(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_ino == sb.st_ino && sa.st_dev == sb.st_dev;
}

#ifdef AIDLT_GEN
/* The generated source of @name (AIDLT_GEN/NAME.c), NUL-terminated. */
static inline char *at_gen_text(const char *name)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s.c", AIDLT_GEN, name);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_gt(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* How many times @needle occurs in @hay. */
static inline size_t at_count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}
#endif

#endif
