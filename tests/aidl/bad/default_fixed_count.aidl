// SPDX-License-Identifier: MIT
// expect: 4:16: error: x needs 3 values, not 2
parcelable P {
    int[3] x = {1, 2};
}
