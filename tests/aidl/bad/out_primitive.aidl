// SPDX-License-Identifier: MIT
// expect: 4:12: error: 'int a' can only be an in parameter
interface I {
    void f(out int a);
}
