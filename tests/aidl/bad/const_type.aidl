// SPDX-License-Identifier: MIT
// expect: 4:19: error: expected an integer constant for type int
interface I {
    const int S = "text";
}
