// SPDX-License-Identifier: MIT
// expect: 4:20: error: value 300 is out of range for type byte
interface I {
    const byte B = 300;
}
