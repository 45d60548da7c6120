// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Grid;

interface IGrid {
    long[2] pair(in int[3] v, in Grid g);
}
