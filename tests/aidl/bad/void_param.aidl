// SPDX-License-Identifier: MIT
// expect: 4:12: error: void is not a valid parameter type
interface I {
    void f(void v);
}
