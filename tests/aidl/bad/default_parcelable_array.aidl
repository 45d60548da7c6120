// SPDX-License-Identifier: MIT
// expect: 5:16: error: the default of 'more' (P[]) can only be {}: no constant has its element type
parcelable P {
    int x;
    P[] more = { 1 };
}
