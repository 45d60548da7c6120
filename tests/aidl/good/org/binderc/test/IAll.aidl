// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Color;
import org.binderc.test.ICallback;
import org.binderc.test.Point;
import org.binderc.test.Shape;

/* One method per construct the golden tests check. */
interface IAll {
    const int MAX = 100;
    const long BIG = 0x7fffffffffffffffL;
    const String NAME = "all" + "-" + "of-it";
    const boolean YES = MAX > 10;
    const byte MASK = 0xff;
    const char SEP = ',';
    const double HALF = 1.0 / 2;
    const float QUARTER = 0.25f;

    int primitives(boolean z, byte b, char c, int i, long l, float f, double d);
    String strings(String s, @utf8InCpp String u);
    IBinder binders(IBinder b, ICallback cb);
    Color enums(Color c, Level l, Stamp s);
    Point parcelables(in Point a, out Point b, inout Point c);
    Shape shapes(in Shape s);
    int[] arrays(in int[] a, out long[] b, inout String[] c, in byte[] d, in boolean[] e);
    oneway void fire(int code, in Point p);
    void nothing();
    String[] names();
    void fail(int code);
    /* enum arrays: arrays of the backing type (byte[] packed) */
    Level[] levels(in Level[] l, in Color[] c, out Stamp[] s);
    /* binder arrays: int32 count, then each binder object */
    ICallback[] callbacks(in ICallback[] cbs, inout IBinder[] bs);
}
