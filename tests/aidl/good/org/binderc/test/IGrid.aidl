// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Grid;
import org.binderc.test.Sized;

interface IGrid {
    const int N = 3;

    long[2] pair(in int[3] v, in Grid g);
    @nullable int[N - 1] maybe(in @nullable int[N] v, in Sized s);
    long[3][2] transpose(in long[2][3] m);
}
