// SPDX-License-Identifier: MIT
// Written for binder-c from the published contract of Android 14's
// android.hardware.power, version 4 (interface hash 141ac3bb...).
package android.hardware.power;

import android.hardware.power.SessionHint;
import android.hardware.power.WorkDuration;

@VintfStability
interface IPowerHintSession {
    oneway void updateTargetWorkDuration(long targetDurationNanos);
    oneway void reportActualWorkDuration(in WorkDuration[] durations);
    oneway void pause();
    oneway void resume();
    oneway void close();
    oneway void sendHint(SessionHint hint);
    void setThreads(in int[] threadIds);
}
