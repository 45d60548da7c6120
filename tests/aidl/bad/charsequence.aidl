// SPDX-License-Identifier: MIT
// expect: 4:12: error: Currently, only Java backend supports CharSequence.
interface I {
    void f(CharSequence s);
}
