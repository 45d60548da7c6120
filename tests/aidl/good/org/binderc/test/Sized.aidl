// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.IGrid;

/* Fixed-size arrays sized by constant expressions, and @nullable ones
 * (null, or exactly N elements; T[]'s wire format either way). */
parcelable Sized {
    const int N = 2;
    int[N * 2] quad;
    @nullable String[N] maybe;
    byte[IGrid.N] three;
}
