// SPDX-License-Identifier: MIT
// expect: 4:9: error: List<ParcelableHolder> is not supported. List<T> supports interface/parcelable/union, String, IBinder, and ParcelFileDescriptor.
parcelable P {
    List<ParcelableHolder> ext;
}
