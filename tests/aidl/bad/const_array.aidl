// SPDX-License-Identifier: MIT
// expect: 4:21: error: an array constant is not supported yet
interface I {
    const int[] A = {1, 2};
}
