// SPDX-License-Identifier: MIT
// expect: 4:21: error: an array {...} cannot be used where a single value is expected
parcelable P {
    int[1][1] x = {{{1}}};
}
