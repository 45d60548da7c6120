// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

/* Arrays of parcelables, including of itself. */
parcelable Polygon {
    Point[] points;
    String name = "poly";
    Polygon[] children;
}
