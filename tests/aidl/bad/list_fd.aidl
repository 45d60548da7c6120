// SPDX-License-Identifier: MIT
// expect: 4:19: error: List<FileDescriptor> is not supported. List<T> supports interface/parcelable/union, String, IBinder, and ParcelFileDescriptor.
interface I {
    void f(in List<FileDescriptor> l);
}
