// SPDX-License-Identifier: MIT
// expect: 4:28: error: a default value for a field of type FileDescriptor[] is not supported yet
parcelable P {
    FileDescriptor[] fds = {};
}
