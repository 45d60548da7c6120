// SPDX-License-Identifier: MIT
// FileDescriptor[] as fields: plain, @nullable, fixed-size.
package org.binderc.test;

parcelable FdBag {
    FileDescriptor[] fds;
    @nullable FileDescriptor[] maybe;
    FileDescriptor[2] two;
}
