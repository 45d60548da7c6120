// SPDX-License-Identifier: MIT
// expect: 5:5: error: field 'ext' of @FixedSize P is not of a fixed size (ParcelableHolder)
@FixedSize
parcelable P {
    ParcelableHolder ext;
}
