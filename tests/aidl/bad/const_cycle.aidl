// SPDX-License-Identifier: MIT
// expect: 4:5: error: constant 'A' is defined in terms of itself
interface I {
    const int A = B + 1;
    const int B = A;
}
