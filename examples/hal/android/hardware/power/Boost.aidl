// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.power, version 4 (interface hash 141ac3bb...).
package android.hardware.power;

@VintfStability
@Backing(type="int")
enum Boost {
    INTERACTION,
    DISPLAY_UPDATE_IMMINENT,
    ML_ACC,
    AUDIO_LAUNCH,
    CAMERA_LAUNCH,
    CAMERA_SHOT,
}
