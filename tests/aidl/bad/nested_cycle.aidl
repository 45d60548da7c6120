// SPDX-License-Identifier: MIT
// expect: 5:9: error: parcelable P cannot contain itself (field 'p' of P.Inner holds it by value)
parcelable P {
    parcelable Inner {
        P p;
    }
    Inner inner;
}
