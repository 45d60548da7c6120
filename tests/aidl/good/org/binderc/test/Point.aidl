// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Color;

parcelable Point {
    const int ORIGIN_X = 0;
    int x;
    int y = 7;
    String label = "origin";
    Color color = Color.GREEN;
}
