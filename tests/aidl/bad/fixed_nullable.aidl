// SPDX-License-Identifier: MIT
// expect: 4:15: error: @nullable on a fixed-size array is not supported yet
parcelable P {
    @nullable int[3] a;
}
