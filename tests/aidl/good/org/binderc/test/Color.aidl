// SPDX-License-Identifier: MIT
package org.binderc.test;

/* An int-backed enum: written as int32. */
@Backing(type="int")
enum Color {
    RED,
    GREEN = 5,
    BLUE,
    WHITE = GREEN | 0x100,
}
