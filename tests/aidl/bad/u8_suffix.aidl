// SPDX-License-Identifier: MIT
// expect: 4:20: error: a u8 literal must be 0..255
interface I {
    const byte B = 256u8;
}
