// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Nest;
import org.binderc.test.Nest.Inner;

/* An interface with nested types, using another file's nested types by
 * an import of the nested type (Inner), through its imported outer type
 * (Nest.Kind) and fully qualified (org.binderc.test.Nest.Pick). */
interface IModes {
    enum Mode { OFF, ON = 4 }
    parcelable Req {
        Mode mode = Mode.ON;
        Inner inner;
        Nest.Kind kind = Nest.Kind.B;
    }

    Mode set(Mode m, in Req r, out Inner o, inout org.binderc.test.Nest.Pick p);
    Nest.Kind[] kinds(in IModes.Mode[] modes);
}
