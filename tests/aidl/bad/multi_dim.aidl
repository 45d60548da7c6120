// SPDX-License-Identifier: MIT
// expect: 4:10: error: a multi-dimensional array that is not fixed-size is not supported yet
parcelable P {
    int[][] grid;
}
