// SPDX-License-Identifier: MIT
// expect: 5:9: error: unknown constant 'M'
parcelable P {
    const int N = 3;
    int[M] a;
}
