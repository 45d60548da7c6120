// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.ICallback;

/* Binder fields: IBinder and an interface. */
parcelable Holder {
    IBinder token;
    ICallback callback;
    int tag = 42;
    IBinder[] more;
    ICallback[] callbacks;
}
