// SPDX-License-Identifier: MIT
// expect: 5:5: error: a generic parcelable whose fields use its parameters, instantiated in its own declaration is not supported yet
parcelable P<T> {
    T t;
    P<int>[] more;
}
