// SPDX-License-Identifier: MIT
// expect: 4:26: error: @nullable cannot be used on int (only on String, IBinder, ParcelFileDescriptor, interfaces and arrays)
interface I {
    void f(out @nullable int x);
}
