// SPDX-License-Identifier: MIT
// expect: 8:15: error: unknown constant 'U.Tag.c'
parcelable union_tag_unknown {
    union U {
        int a;
        String b;
    }
    U.Tag t = U.Tag.c;
}
