// SPDX-License-Identifier: MIT
package org.binderc.examples;

/* Implemented by clients: told about every greeting, one-way. */
oneway interface IGreeterListener {
    void greeted(String name, int count);
}
