// SPDX-License-Identifier: MIT
// expect: 4:12: error: 'register' cannot be used as a name: it is reserved in the generated C
interface I {
    void f(int register);
}
