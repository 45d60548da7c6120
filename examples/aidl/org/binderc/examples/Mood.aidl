// SPDX-License-Identifier: MIT
package org.binderc.examples;

@Backing(type="int")
enum Mood {
    CHEERFUL,
    GRUMPY,
}
