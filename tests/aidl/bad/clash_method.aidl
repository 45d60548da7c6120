// SPDX-License-Identifier: MIT
// expect: 4:5: error: 'dispatch' would clash with the generated I_dispatch
interface I {
    void dispatch();
}
