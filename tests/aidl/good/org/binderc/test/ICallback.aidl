// SPDX-License-Identifier: MIT
package org.binderc.test;

oneway interface ICallback {
    void done(int code, String what);
}
