// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Value;

interface IValues {
    Value twice(in Value v);
}
