// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.power, version 4 (interface hash 141ac3bb...).
// Method order is the wire: transaction codes 1 (setMode) to 6
// (getHintSessionPreferredRate), then getInterfaceVersion/Hash.
package android.hardware.power;

import android.hardware.power.Boost;
import android.hardware.power.IPowerHintSession;
import android.hardware.power.Mode;

@VintfStability
interface IPower {
    oneway void setMode(in Mode type, in boolean enabled);
    boolean isModeSupported(in Mode type);
    oneway void setBoost(in Boost type, in int durationMs);
    boolean isBoostSupported(in Boost type);
    IPowerHintSession createHintSession(
            in int tgid, in int uid, in int[] threadIds, in long durationNanos);
    long getHintSessionPreferredRate();
}
