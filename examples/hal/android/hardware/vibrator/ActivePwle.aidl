// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.vibrator, version 2 (interface hash ea8742d6...).
package android.hardware.vibrator;

// one segment of a piecewise-linear envelope: amplitude and frequency
// ramp from start to end over duration milliseconds
@VintfStability
parcelable ActivePwle {
    float startAmplitude;
    float startFrequency;
    float endAmplitude;
    float endFrequency;
    int duration;
}
