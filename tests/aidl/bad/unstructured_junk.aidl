// SPDX-License-Identifier: MIT
// expect: 4:16: error: expected '{' or ';', found 'java_header'
package p;
parcelable Foo java_header "x";
