// SPDX-License-Identifier: MIT
package org.binderc.test;

/* A generic parcelable whose fields use its parameters (issue 32): each
 * Pair<A, B> is its own C struct, written as the fields with T and U
 * replaced (Android's NDK backend instantiates a C++ template). */
parcelable Pair<T, U> {
    const int VERSION = 1;
    T value;
    T[] list;
    U other;
    int n = 5;
}
