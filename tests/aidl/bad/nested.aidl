// SPDX-License-Identifier: MIT
// expect: 4:5: error: a nested type is not supported yet
parcelable P {
    enum E { A, B }
    int x;
}
