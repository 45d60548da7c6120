// SPDX-License-Identifier: MIT
package org.binderc.test;

import android.os.ParcelFileDescriptor;
import org.binderc.test.Point;

/* Fixed-size arrays of the new element kinds: C and init only. */
parcelable FdPair {
    ParcelFileDescriptor[2] pair;
    @nullable ParcelFileDescriptor[2] maybePair;
    @nullable Point[3] maybePoints;
    @nullable IBinder[2] maybeBinders;
}
