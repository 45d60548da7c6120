// SPDX-License-Identifier: MIT
// expect: 4:43: error: Primitive type cannot get nullable annotation
interface I {
    parcelable P<T> { String s; @nullable T t; }
    void f(in P<int> p);
}
