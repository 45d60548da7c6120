// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Color;

/* Array defaults, as Android's StructuredParcelable has them. */
parcelable Defaults {
    const int THREE = 3;
    int[] arrayDefaultsTo123 = { 1, 2, THREE };
    int[] arrayDefaultsToEmpty = { };
    String[] strings = { "a", "b", };
    @utf8InCpp String[] utf8 = { "c" };
    @nullable String[] maybe = { "d" };
    byte[] bytes = { 1, -1, 0x7f };
    Color[] colors = { Color.RED, Color.BLUE };
    long[2] pair = { 1L << 40, -1 };
    boolean[] flags = { true, false };
    char[] chars = { 'x' };
    double[] ds = { 1.5, 2 };
    int after = 7;
}
