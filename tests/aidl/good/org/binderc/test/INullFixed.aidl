// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Point;

// @nullable out and inout T[N] (Android's std::optional<std::array<T, N>>):
// an out one is not in the request and its stub starts it null; an inout
// one is sent as a @nullable in T[N] (int32 -1, or T[N]); both come back
// as null or exactly N elements.
interface INullFixed {
    void ints(out @nullable int[3] o, inout @nullable long[2] io);
    void strs(out @nullable String[2] o, inout @nullable @utf8InCpp String[1] io);
    void points(out @nullable Point[2] o, inout @nullable Point[1] io);
    void bytes(inout @nullable byte[2] io);
}
