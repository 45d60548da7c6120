// SPDX-License-Identifier: MIT
// expect: 4:15: error: FileDescriptor[] is not supported yet
interface I {
    void f(in FileDescriptor[] fds);
}
