// SPDX-License-Identifier: MIT
// expect: 4:9: error: expected an integer constant for type int
parcelable P {
    int[1.5] a;
}
