// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

// out and inout T[N]: an out one is not in the request, both come back
// after the return value in declaration order.
interface IFixedOut {
    int ints(in int a, out int[3] o, inout long[2] io);
    void bytes(out byte[4] o, inout byte[2] io);
    void strs(out String[2] o, inout String[1] io);
    void points(out Point[2] o);
    void grid(out int[2][3] o, inout String[2][1] io);
}
