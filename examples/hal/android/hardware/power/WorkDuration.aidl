// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.power, version 4 (interface hash 141ac3bb...).
package android.hardware.power;

// how long one unit of work took, and when it was reported
@VintfStability
parcelable WorkDuration {
    long timeStampNanos;
    long durationNanos;
}
