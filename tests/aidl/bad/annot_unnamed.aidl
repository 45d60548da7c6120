// SPDX-License-Identifier: MIT
// expect: 3:10: error: unknown parameter 'value' of @Backing
@Backing("int")
enum annot_unnamed {
    A,
}
