// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

/* A union: int32 tag (the field's index), then that field. */
union Value {
    int num = 5;
    String text;
    Point point;
    long[] longs;
    @nullable IBinder token;
}
