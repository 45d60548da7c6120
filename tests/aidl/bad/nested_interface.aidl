// SPDX-License-Identifier: MIT
// expect: 4:5: error: a nested interface is not supported yet
parcelable P {
    interface IInner { void f(); }
    int x;
}
