// SPDX-License-Identifier: MIT
// expect: 4:5: error: transaction id 16777115 of method 'f' is out of range (0..16777114)
interface I {
    void f() = 16777115;
}
