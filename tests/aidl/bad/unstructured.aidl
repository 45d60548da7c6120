// SPDX-License-Identifier: MIT
// expect: 4:1: error: an unstructured parcelable (a parcelable without a body) is not supported yet
package p;
parcelable Foo;
