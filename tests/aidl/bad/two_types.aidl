// SPDX-License-Identifier: MIT
// expect: 5:1: error: only one type may be declared per file
interface I {
}
interface J {
}
