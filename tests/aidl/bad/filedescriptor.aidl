// SPDX-License-Identifier: MIT
// expect: 4:12: error: 'FileDescriptor fd' can only be an in parameter
interface I {
    void f(inout FileDescriptor fd);
}
