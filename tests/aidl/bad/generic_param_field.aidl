// SPDX-License-Identifier: MIT
// expect: 5:11: error: Constant of type T is not supported.
parcelable P<T> {
    T t;
    const T C = 1;
}
