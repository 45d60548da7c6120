/* SPDX-License-Identifier: MIT */
/*
 * Random mutations of valid parcels, read with random sequences of every
 * reader: errors are fine, crashes and sanitizer reports are not.
 */
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "ut.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

static int nop(bc_binder *s, bc_txn *t, uint32_t c, bc_parcel *i, bc_parcel *r, void *u)
{
	(void)s, (void)t, (void)c, (void)i, (void)r, (void)u;
	return 0;
}

static void write_sample(bc_parcel *p, int kind, bc_binder *b)
{
	size_t tok;
	bc_status st = BINDERC_STATUS_INIT;

	bc_parcel_write_interface_token(p, "fuzz.IThing");
	switch (kind) {
	case 0:
		bc_parcel_write_int32(p, 7);
		bc_parcel_write_string16(p, "a string \xe2\x82\xac");
		bc_parcel_write_int64(p, -3);
		bc_parcel_write_string8(p, "s8");
		break;
	case 1:
		bc_parcel_write_binder(p, b);
		bc_parcel_write_binder(p, NULL);
		bc_parcel_write_weak_binder(p, b);
		bc_parcel_write_fd(p, 0, false);
		break;
	case 2:
		bc_parcel_write_int32(p, 1);
		bc_parcel_begin_parcelable(p, &tok);
		bc_parcel_write_int32_array(p, (const int32_t[]){ 1, 2, 3 }, 3);
		bc_parcel_write_string16_array(p, (const char *const[]){ "x", NULL, "zz" }, 3);
		bc_parcel_write_binder(p, b);
		bc_parcel_end_parcelable(p, tok);
		bc_parcel_write_double_array(p, (const double[]){ 1.5 }, 1);
		break;
	default:
		bc_status_set_service_error(&st, 5, "message");
		bc_parcel_write_status(p, &st);
		bc_status_clear(&st);
		bc_parcel_write_byte_array(p, "bytes", 5);
		bc_parcel_write_bool_array(p, (const bool[]){ true }, 1);
		break;
	}
}

/* Read with a random sequence of readers until everything fails. */
static void chew(bc_parcel *p)
{
	for (int step = 0; step < 48; step++) {
		union {
			char *s;
			const char *cs;
			const void *v;
			const uint16_t *u16;
			int32_t *ai;
			int64_t *al;
			double *ad;
			bool *ab;
			uint16_t *ac;
		} o;
		bc_binder *b = NULL;
		bc_weak *w = NULL;
		bc_status st = BINDERC_STATUS_INIT;
		char **sv = NULL;
		size_t n = 0, end;
		int fd, r = 0;

		o.v = NULL;
		switch (rnd() % 22) {
		case 0: r = bc_parcel_read_int32(p, NULL); break;
		case 1: r = bc_parcel_read_int64(p, NULL); break;
		case 2: r = bc_parcel_read_string16(p, &o.s, &n); if (r == 0) free(o.s); break;
		case 3: r = bc_parcel_read_string16_utf16(p, &o.u16, &n); break;
		case 4: r = bc_parcel_read_string8(p, &o.cs, &n); break;
		case 5: r = bc_parcel_read_byte_array(p, &o.v, &n); break;
		case 6: r = bc_parcel_read_int32_array(p, &o.ai, &n); if (r == 0) free(o.ai); break;
		case 7: r = bc_parcel_read_int64_array(p, &o.al, &n); if (r == 0) free(o.al); break;
		case 8: r = bc_parcel_read_double_array(p, &o.ad, &n); if (r == 0) free(o.ad); break;
		case 9: r = bc_parcel_read_bool_array(p, &o.ab, &n); if (r == 0) free(o.ab); break;
		case 10: r = bc_parcel_read_char_array(p, &o.ac, &n); if (r == 0) free(o.ac); break;
		case 11: r = bc_parcel_read_string16_array(p, &sv, &n); if (r == 0) bc_strv_free(sv, n); break;
		case 12: r = bc_parcel_read_binder(p, &b); bc_binder_unref(b); break;
		case 13: r = bc_parcel_read_weak_binder(p, &w); bc_weak_unref(w); break;
		case 14: r = bc_parcel_read_fd(p, &fd); break;
		case 15: r = bc_parcel_enter_parcelable(p, &end); if (r == 0 && rnd() % 2) bc_parcel_exit_parcelable(p, end); break;
		case 16: r = bc_parcel_read_interface_token(p, &o.s); if (r == 0) free(o.s); break;
		case 17: r = bc_parcel_read_status(p, &st); bc_status_clear(&st); break;
		case 18: r = bc_parcel_read_raw(p, rnd() % 64, &o.v); break;
		case 19: r = bc_parcel_set_position(p, (rnd() % (bc_parcel_size(p) + 8)) & ~3u); break;
		case 20: r = bc_parcel_read_double(p, NULL); break;
		default: r = bc_parcel_read_bool(p, NULL); break;
		}
		(void)r;
	}
}

Test(fuzz, mutated_copies, .timeout = 120)
{
	bc_class *c;
	bc_binder *b;

	cr_assert_eq(bc_class_new("fuzz.IThing", nop, NULL, 0, &c), 0);
	cr_assert_eq(bc_binder_new(c, NULL, &b), 0);
	for (int iter = 0; iter < 100000; iter++) {
		bc_parcel *src = ut_parcel(BINDERC_WIRE_ANDROID_9 + (int)(rnd() % 5)), *p = NULL;
		size_t size, n_offs;
		unsigned char *buf;
		uint64_t offs[8];
		const uint64_t *o;

		write_sample(src, (int)(rnd() % 4), b);
		size = bc_parcel_size(src);
		o = bc_parcel_offsets(src, &n_offs);
		if (n_offs)
			memcpy(offs, o, n_offs * sizeof(uint64_t));
		buf = malloc(size + 64);
		memcpy(buf, bc_parcel_data(src), size);
		switch (rnd() % 4) {
		case 0: /* flip bytes */
			for (int k = 0, m = 1 + rnd() % 6; k < m && size; k++)
				buf[rnd() % size] = (unsigned char)rnd();
			break;
		case 1: /* truncate */
			size = size ? rnd() % size : 0;
			break;
		case 2: /* extend with junk */
			for (int k = 0; k < 16; k++)
				buf[size + k] = (unsigned char)rnd();
			size += 16;
			break;
		default: /* plant interesting words */
			if (size >= 4) {
				static const uint32_t words[] = { 0xffffffffu, 0x7fffffffu, 0x80000000u, 0, 0x73622a85u,
								  0x73682a85u, 0x66642a85u, 0xffffff80u };
				uint32_t wv = words[rnd() % 8];
				memcpy(buf + (rnd() % (size / 4)) * 4, &wv, 4);
			}
		}
		if (n_offs && rnd() % 4 == 0)
			offs[rnd() % n_offs] += (rnd() % 9) * 4 - 16;
		if (bc_parcel_new_from_data(buf, size, offs, n_offs, &p) == 0) {
			bc_parcel_set_wire(p, bc_parcel_get_wire(src), (int)(rnd() % 2));
			chew(p);
			bc_parcel_unref(p);
		}
		/* Also mutate the written parcel itself (it can resolve its
		 * own objects): the reader must still only trust its list. */
		if (size >= 4 && bc_parcel_size(src) >= 4) {
			size_t at = (rnd() % (bc_parcel_size(src) / 4)) * 4;
			uint32_t wv = rnd();
			memcpy(src->data + at, &wv, 4);
		}
		chew(src);
		free(buf);
		bc_parcel_unref(src);
	}
	bc_binder_unref(b);
	bc_class_unref(c);
}
