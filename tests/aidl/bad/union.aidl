// SPDX-License-Identifier: MIT
// expect: 4:1: error: union is not supported yet
package p;
union U { int a; String b; }
