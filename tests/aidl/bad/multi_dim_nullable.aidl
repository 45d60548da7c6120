// SPDX-License-Identifier: MIT
// expect: 4:15: error: @nullable on a multi-dimensional array is not supported yet
parcelable P {
    @nullable int[2][2] grid;
}
