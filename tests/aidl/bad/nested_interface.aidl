// SPDX-License-Identifier: MIT
// expect: 4:5: error: nested type 'ops' would clash with the generated I_ops
interface I {
    interface ops { void f(); }
    void g();
}
