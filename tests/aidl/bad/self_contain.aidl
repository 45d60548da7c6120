// SPDX-License-Identifier: MIT
// expect: 4:5: error: parcelable P cannot contain itself
parcelable P {
    P inner;
}
