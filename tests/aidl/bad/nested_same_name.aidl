// SPDX-License-Identifier: MIT
// expect: 5:9: error: nested type 'P' has the same name as its enclosing type
parcelable P {
    parcelable Q {
        enum P { A }
    }
}
