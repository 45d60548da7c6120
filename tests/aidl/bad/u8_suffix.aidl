// SPDX-License-Identifier: MIT
// expect: 4:20: error: the u8 literal suffix is not supported yet
interface I {
    const byte B = 1u8;
}
