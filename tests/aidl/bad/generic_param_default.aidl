// SPDX-License-Identifier: MIT
// expect: 4:11: error: a default value for a field of a type parameter's type is not supported yet
parcelable P<T> {
    T t = 3;
}
