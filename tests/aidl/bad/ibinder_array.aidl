// SPDX-License-Identifier: MIT
// expect: 4:15: error: IBinder[] is not supported yet
interface I {
    void f(in IBinder[] b);
}
