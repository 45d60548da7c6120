// SPDX-License-Identifier: MIT
// expect: 4:12: error: nested type 'CODE' would clash with the generated I_CODE
interface I {
    oneway interface CODE { void f(); }
    void g();
}
