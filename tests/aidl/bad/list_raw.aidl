// SPDX-License-Identifier: MIT
// expect: 4:15: error: Currently, only the Java backend supports non-generic List.
interface I {
    void f(in List l);
}
