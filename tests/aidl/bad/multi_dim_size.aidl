// SPDX-License-Identifier: MIT
// expect: 4:15: error: a fixed-size array must have 1..1048576 elements in all (it has 2048 * 1024)
parcelable P {
    int[2048][1024] grid;
}
