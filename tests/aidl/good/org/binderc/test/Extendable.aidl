// SPDX-License-Identifier: MIT
package org.binderc.test;

/* ParcelableHolder fields (Android's extension pattern). */
parcelable Extendable {
    int a = 1;
    ParcelableHolder ext;
    int b = 2;
}
