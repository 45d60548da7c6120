// SPDX-License-Identifier: MIT
// expect: 4:12: error: @nullable on an out or inout fixed-size array is not supported yet
interface I {
    void f(out @nullable int[3] x);
}
