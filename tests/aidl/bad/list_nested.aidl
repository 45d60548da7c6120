// SPDX-License-Identifier: MIT
// expect: 5:19: error: List<List...> is not supported. List<T> supports interface/parcelable/union, String, IBinder, and ParcelFileDescriptor.
import org.binderc.test.Point;
interface I {
    void f(in List<List<Point>> l);
}
