// SPDX-License-Identifier: MIT
// expect: 4:12: error: CharSequence is not supported yet
interface I {
    void f(CharSequence s);
}
