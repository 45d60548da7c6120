// SPDX-License-Identifier: MIT
// expect: 3:1: error: @Descriptor needs a value: @Descriptor(value=...)
@Descriptor
interface annot_missing {
}
