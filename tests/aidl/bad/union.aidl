// SPDX-License-Identifier: MIT
// expect: 4:29: error: only the first field of a union may have a default (it is the initial value)
package p;
union U { int a; String b = "x"; }
