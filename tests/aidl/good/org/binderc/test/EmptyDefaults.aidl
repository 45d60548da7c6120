// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

/* {}: the one default an array of parcelables, binders or fds can have
 * (audio's effect Range starts as `VendorExtensionRange[] vendor = {}`):
 * an empty array, not null. */
union EmptyDefaults {
    Point[] points = {};
    Kinds kinds;

    parcelable Kinds {
        @nullable Point[] maybe = {};
        List<Point> list = {};
        IBinder[] binders = {};
        @nullable IBinder[] maybeBinders = {};
        ParcelFileDescriptor[] pfds = {};
        @nullable Point[] stillNull;
    }
}
