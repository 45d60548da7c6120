// SPDX-License-Identifier: MIT
// expect: 5:1: error: expected ';', found '}'
interface I {
    void f()
}
