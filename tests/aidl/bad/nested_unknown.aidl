// SPDX-License-Identifier: MIT
// expect: 5:5: error: unknown type P.Missing (not declared, imported or found with -I)
parcelable P {
    parcelable Inner { int x; }
    P.Missing m;
}
