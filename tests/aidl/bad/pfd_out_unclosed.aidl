// SPDX-License-Identifier: MIT
// expect: 4:36: error: expected a parameter name, found ')'
interface I {
    void f(out ParcelFileDescriptor);
}
