// SPDX-License-Identifier: MIT
// expect: 3:13: error: a generic parcelable is not supported yet
parcelable P<T> {
    T t;
}
