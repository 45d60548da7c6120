// SPDX-License-Identifier: MIT
// expect: 5:15: error: an array of interfaces (ICallback[]) is not supported yet
import org.binderc.test.ICallback;
interface I {
    void f(in ICallback[] cbs);
}
