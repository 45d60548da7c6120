// SPDX-License-Identifier: MIT
// expect: 3:8: error: only a parcelable can have type parameters
union U<T> {
    int a;
}
