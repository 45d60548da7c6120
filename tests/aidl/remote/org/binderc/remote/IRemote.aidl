// SPDX-License-Identifier: MIT
package org.binderc.remote;

import android.os.ParcelFileDescriptor;
import org.binderc.remote.IListener;

/* The guest test's service (tests/aidl/guest_remote.c): every kind of
 * value bc-aidl compiles, across processes. */
interface IRemote {
    enum Kind { ONE = 1, TWO }

    /* a nested parcelable with a fixed-size array and a nullable field */
    parcelable Box {
        int[2] pair;
        @nullable String label;
        Kind kind = Kind.TWO;
        long[] more;
    }

    /* a nested interface: objects the service makes for the client */
    interface ICounter {
        int next();
    }

    /* fds: a pipe made by the service, and fds read by the service */
    ParcelFileDescriptor openPipe(String text);
    String readFds(in ParcelFileDescriptor pfd, in FileDescriptor fd, @nullable in ParcelFileDescriptor maybe);
    /* nullable values, null and not */
    @nullable String maybe(@nullable String s, in @nullable int[] a, @nullable in Box b);
    @nullable Box maybeBox(boolean give);
    /* dynamic arrays in, out, inout; fixed-size arrays */
    long[] arrays(in int[] a, out int[] b, inout String[] c);
    int[3] fixed(in int[3] v, in byte[2] tag);
    Box swap(in Box b, out Box c);
    /* callbacks: an interface passed as an argument */
    int callBack(IListener l, int n);
    oneway void ping(IListener l, int n);
    ICounter counter(int start);
    /* the service's pid, and a one-way request that it exit */
    int pid();
    oneway void quit(int status);
}
