// SPDX-License-Identifier: MIT
// expect: 4:5: error: 'init' would clash with the generated P_init
parcelable P {
    const int init = 1;
    int x;
}
