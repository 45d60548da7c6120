// SPDX-License-Identifier: MIT
package org.binderc.test;

/* Nested types (Android 13+): declared inside the parcelable, named by
 * their simple name here and Nest.Inner elsewhere. */
parcelable Nest {
    const int LIMIT = Inner.MAX + 1;

    parcelable Inner {
        const int MAX = 9;
        int x = 7;
        String s;
        Kind k = Kind.B;
    }
    enum Kind { A = 1, B }
    @Backing(type="int") enum Wide { P = 100, Q }
    union Pick {
        int n;
        Inner inner;
        Nest[] nests;
    }

    Inner inner;
    Kind kind = Kind.A;
    Nest.Inner[] many;
    Pick pick;
    Wide wide = Wide.Q;
    @nullable Nest next;
}
