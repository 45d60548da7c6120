// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

/* Fixed-size arrays (Android 13+): T[N] has T[]'s wire format (int32
 * count, then the elements; byte[N] packed) and exactly N elements. */
parcelable Grid {
    int[3] xyz;
    byte[2] tag;
    String[2] names;
    Point[1] origin;
    int rest = 9;
}
