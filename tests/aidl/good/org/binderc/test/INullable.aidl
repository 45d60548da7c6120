// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.ICallback;
import org.binderc.test.Maybe;
import org.binderc.test.Point;

interface INullable {
    @nullable String echo(@nullable String s, @nullable ICallback cb, in @nullable int[] a,
            in @nullable String[] words);
    Maybe pass(in Maybe m);
    @nullable Point locate(@nullable in Point p);
    /* List<String> is String[] on the wire */
    List<String> reversed(in List<String> l);
    /* @nullable out and inout: NULL both ways */
    void outs(out @nullable int[] a, inout @nullable String[] s, out @nullable Point p,
            inout @nullable Point q, out @nullable List<Point> l, inout @nullable ParcelFileDescriptor fd);
}
