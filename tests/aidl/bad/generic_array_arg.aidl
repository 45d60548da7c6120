// SPDX-License-Identifier: MIT
// expect: 5:17: error: an array or @nullable type argument of a generic parcelable whose fields use its parameters is not supported yet
interface I {
    parcelable P<T> { T t; }
    void f(in P<int[]> p);
}
