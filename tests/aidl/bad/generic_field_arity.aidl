// SPDX-License-Identifier: MIT
// expect: 5:16: error: P must have 2 type parameters, but got 1
interface I {
    parcelable P<T, U> { T t; U[] u; }
    void f(in P<int> p);
}
