// SPDX-License-Identifier: MIT
// expect: 5:5: error: nested type 'E' would clash with the generated I_E
interface I {
    const int E = 1;
    enum E { A }
}
