// SPDX-License-Identifier: MIT
// expect: 3:1: error: enum E has no enumerators
enum E {
}
