// SPDX-License-Identifier: MIT
// expect: 4:5: error: '_hidden': names starting with '_' are reserved in the generated C
parcelable P {
    int _hidden;
}
