// SPDX-License-Identifier: MIT
package org.binderc.test;

import org.binderc.test.Value;

/* Android's implicit enum U.Tag of a union U (int-backed: the field's
 * index), as audio's effect HAL uses it: a field with a default, an
 * array, and the member type of a union (its own Tag too). */
parcelable ValueKinds {
    Value.Tag kind = Value.Tag.point;
    Value.Tag[] kinds;
    Id id;

    union Id {
        int vendor;
        Value.Tag common;
        ValueKinds.Id.Tag own;
    }
}
