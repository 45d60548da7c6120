// SPDX-License-Identifier: MIT
// expect: 4:19: error: oneway method 'f' cannot have out parameters
interface I {
    oneway void f(inout @nullable int[3] x);
}
