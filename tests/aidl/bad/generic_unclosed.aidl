// SPDX-License-Identifier: MIT
// expect: 5:27: error: expected '>', found 'g'
import org.binderc.test.Generic;
parcelable P {
    Generic<int, int, int g;
}
