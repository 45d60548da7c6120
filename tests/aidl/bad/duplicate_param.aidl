// SPDX-License-Identifier: MIT
// expect: 4:19: error: parameter 'a' is declared twice
interface I {
    void f(int a, long a);
}
