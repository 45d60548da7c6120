// SPDX-License-Identifier: MIT
// expect: 5:12: error: Generic must have 3 type parameters, but got 2
import org.binderc.test.Generic;
parcelable P {
    Generic<int, int> g;
}
