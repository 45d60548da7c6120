// SPDX-License-Identifier: MIT
// expect: 4:35: error: the size of a fixed-size array must be 1..1048576 (it is 0)
interface I {
    void f(inout @nullable String[0] x);
}
