// SPDX-License-Identifier: MIT
// expect: 4:1: error: unstructured parcelable Foo has no C form: its wire format is defined by hand-written code in "aidl/p/Foo.h", which bc-aidl cannot read; declare it as a structured parcelable with the same fields
package p;
parcelable Foo cpp_header "p/Foo.h" ndk_header "aidl/p/Foo.h";
