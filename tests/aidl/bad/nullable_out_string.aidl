// SPDX-License-Identifier: MIT
// expect: 4:12: error: 'String s' can only be an in parameter
interface I {
    void f(inout @nullable String s);
}
