// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Color;
import org.binderc.test.Generic;
import org.binderc.test.Point;

interface IGeneric {
    Generic<int, Point, Color> echo(in Generic<String, IBinder, List<Point>> g);
    void many(in Generic<int[], long, Generic<int, int, int>>[] gs, out Generic<byte, char, boolean> one);
    List<Generic<String, String, List<Point>>> listed(in List<Generic<int, int, int>> l);
}
