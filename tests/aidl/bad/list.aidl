// SPDX-License-Identifier: MIT
// expect: 4:19: error: List<Point> is not supported yet
interface I {
    void f(in List<Point> l);
}
