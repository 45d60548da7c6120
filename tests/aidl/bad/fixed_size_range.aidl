// SPDX-License-Identifier: MIT
// expect: 5:11: error: the size of a fixed-size array must be 1..1048576 (it is -1)
parcelable P {
    const int N = 3;
    int[N - 4] a;
}
