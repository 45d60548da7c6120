// SPDX-License-Identifier: MIT
// expect: 4:9: error: the size of a fixed-size array must be 1..1048576 (it is 0)
parcelable P {
    int[0] a;
}
