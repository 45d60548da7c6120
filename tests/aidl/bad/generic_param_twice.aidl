// SPDX-License-Identifier: MIT
// expect: 3:17: error: type parameter 'T' is declared twice
parcelable P<T, T> {
    int a;
}
