// SPDX-License-Identifier: MIT
// expect: 4:12: error: oneway method 'f' cannot have out parameters
oneway interface I {
    void f(out int[] a);
}
