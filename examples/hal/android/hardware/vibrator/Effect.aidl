// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.vibrator, version 2 (interface hash ea8742d6...).
package android.hardware.vibrator;

@VintfStability
@Backing(type="int")
enum Effect {
    CLICK,
    DOUBLE_CLICK,
    TICK,
    THUD,
    POP,
    HEAVY_CLICK,
    RINGTONE_1,
    RINGTONE_2,
    RINGTONE_3,
    RINGTONE_4,
    RINGTONE_5,
    RINGTONE_6,
    RINGTONE_7,
    RINGTONE_8,
    RINGTONE_9,
    RINGTONE_10,
    RINGTONE_11,
    RINGTONE_12,
    RINGTONE_13,
    RINGTONE_14,
    RINGTONE_15,
    TEXTURE_TICK,
}
