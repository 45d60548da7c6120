// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.power, version 4 (interface hash 141ac3bb...).
package android.hardware.power;

@VintfStability
@Backing(type="int")
enum SessionHint {
    CPU_LOAD_UP,
    CPU_LOAD_DOWN,
    CPU_LOAD_RESET,
    CPU_LOAD_RESUME,
    POWER_EFFICIENCY,
}
