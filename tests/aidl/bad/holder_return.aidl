// SPDX-License-Identifier: MIT
// expect: 4:5: error: ParcelableHolder cannot be a return type
interface I {
    ParcelableHolder get();
}
