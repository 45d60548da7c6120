// SPDX-License-Identifier: MIT
// expect: 4:20: error: row 0 of x's default must be an array {...}
parcelable P {
    int[2][2] x = {1, 2};
}
