// SPDX-License-Identifier: MIT
// expect: 4:5: error: Currently, only Java backend supports Map.
parcelable P {
    Map<String, String> m;
}
