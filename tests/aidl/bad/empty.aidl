// SPDX-License-Identifier: MIT
// expect: 4:1: error: no type declared in this file
// nothing here
