// SPDX-License-Identifier: MIT
// expect: 5:15: error: A generic type cannot have any primitive type parameters.
import org.binderc.test.Color;
interface I {
    void f(in List<Color> l);
}
