// SPDX-License-Identifier: MIT
// expect: 4:24: error: expected a string constant
parcelable P {
    String[] s = {"a", 1};
}
