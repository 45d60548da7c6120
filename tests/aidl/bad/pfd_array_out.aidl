// SPDX-License-Identifier: MIT
// expect: 4:12: error: an out or inout file descriptor is not supported yet
interface I {
    void f(out ParcelFileDescriptor[] fds);
}
