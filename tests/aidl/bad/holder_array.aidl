// SPDX-License-Identifier: MIT
// expect: 4:5: error: Arrays of ParcelableHolder are not supported.
parcelable P {
    ParcelableHolder[] ext;
}
