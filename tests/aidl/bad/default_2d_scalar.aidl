// SPDX-License-Identifier: MIT
// expect: 4:19: error: the default of an array field must be an array {...}
parcelable P {
    int[1][1] x = 1;
}
