// SPDX-License-Identifier: MIT
// expect: 4:20: error: expected '}', found ';'
parcelable P {
    int[] x = {1, 2;
}
