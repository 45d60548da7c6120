// SPDX-License-Identifier: MIT
// expect: 4:5: error: an array of parcelables (P[]) is not supported yet
parcelable P {
    P[] children;
}
