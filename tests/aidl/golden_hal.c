/* SPDX-License-Identifier: MIT */
/*
 * HAL-style AIDL (good/IHal.aidl, VPoint.aidl): what Android 14's
 * hardware/interfaces needs of the compiler beyond the basics.
 *  - annotations with an effect: @VintfStability marks the stub VINTF,
 *    @Descriptor names the interface on the wire (the loopback's interface
 *    token must match it), @FixedSize leaves the wire format alone;
 *  - int constant arithmetic wrapping in 32 bits, the u8 suffix;
 *  - members named like C keywords or generated parameters, renamed
 *    with a trailing '_';
 *  - a oneway method without arguments (its stub compiles warning-free).
 */
#include "at.h"

#include "org_binderc_test_IHal.h"
#include "org_binderc_test_VPoint.h"

Test(aidl_hal, constants_wrap_like_android)
{
	cr_assert_eq(org_binderc_test_IHal_HIGH, INT32_MIN + 1);
	cr_assert_eq(org_binderc_test_IHal_SHIFTED, INT32_MIN);
	cr_assert_eq(org_binderc_test_IHal_WRAPPED, INT32_MIN);
	cr_assert_eq(org_binderc_test_IHal_U8, -128);
	cr_assert_eq(org_binderc_test_IHal_LONG_SHIFT, INT64_C(1) << 40);
	cr_assert_str_eq(org_binderc_test_IHal_DESCRIPTOR, "android.hardware.test.IHal");
}

/* @FixedSize changes nothing on the wire: size, then the fields. */
Test(aidl_hal, fixed_size_parcelable_bytes)
{
	org_binderc_test_VPoint v;
	bc_parcel *p = at_parcel();

	cr_assert_eq(org_binderc_test_VPoint_init(&v), 0);
	cr_assert_eq(v.tag, -1);
	cr_assert_eq(v.flags, INT32_MIN + 1);
	v.x = 1, v.y = -2;
	cr_assert_eq(org_binderc_test_VPoint_write(p, &v), 0);
	at_bytes(p, AT_BYTES(28, 0, 0, 0, 1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* tag */
			     0, 0, 0, 0, 0, 1, 0, 0, /* 1L << 40 */
			     1, 0, 0, 0x80));
	org_binderc_test_VPoint_clear(&v);
	bc_parcel_unref(p);
}

struct seen {
	int ready;
	bc_binder *binder;
	int32_t reg;
};

static int on_ready(void *self)
{
	((struct seen *)self)->ready++;
	return 0;
}

static int on_move(void *self, const org_binderc_test_VPoint *p, bc_binder *binder_, int32_t register_,
		   org_binderc_test_VPoint *ret)
{
	struct seen *s = self;

	s->binder = binder_;
	s->reg = register_;
	*ret = *p;
	ret->x += register_;
	return 0;
}

static int on_int(void *self, int32_t default_)
{
	((struct seen *)self)->reg = default_;
	return 0;
}

Test(aidl_hal, vintf_stub_renamed_names_loopback)
{
	const struct org_binderc_test_IHal_ops ops = { .onTransferReady = on_ready, .move = on_move, .int_ = on_int };
	struct seen seen = { 0 };
	org_binderc_test_VPoint in, out;
	bc_binder *svc = NULL;

	cr_assert_eq(org_binderc_test_IHal_stub_new(&ops, &seen, NULL, &svc), 0);
	cr_assert_eq(bc_binder_get_stability(svc), BINDERC_STABILITY_VINTF);
	cr_assert_eq(org_binderc_test_IHal_onTransferReady(svc), 0);
	cr_assert_eq(seen.ready, 1);
	cr_assert_eq(org_binderc_test_VPoint_init(&in), 0);
	in.x = 5;
	cr_assert_eq(org_binderc_test_IHal_move(svc, &in, svc, 7, &out), 0);
	cr_assert_eq(out.x, 12);
	cr_assert_eq(out.tag, -1);
	cr_assert_eq(seen.reg, 7);
	cr_assert_not_null(seen.binder);
	cr_assert_eq(org_binderc_test_IHal_int_(svc, 9), 0);
	cr_assert_eq(seen.reg, 9);
	/* not implemented: UNKNOWN_TRANSACTION */
	cr_assert_neq(org_binderc_test_IHal_ping(svc, "x", NULL), 0);
	bc_binder_unref(svc);
}
