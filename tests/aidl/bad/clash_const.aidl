// SPDX-License-Identifier: MIT
// expect: 4:5: error: 'CODE_f' would clash with the generated I_CODE_f
interface I {
    const int CODE_f = 1;
    void f();
}
