// SPDX-License-Identifier: MIT
// expect: 4:23: error: shift count 64 is out of range
interface I {
    const long X = 1L << 64;
}
