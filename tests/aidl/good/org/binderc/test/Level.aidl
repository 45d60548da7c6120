// SPDX-License-Identifier: MIT
package org.binderc.test;

/* The default backing type is byte: written as an int32 holding it. */
enum Level {
    LOW = -1,
    MID,
    HIGH = 0x7f,
}
