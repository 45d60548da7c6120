// SPDX-License-Identifier: MIT
// expect: 4:28: error: the default of 'fds' (FileDescriptor[]) can only be {}: no constant has its element type
parcelable P {
    FileDescriptor[] fds = { 0 };
}
