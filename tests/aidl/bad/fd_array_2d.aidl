// SPDX-License-Identifier: MIT
// expect: 4:23: error: a multi-dimensional array of binders, file descriptors or parcelables is not supported yet
parcelable P {
    FileDescriptor[2][2] fds;
}
