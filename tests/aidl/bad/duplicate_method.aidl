// SPDX-License-Identifier: MIT
// expect: 5:5: error: method 'f' is declared twice (AIDL has no overloading)
interface I {
    void f();
    int f();
}
