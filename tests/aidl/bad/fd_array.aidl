// SPDX-License-Identifier: MIT
// expect: 4:12: error: 'FileDescriptor[] fds' can be an out type, so you must declare it as in, out or inout
interface I {
    void f(FileDescriptor[] fds);
}
