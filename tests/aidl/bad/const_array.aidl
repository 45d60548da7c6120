// SPDX-License-Identifier: MIT
// expect: 4:11: error: Constant of type int[] is not supported.
interface I {
    const int[] A = {1, 2};
}
