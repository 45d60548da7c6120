// SPDX-License-Identifier: MIT
package org.binderc.test;

import android.os.ParcelFileDescriptor;
import org.binderc.test.Fds;

interface IFiles {
    ParcelFileDescriptor openFile(String path);
    long sizes(in ParcelFileDescriptor pfd, in FileDescriptor fd, @nullable in ParcelFileDescriptor maybe);
    FileDescriptor dupOf(in FileDescriptor fd);
    Fds swap(in Fds f);
    // out and inout: the fds come back in the reply as ParcelFileDescriptors
    void reopen(out ParcelFileDescriptor fd, inout ParcelFileDescriptor io);
    // FileDescriptor[]: int32 count, then bare fd objects
    FileDescriptor[] dupAll(in FileDescriptor[] fds, in @nullable FileDescriptor[] maybe,
            out FileDescriptor[] outs, inout FileDescriptor[] io);
    int fill(out ParcelFileDescriptor[] fds, inout ParcelFileDescriptor[] io, out ParcelFileDescriptor[2] two);
}
