// SPDX-License-Identifier: MIT
package org.binderc.remote;

/* Implemented by the client of the guest test and passed to the service:
 * a call back into the client while it waits, and a one-way one. */
interface IListener {
    int twice(int n);
    oneway void pong(int n, String what);
}
