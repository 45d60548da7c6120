// SPDX-License-Identifier: MIT
// expect: 4:5: error: Map<> is not supported yet
parcelable P {
    Map<String, String> m;
}
