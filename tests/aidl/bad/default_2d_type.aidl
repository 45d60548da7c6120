// SPDX-License-Identifier: MIT
// expect: 4:29: error: expected a string constant
parcelable P {
    String[1][2] x = {{"a", 2}};
}
