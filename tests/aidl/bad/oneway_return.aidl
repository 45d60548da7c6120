// SPDX-License-Identifier: MIT
// expect: 4:12: error: oneway method 'f' cannot return a value
interface I {
    oneway int f();
}
