// SPDX-License-Identifier: MIT
package org.binderc.test;

import android.os.ParcelFileDescriptor;
import org.binderc.test.Bag;
import org.binderc.test.ICallback;
import org.binderc.test.Point;

interface ILists {
    List<Point> echo(in List<Point> pts);
    void fill(out List<Point> pts, inout List<IBinder> bs);
    @nullable Point[] maybe(in @nullable Point[] pts);
    @nullable List<ICallback> callbacks(in @nullable List<ICallback> cbs);
    ParcelFileDescriptor[] fds(in ParcelFileDescriptor[] f, in @nullable ParcelFileDescriptor[] g);
    Bag bag(in Bag b);
}
