// SPDX-License-Identifier: MIT
// expect: 4:19: error: A generic type cannot have any primitive type parameters.
interface I {
    void f(in List<int> l);
}
