// SPDX-License-Identifier: MIT
// expect: 4:19: error: a default value for a multi-dimensional array is not supported yet
parcelable P {
    int[2][1] x = {{1}, {2}};
}
