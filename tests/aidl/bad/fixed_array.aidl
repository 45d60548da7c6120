// SPDX-License-Identifier: MIT
// expect: 4:8: error: a fixed-size array is not supported yet
parcelable P {
    int[3] a;
}
