// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;
import org.binderc.test.Polygon;
import org.binderc.test.Value;

interface IValues {
    Value twice(in Value v);
    Point[] corners(in Polygon p, out Point[] extra, inout Point[] moved);
}
