// SPDX-License-Identifier: MIT
// expect: 3:1: error: 'A__B': a type's C name (A__B) may not contain '__' or end in '_' (reserved for generic instantiations)
parcelable A__B {
    int x;
}
