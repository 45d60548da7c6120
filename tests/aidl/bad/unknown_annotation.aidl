// SPDX-License-Identifier: MIT
// expect: 3:1: error: annotation @VintfStability is not supported yet
@VintfStability
interface I {
}
