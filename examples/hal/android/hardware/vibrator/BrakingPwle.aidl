// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.vibrator, version 2 (interface hash ea8742d6...).
package android.hardware.vibrator;

import android.hardware.vibrator.Braking;

@VintfStability
parcelable BrakingPwle {
    Braking braking;
    int duration;
}
