// SPDX-License-Identifier: MIT
// expect: 5:10: error: Point is not a generic type.
import org.binderc.test.Point;
parcelable P {
    Point<int> p;
}
