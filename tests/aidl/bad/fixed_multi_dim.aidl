// SPDX-License-Identifier: MIT
// expect: 4:11: error: a multi-dimensional array is not supported yet
parcelable P {
    int[2][3] grid;
}
