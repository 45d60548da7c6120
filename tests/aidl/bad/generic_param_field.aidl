// SPDX-License-Identifier: MIT
// expect: 4:5: error: a field of a type parameter's type (T) is not supported yet
parcelable P<T> {
    T t;
}
