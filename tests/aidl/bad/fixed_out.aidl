// SPDX-License-Identifier: MIT
// expect: 4:12: error: an out or inout fixed-size array is not supported yet
interface I {
    void f(out int[3] a);
}
