// SPDX-License-Identifier: MIT
// expect: 4:24: error: unsupported escape sequence in a literal
interface I {
    const String S = "\q";
}
