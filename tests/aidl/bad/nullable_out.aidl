// SPDX-License-Identifier: MIT
// expect: 4:12: error: @nullable on an out or inout parameter is not supported yet
interface I {
    void f(out @nullable int[] x);
}
