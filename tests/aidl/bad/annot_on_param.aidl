// SPDX-License-Identifier: MIT
// expect: 4:12: error: @SensitiveData cannot be used on a type
interface annot_on_param {
    void f(@SensitiveData in String s);
}
