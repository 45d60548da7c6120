// SPDX-License-Identifier: MIT
// expect: 5:5: error: type 'E' is declared twice in I
interface I {
    enum E { A }
    parcelable E { int x; }
}
