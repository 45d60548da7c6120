// SPDX-License-Identifier: MIT
// expect: 5:5: error: enumerator 'B' overflows the backing type byte
enum E {
    A = 127,
    B,
}
