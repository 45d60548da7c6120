/* SPDX-License-Identifier: MIT */
/*
 * The HAL examples' interfaces (examples/hal: Android 14's
 * android.hardware.vibrator V2 and android.hardware.power V4, written
 * from their published contracts) against Android's facts: transaction
 * codes (from method order), constants, enumerator values, versions and
 * hashes, and the request bytes of calls that mix enums of both backings,
 * callbacks, a union array and an int array, each written out by hand as
 * Android's NDK backend writes it.  The generated C is compiled here with
 * the sanitizers; the guest test (hal.sh) runs the examples themselves.
 */
#include "at.h"

#include "android_hardware_power_IPower.h"
#include "android_hardware_power_IPowerHintSession.h"
#include "android_hardware_vibrator_IVibrator.h"
#include "android_hardware_vibrator_IVibratorCallback.h"

#define V(x) android_hardware_vibrator_##x
#define P(x) android_hardware_power_##x

Test(aidl_hal_examples, codes_constants_versions)
{
	/* IVibrator V2: 24 methods, composePwle last */
	cr_expect_eq(V(IVibrator_CODE_getCapabilities), 1);
	cr_expect_eq(V(IVibrator_CODE_compose), 12);
	cr_expect_eq(V(IVibrator_CODE_alwaysOnDisable), 15);
	cr_expect_eq(V(IVibrator_CODE_getResonantFrequency), 16);
	cr_expect_eq(V(IVibrator_CODE_getSupportedBraking), 23);
	cr_expect_eq(V(IVibrator_CODE_composePwle), 24);
	cr_expect_eq(V(IVibrator_CODE_getInterfaceVersion), 16777215);
	cr_expect_eq(V(IVibrator_CODE_getInterfaceHash), 16777214);
	cr_expect_eq(V(IVibrator_CAP_ALWAYS_ON_CONTROL), 64);
	cr_expect_eq(V(IVibrator_CAP_COMPOSE_PWLE_EFFECTS), 1024);
	cr_expect_eq(V(IVibratorCallback_CODE_onComplete), 1);
	cr_expect_eq(V(Effect_TEXTURE_TICK), 21);
	cr_expect_eq(V(EffectStrength_STRONG), 2);
	cr_expect_eq(sizeof(V(EffectStrength)), 1, "a byte-backed enum");
	cr_expect_eq(V(CompositePrimitive_LOW_TICK), 8);
	cr_expect_eq(V(Braking_CLAB), 1);
	cr_expect_eq(V(IVibrator_VERSION), 2);
	cr_expect_str_eq(V(IVibrator_HASH), "ea8742d6993e1a82917da38b9938e537aa7fcb54");
	cr_expect_str_eq(V(IVibrator_DESCRIPTOR), "android.hardware.vibrator.IVibrator");
	/* IPower V4 */
	cr_expect_eq(P(IPower_CODE_setMode), 1);
	cr_expect_eq(P(IPower_CODE_createHintSession), 5);
	cr_expect_eq(P(IPower_CODE_getHintSessionPreferredRate), 6);
	cr_expect_eq(P(IPowerHintSession_CODE_sendHint), 6);
	cr_expect_eq(P(IPowerHintSession_CODE_setThreads), 7);
	cr_expect_eq(P(Mode_GAME_LOADING), 16);
	cr_expect_eq(P(Boost_CAMERA_SHOT), 5);
	cr_expect_eq(P(SessionHint_POWER_EFFICIENCY), 4);
	cr_expect_eq(P(IPower_VERSION), 4);
	cr_expect_str_eq(P(IPower_HASH), "141ac3bb33bb4f524de020669f12599c18cdd67f");
}

/* ---- what the proxies send -------------------------------------------------- */

static bc_parcel *want;
static uint32_t want_code, want_flags;
static int calls;

static int rec(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *ud)
{
	(void)self, (void)ud;
	cr_assert_eq(code, want_code);
	cr_assert_eq(bc_txn_get_flags(txn) & BINDERC_FLAG_ONEWAY, want_flags);
	at_same(in, want);
	calls++;
	if (!(want_flags & BINDERC_FLAG_ONEWAY)) {
		bc_parcel_write_status(reply, NULL);
		if (code == V(IVibrator_CODE_perform))
			bc_parcel_write_int32(reply, 70);
	}
	return 0;
}

/* A VINTF local object standing for the HAL (the proxies require VINTF;
 * a local object always passes). */
static bc_binder *recorder(const char *desc)
{
	bc_class *cls = NULL;
	bc_binder *b = NULL;

	cr_assert_eq(bc_class_new(desc, rec, NULL, 0, &cls), 0);
	cr_assert_eq(bc_binder_new(cls, NULL, &b), 0);
	cr_assert_eq(bc_binder_set_stability(b, BINDERC_STABILITY_VINTF), 0);
	bc_class_unref(cls);
	return b;
}

static bc_parcel *request(const char *desc, uint32_t code, uint32_t flags)
{
	bc_parcel *q = at_parcel();

	cr_assert_eq(bc_parcel_write_interface_token(q, desc), 0);
	want = q, want_code = code, want_flags = flags;
	return q;
}

static int on_complete(void *self)
{
	(void)self;
	return 0;
}

/* perform(Effect, EffectStrength, IVibratorCallback): an int enum as
 * int32, a byte enum as int32 too (Android widens byte to int32), the
 * callback as a binder object. */
Test(aidl_hal_examples, vibrator_perform_bytes)
{
	const struct V(IVibratorCallback_ops) ops = { .onComplete = on_complete };
	bc_binder *vib = recorder(V(IVibrator_DESCRIPTOR)), *cb = NULL;
	int32_t ms = 0;
	bc_parcel *q;

	cr_assert_eq(V(IVibratorCallback_stub_new)(&ops, NULL, NULL, &cb), 0);
	q = request(V(IVibrator_DESCRIPTOR), 4, 0);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_binder(q, cb);
	cr_assert_eq(V(IVibrator_perform)(vib, V(Effect_DOUBLE_CLICK), V(EffectStrength_STRONG), cb, &ms), 0);
	cr_assert_eq(ms, 70);
	cr_assert_eq(calls, 1);
	bc_parcel_unref(q);
	bc_binder_unref(cb);
	bc_binder_unref(vib);
}

/* composePwle(PrimitivePwle[], cb): int32 count, then each union as a
 * parcelable value (int32 1), its tag, and that member as a parcelable
 * value again (Android's union writes it with writeParcelable /
 * AParcel_writeParcelable: int32 1, then int32 size counting itself and
 * the fields). */
Test(aidl_hal_examples, vibrator_compose_pwle_bytes)
{
	const struct V(IVibratorCallback_ops) ops = { .onComplete = on_complete };
	bc_binder *vib = recorder(V(IVibrator_DESCRIPTOR)), *cb = NULL;
	V(PrimitivePwle) pw[2];
	bc_parcel *q;
	size_t tok;

	cr_assert_eq(V(IVibratorCallback_stub_new)(&ops, NULL, NULL, &cb), 0);
	for (int i = 0; i < 2; i++)
		cr_assert_eq(V(PrimitivePwle_init)(&pw[i]), 0);
	pw[0]._tag = V(PrimitivePwle_TAG_active);
	pw[0].active.startAmplitude = 0.25f, pw[0].active.startFrequency = 120;
	pw[0].active.endAmplitude = 0.5f, pw[0].active.endFrequency = 180, pw[0].active.duration = 40;
	pw[1]._tag = V(PrimitivePwle_TAG_braking);
	pw[1].braking.braking = V(Braking_CLAB), pw[1].braking.duration = 10;

	q = request(V(IVibrator_DESCRIPTOR), 24, 0);
	bc_parcel_write_int32(q, 2);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 0); /* tag: active */
	bc_parcel_write_int32(q, 1); /* the member: a parcelable value */
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_float(q, 0.25f);
	bc_parcel_write_float(q, 120);
	bc_parcel_write_float(q, 0.5f);
	bc_parcel_write_float(q, 180);
	bc_parcel_write_int32(q, 40);
	bc_parcel_end_parcelable(q, tok);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 1); /* tag: braking */
	bc_parcel_write_int32(q, 1);
	bc_parcel_begin_parcelable(q, &tok);
	bc_parcel_write_int32(q, 1);
	bc_parcel_write_int32(q, 10);
	bc_parcel_end_parcelable(q, tok);
	bc_parcel_write_binder(q, cb);
	calls = 0;
	cr_assert_eq(V(IVibrator_composePwle)(vib, pw, 2, cb), 0);
	cr_assert_eq(calls, 1);
	for (int i = 0; i < 2; i++)
		V(PrimitivePwle_clear)(&pw[i]);
	bc_parcel_unref(q);
	bc_binder_unref(cb);
	bc_binder_unref(vib);
}

/* IPower: setMode is one-way (FLAG_ONEWAY, boolean as int32);
 * createHintSession sends int32, int32, int[] (count, elements), int64. */
Test(aidl_hal_examples, power_bytes)
{
	static const int32_t tids[] = { 7, 8 };
	bc_binder *pow = recorder(P(IPower_DESCRIPTOR)), *session = NULL;
	bc_parcel *q;

	q = request(P(IPower_DESCRIPTOR), 1, BINDERC_FLAG_ONEWAY);
	bc_parcel_write_int32(q, P(Mode_GAME));
	bc_parcel_write_int32(q, 1);
	calls = 0;
	cr_assert_eq(P(IPower_setMode)(pow, P(Mode_GAME), true), 0);
	bc_parcel_unref(q);

	q = request(P(IPower_DESCRIPTOR), 5, 0);
	bc_parcel_write_int32(q, 100);
	bc_parcel_write_int32(q, 1000);
	bc_parcel_write_int32_array(q, tids, 2);
	bc_parcel_write_int64(q, 16666666);
	/* the recorder answers no binder: a non-null return value missing */
	cr_assert_neq(P(IPower_createHintSession)(pow, 100, 1000, tids, 2, 16666666, &session), 0);
	cr_assert_null(session);
	cr_assert_eq(calls, 2);
	bc_parcel_unref(q);
	bc_binder_unref(pow);
}
