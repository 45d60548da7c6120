// SPDX-License-Identifier: MIT
// Imported by bad.c's aidl_bad::unstructured_import: the error names this file.
package p;
parcelable Opaque ndk_header "aidl/p/Opaque.h";
