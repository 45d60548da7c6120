// SPDX-License-Identifier: MIT
// expect: 4:6: error: T is not a generic type.
parcelable P<T> {
    T<int> t;
}
