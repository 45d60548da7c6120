// SPDX-License-Identifier: MIT
// expect: 3:1: error: @FixedSize cannot be used on an interface
@FixedSize
interface annot_context {
}
