// SPDX-License-Identifier: MIT
// expect: 4:22: error: unterminated string literal
interface I {
    const String S = "open;
}
