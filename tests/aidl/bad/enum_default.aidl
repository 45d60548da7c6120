// SPDX-License-Identifier: MIT
// expect: 5:15: error: the default of an enum field must be one of Color's enumerators (Color.NAME)
import org.binderc.test.Color;
parcelable P {
    Color c = 3;
}
