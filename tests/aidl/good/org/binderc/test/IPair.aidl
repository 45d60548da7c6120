// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Boxes;
import org.binderc.test.Pair;
import org.binderc.test.Point;

/* Instantiations of Pair as arguments and return values; Pair<int,
 * String> is also used by Boxes (one definition linked). */
interface IPair {
    Pair<int, String> swap(in Pair<int, String> p);
    void many(in Pair<Point, IBinder>[] ps, out Pair<String, int> one);
    Boxes boxes(in Boxes b);
}
