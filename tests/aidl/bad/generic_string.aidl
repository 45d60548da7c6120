// SPDX-License-Identifier: MIT
// expect: 4:11: error: String is not a generic type.
parcelable P {
    String<int> s;
}
