// SPDX-License-Identifier: MIT
// expect: 4:19: error: x needs 2 rows, not 1
parcelable P {
    int[2][1] x = {{1}};
}
