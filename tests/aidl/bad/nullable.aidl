// SPDX-License-Identifier: MIT
// expect: 5:25: error: @nullable on a parcelable is not supported yet
import org.binderc.test.Point;
interface I {
    void f(@nullable in Point p);
}
