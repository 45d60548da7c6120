// SPDX-License-Identifier: MIT
// expect: 5:19: error: oneway method 'f' cannot have out parameters
import org.binderc.test.Point;
interface I {
    oneway void f(out @nullable List<Point> l);
}
