// SPDX-License-Identifier: MIT
package org.binderc.test;

/* In a @VintfStability parcelable the holder is written with VINTF stability. */
@VintfStability
parcelable VExtendable {
    ParcelableHolder ext;
}
