// SPDX-License-Identifier: MIT
package org.binderc.examples;

interface IKvListener {
    oneway void changed(String key, boolean present);
}
