// SPDX-License-Identifier: MIT
// expect: 3:13: error: unknown parameter 'hashCode' of @JavaDerive
@JavaDerive(hashCode=true)
parcelable annot_param {
}
