// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.vibrator, version 2 (interface hash ea8742d6...).
package android.hardware.vibrator;

import android.hardware.vibrator.CompositePrimitive;

@VintfStability
parcelable CompositeEffect {
    // milliseconds of silence before the primitive
    int delayMs;
    CompositePrimitive primitive = CompositePrimitive.NOOP;
    // 0.0 to 1.0
    float scale;
}
