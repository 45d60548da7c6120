// SPDX-License-Identifier: MIT
// expect: 4:25: error: a @nullable array of binders is not supported yet
interface I {
    void f(in @nullable IBinder[] b);
}
