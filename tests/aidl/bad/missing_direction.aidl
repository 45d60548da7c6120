// SPDX-License-Identifier: MIT
// expect: 4:12: error: 'int[] a' can be an out type, so you must declare it as in, out or inout
interface I {
    void f(int[] a);
}
