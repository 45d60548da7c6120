// SPDX-License-Identifier: MIT
// A HAL-style parcelable: Android 14's hardware/interfaces annotations.
package org.binderc.test;

@VintfStability @FixedSize @JavaDerive(toString=true, equals=true)
@RustDerive(Copy=true, Clone=true, PartialEq=true)
parcelable VPoint {
    int x;
    int y;
    byte tag = 0xffu8;
    long wide = 1L << 40;
    int flags = 0x80000000 | 1;
}
