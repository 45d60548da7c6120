// SPDX-License-Identifier: MIT
// expect: 4:19: error: a default value for a field of type IBinder[] is not supported yet
parcelable P {
    IBinder[] b = {};
}
