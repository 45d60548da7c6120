// SPDX-License-Identifier: MIT
// expect: 4:23: error: @utf8InCpp can only be used on String and String[]
interface I {
    void f(@utf8InCpp int x);
}
