// SPDX-License-Identifier: MIT
// expect: 5:5: error: method 'g' has the same transaction id (3) as 'f'
interface I {
    void f() = 3;
    void g() = 3;
}
