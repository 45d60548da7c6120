// SPDX-License-Identifier: MIT
// expect: 4:26: error: expected a header name (a string literal), found ';'
package p;
parcelable Foo cpp_header;
