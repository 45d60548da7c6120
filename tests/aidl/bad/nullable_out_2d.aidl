// SPDX-License-Identifier: MIT
// expect: 4:26: error: @nullable on a multi-dimensional array is not supported yet
interface I {
    void f(out @nullable int[3][2] x);
}
