// SPDX-License-Identifier: MIT
// expect: 5:15: error: vintf_uses is @VintfStability but uses org.binderc.test.Point, which is not
@VintfStability
interface vintf_uses {
    void f(in org.binderc.test.Point p);
}
