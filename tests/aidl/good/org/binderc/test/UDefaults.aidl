// SPDX-License-Identifier: MIT
package org.binderc.test;

/* A union starts as its first field, here with an array default. */
union UDefaults {
    int[] numbers = { 4, 5 };
    String[] words = { "unused" };
}
