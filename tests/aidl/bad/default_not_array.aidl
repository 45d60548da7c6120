// SPDX-License-Identifier: MIT
// expect: 4:15: error: the default of an array field must be an array {...}
parcelable P {
    int[] x = 5;
}
