// SPDX-License-Identifier: MIT
// expect: 4:5: error: unterminated comment
interface IFoo {
    /* never closed
}
