// SPDX-License-Identifier: MIT
// expect: 3:1: error: invalid backing type "short" (byte, int or long)
@Backing(type="short")
enum E { A }
