// SPDX-License-Identifier: MIT
// expect: 5:10: error: a multi-dimensional array of binders, file descriptors or parcelables is not supported yet
parcelable P {
    parcelable Q { int x; }
    Q[2][2] qs;
}
