// SPDX-License-Identifier: MIT
package org.binderc.test;

// Point, Level and Stamp come from the same package: no import needed.
parcelable Shape {
    Point center;
    int[] xs;
    String[] names;
    byte[] blob;
    boolean flag = true;
    long big = 1L << 40;
    double ratio = 0.5;
    float scale = 1.5f;
    char initial = 'A';
    byte small = -3;
    @utf8InCpp String note = "café";
    Level level = Level.HIGH;
    Stamp stamp = Stamp.FAR;
    boolean[] bits;
    char[] chars;
    long[] longs;
    float[] floats;
    double[] doubles;
}
