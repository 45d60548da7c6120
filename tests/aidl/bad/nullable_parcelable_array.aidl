// SPDX-License-Identifier: MIT
// expect: 5:25: error: @nullable on an array of parcelables is not supported yet
import org.binderc.test.Point;
interface I {
    void f(in @nullable Point[] cbs);
}
