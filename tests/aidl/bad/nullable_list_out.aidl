// SPDX-License-Identifier: MIT
// expect: 5:12: error: @nullable on an out or inout parameter is not supported yet
import org.binderc.test.Point;
interface I {
    void f(out @nullable List<Point> l);
}
