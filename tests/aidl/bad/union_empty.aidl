// SPDX-License-Identifier: MIT
// expect: 3:1: error: union U has no fields
union U {
}
