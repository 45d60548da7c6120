// SPDX-License-Identifier: MIT
// expect: 4:11: error: a multi-dimensional array that is not fixed-size is not supported yet
parcelable P {
    int[2][] grid;
}
