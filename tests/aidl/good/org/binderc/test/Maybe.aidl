// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

/* @nullable fields: NULL is the null value on the wire. */
parcelable Maybe {
    @nullable String name;
    @nullable String greeting = "hi";
    @nullable IBinder token;
    @nullable int[] numbers;
    @nullable byte[] bytes;
    @nullable String[] words;
    @nullable Point where;
    @nullable Maybe next;
}
