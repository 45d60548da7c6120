// SPDX-License-Identifier: MIT
// expect: 4:5: error: FileDescriptor is not supported yet
interface I {
    FileDescriptor f();
}
