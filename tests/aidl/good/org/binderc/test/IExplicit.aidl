// SPDX-License-Identifier: MIT
package org.binderc.test;

/* Explicit transaction ids: code = FIRST_CALL_TRANSACTION + id. */
interface IExplicit {
    int second() = 20;
    int first() = 10;
}
