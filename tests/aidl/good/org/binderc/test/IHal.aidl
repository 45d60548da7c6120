// SPDX-License-Identifier: MIT
// A HAL-style interface: every annotation kind Android 14's
// hardware/interfaces uses, names the generated C has to rename, int
// arithmetic that wraps, and a oneway method without arguments.
package org.binderc.test;

import org.binderc.test.VPoint;

@VintfStability @Descriptor(value="android.hardware.test.IHal") @SensitiveData
@JavaDefault @JavaDelegator @SuppressWarnings(value={"inout-parameter", "out-array"})
interface IHal {
    const int HIGH = 0x80000000 | 1;
    const int SHIFTED = 1 << 31;
    const int WRAPPED = 0x7fffffff + 1;
    const byte U8 = 0x80u8;
    const long LONG_SHIFT = 1L << 40;

    @UnsupportedAppUsage(maxTargetSdk=30, trackingBug=170729553L, implicitMember="x")
    oneway void onTransferReady();

    @EnforcePermission(anyOf={"A", "B"}) @PropagateAllowBlocking
    VPoint move(in VPoint p, in IBinder binder, int register);

    @RequiresNoPermission @JavaPassthrough(annotation="@a.B")
    @nullable(heap=true) String ping(in @utf8InCpp String self);

    @PermissionManuallyEnforced
    void int(int default);
}
