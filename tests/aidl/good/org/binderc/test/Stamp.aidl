// SPDX-License-Identifier: MIT
package org.binderc.test;

@Backing(type="long")
enum Stamp {
    EPOCH = 0,
    FAR = 1L << 40,
    NEG = -2,
}
