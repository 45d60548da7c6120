// SPDX-License-Identifier: MIT
// expect: 4:15: error: unknown type Foo (not declared, imported or found with -I)
interface I {
    void f(in Foo a);
}
