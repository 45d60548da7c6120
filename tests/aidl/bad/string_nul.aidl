// SPDX-License-Identifier: MIT
// expect: 4:22: error: a string constant containing NUL is not supported yet
interface I {
    const String S = "a\0b";
}
