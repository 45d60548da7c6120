// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.vibrator, version 2 (interface hash ea8742d6...).
// Method order is the wire: transaction codes 1 (getCapabilities) to 24
// (composePwle), then getInterfaceVersion/Hash.
package android.hardware.vibrator;

import android.hardware.vibrator.Braking;
import android.hardware.vibrator.CompositeEffect;
import android.hardware.vibrator.CompositePrimitive;
import android.hardware.vibrator.Effect;
import android.hardware.vibrator.EffectStrength;
import android.hardware.vibrator.IVibratorCallback;
import android.hardware.vibrator.PrimitivePwle;

@VintfStability
interface IVibrator {
    // capability bits of getCapabilities()
    const int CAP_ON_CALLBACK = 1 << 0;
    const int CAP_PERFORM_CALLBACK = 1 << 1;
    const int CAP_AMPLITUDE_CONTROL = 1 << 2;
    const int CAP_EXTERNAL_CONTROL = 1 << 3;
    const int CAP_EXTERNAL_AMPLITUDE_CONTROL = 1 << 4;
    const int CAP_COMPOSE_EFFECTS = 1 << 5;
    const int CAP_ALWAYS_ON_CONTROL = 1 << 6;
    const int CAP_GET_RESONANT_FREQUENCY = 1 << 7;
    const int CAP_GET_Q_FACTOR = 1 << 8;
    const int CAP_FREQUENCY_CONTROL = 1 << 9;
    const int CAP_COMPOSE_PWLE_EFFECTS = 1 << 10;

    int getCapabilities();
    void off();
    void on(in int timeoutMs, in IVibratorCallback callback);
    int perform(in Effect effect, in EffectStrength strength, in IVibratorCallback callback);
    Effect[] getSupportedEffects();
    void setAmplitude(in float amplitude);
    void setExternalControl(in boolean enabled);
    int getCompositionDelayMax();
    int getCompositionSizeMax();
    CompositePrimitive[] getSupportedPrimitives();
    int getPrimitiveDuration(CompositePrimitive primitive);
    void compose(in CompositeEffect[] composite, in IVibratorCallback callback);
    Effect[] getSupportedAlwaysOnEffects();
    void alwaysOnEnable(in int id, in Effect effect, in EffectStrength strength);
    void alwaysOnDisable(in int id);
    float getResonantFrequency();
    float getQFactor();
    float getFrequencyResolution();
    float getFrequencyMinimum();
    float[] getBandwidthAmplitudeMap();
    int getPwlePrimitiveDurationMax();
    int getPwleCompositionSizeMax();
    Braking[] getSupportedBraking();
    void composePwle(in PrimitivePwle[] composite, in IVibratorCallback callback);
}
