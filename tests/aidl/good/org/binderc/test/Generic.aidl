// SPDX-License-Identifier: MIT
package org.binderc.test;

/* A generic parcelable as AOSP's GenericStructuredParcelable<T, U, B>:
 * the parameters do not reach the wire. */
parcelable Generic<T, U, B> {
    int a;
    int b = 2;
}
