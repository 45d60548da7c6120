// SPDX-License-Identifier: MIT
// expect: 4:15: error: ParcelFileDescriptor[] is not supported yet
interface I {
    void f(in ParcelFileDescriptor[] fds);
}
