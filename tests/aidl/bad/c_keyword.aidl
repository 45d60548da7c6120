// SPDX-License-Identifier: MIT
// expect: 4:5: error: 'register' cannot be used as a name: it is reserved in the generated C
interface I {
    const int register = 1;
}
