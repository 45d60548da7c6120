// SPDX-License-Identifier: MIT
// expect: 4:28: error: a default value for a field of type ParcelableHolder is not supported yet
parcelable P {
    ParcelableHolder ext = 1;
}
