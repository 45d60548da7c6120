// SPDX-License-Identifier: MIT
// expect: 4:14: error: unexpected character '#'
interface IFoo {
    void f() # ;
}
