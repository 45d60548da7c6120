// SPDX-License-Identifier: MIT
// expect: 4:13: error: an array {...} cannot be used where a single value is expected
parcelable P {
    int x = {1};
}
