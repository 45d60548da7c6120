// SPDX-License-Identifier: MIT
// expect: 4:12: error: expected 'interface' after 'oneway', found 'parcelable'
parcelable P {
    oneway parcelable Q { int x; }
}
