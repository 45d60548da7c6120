// SPDX-License-Identifier: MIT
// expect: 3:1: error: either all methods must have explicitly assigned transaction IDs or none of them
interface I {
    void f() = 1;
    void g();
}
