// SPDX-License-Identifier: MIT
// expect: 4:17: error: ParcelableHolder cannot be an argument type
interface I {
    void set(in ParcelableHolder h);
}
