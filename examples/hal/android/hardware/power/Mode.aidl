// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.power, version 4 (interface hash 141ac3bb...).
package android.hardware.power;

@VintfStability
@Backing(type="int")
enum Mode {
    DOUBLE_TAP_TO_WAKE,
    LOW_POWER,
    SUSTAINED_PERFORMANCE,
    FIXED_PERFORMANCE,
    VR,
    LAUNCH,
    EXPENSIVE_RENDERING,
    INTERACTIVE,
    DEVICE_IDLE,
    DISPLAY_INACTIVE,
    AUDIO_STREAMING_LOW_LATENCY,
    CAMERA_STREAMING_SECURE,
    CAMERA_STREAMING_LOW,
    CAMERA_STREAMING_MID,
    CAMERA_STREAMING_HIGH,
    GAME,
    GAME_LOADING,
}
