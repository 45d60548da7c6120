// SPDX-License-Identifier: MIT
package org.binderc.test;

import android.os.ParcelFileDescriptor;
import org.binderc.test.ICallback;
import org.binderc.test.Point;

/* List<T> (T[] on the wire), @nullable arrays of parcelables and binders
 * (nullable elements too), ParcelFileDescriptor arrays. */
parcelable Bag {
    List<Point> points;
    @nullable List<Point> maybePoints;
    @nullable Point[] maybeArr;
    List<IBinder> binders;
    @nullable IBinder[] maybeBinders;
    List<ICallback> callbacks;
    ParcelFileDescriptor[] pfds;
    @nullable List<ParcelFileDescriptor> maybePfds;
    int after = 7;
}
