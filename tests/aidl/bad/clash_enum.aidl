// SPDX-License-Identifier: MIT
// expect: 4:5: error: 'write' would clash with the generated E_write
enum E {
    write,
    read,
}
