// SPDX-License-Identifier: MIT
package org.binderc.test;

import android.os.ParcelFileDescriptor;

/* File descriptor fields: each written as a duplicate the parcel owns. */
parcelable Fds {
    FileDescriptor fd;
    ParcelFileDescriptor pfd;
    @nullable ParcelFileDescriptor maybe;
    int after = 9;
}
