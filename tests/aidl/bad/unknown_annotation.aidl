// SPDX-License-Identifier: MIT
// expect: 3:1: error: unknown annotation @Frobnicate (Android's aidl has none of that name)
@Frobnicate
interface unknown_annotation {
}
