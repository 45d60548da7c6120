// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Sized;

/* Two-dimensional fixed-size arrays: Android writes T[N][M] as an array
 * of N arrays (int32 N, then each row as T[M]: int32 M, the elements);
 * in C they are N * M elements, row-major. */
parcelable Matrix {
    int[2][3] cells;
    String[Sized.N][1] words;
    byte[2][2] bits;
}
