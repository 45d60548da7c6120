// SPDX-License-Identifier: MIT
// expect: 4:15: error: ParcelableHolder cannot be nullable.
parcelable P {
    @nullable ParcelableHolder ext;
}
