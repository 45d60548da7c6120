// SPDX-License-Identifier: MIT
// expect: 5:18: error: void is not a valid type argument
import org.binderc.test.Generic;
parcelable P {
    Generic<int, void, int> g;
}
