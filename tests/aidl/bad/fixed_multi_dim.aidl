// SPDX-License-Identifier: MIT
// expect: 4:14: error: an array of more than two dimensions is not supported yet
parcelable P {
    int[2][3][4] grid;
}
