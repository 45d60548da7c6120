// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Pair;
import org.binderc.test.Point;

/* Instantiations of Pair held by another parcelable: by value, in an
 * array, @nullable, and one whose argument is itself an instantiation. */
parcelable Boxes {
    Pair<int, String> a;
    Pair<Point, IBinder>[] bs;
    @nullable Pair<int, String> maybe;
    Pair<Pair<int, String>, long> nested;
}
