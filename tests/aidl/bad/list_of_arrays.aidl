// SPDX-License-Identifier: MIT
// expect: 5:26: error: Arrays of List are not supported.
import org.binderc.test.Point;
interface I {
    void f(in List<Point>[] l);
}
