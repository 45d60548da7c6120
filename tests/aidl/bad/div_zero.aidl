// SPDX-License-Identifier: MIT
// expect: 4:22: error: division by zero in a constant expression
interface I {
    const int X = 10 / (5 - 5);
}
