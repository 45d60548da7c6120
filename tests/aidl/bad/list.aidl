// SPDX-License-Identifier: MIT
// expect: 4:15: error: List<> is not supported yet
interface I {
    void f(in List<String> l);
}
