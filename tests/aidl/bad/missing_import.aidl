// SPDX-License-Identifier: MIT
// expect: 4:1: error: couldn't find import for class a.b.Missing (search path: -I)
package p;
import a.b.Missing;
interface I {
}
