// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Color;

/* Defaults of two-dimensional fixed-size arrays (Android's
 * FixedSizeArrayExample has `int[2][3] int2x3 = {{1, 2, 3}, {4, 5, 6}}`):
 * N rows of exactly M values, row-major in C. */
parcelable GridDefaults {
    const int TWO = 2;
    int[2][3] m = {{1, 2, 3}, {4, 5, TWO * 3}};
    String[1][2] s = {{"a", "b"},};
    Color[TWO][1] c = {{Color.RED}, {Color.BLUE}};
    byte[2][2] b = {{1, -1}, {0x7f, 2}};
    @utf8InCpp String[2][1] u = {{"x"}, {"y"}};
}
