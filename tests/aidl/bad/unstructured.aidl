// SPDX-License-Identifier: MIT
// expect: 4:1: error: unstructured parcelable Foo has no C form: its wire format is defined by hand-written code, which bc-aidl cannot read; declare it as a structured parcelable with the same fields
package p;
parcelable Foo;
