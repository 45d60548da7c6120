// SPDX-License-Identifier: MIT
// expect: 4:27: error: expected ')', found ','
interface annot_unnamed_more {
    @EnforcePermission("A", anyOf={"B"})
    void f();
}
