// SPDX-License-Identifier: MIT
// expect: 4:28: error: row 1 of x needs 2 values, not 1
parcelable P {
    int[2][2] x = {{1, 2}, {3}};
}
