// SPDX-License-Identifier: MIT
// expect: 6:5: error: field 's' of @FixedSize fixed_size_field is not of a fixed size (String)
@FixedSize
parcelable fixed_size_field {
    int a;
    String s;
}
