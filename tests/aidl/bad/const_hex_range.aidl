// SPDX-License-Identifier: MIT
// expect: 4:19: error: value 8589934591 is out of range for type int
interface I {
    const int X = 0x1ffffffff;
}
