// SPDX-License-Identifier: MIT
// expect: 4:12: error: annotation @nullable is not supported yet
interface I {
    void f(@nullable String s);
}
