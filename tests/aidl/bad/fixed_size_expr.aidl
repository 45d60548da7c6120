// SPDX-License-Identifier: MIT
// expect: 5:8: error: a fixed-size array whose size is not an integer literal is not supported yet
parcelable P {
    const int N = 3;
    int[N] a;
}
