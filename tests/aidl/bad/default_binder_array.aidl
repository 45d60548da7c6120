// SPDX-License-Identifier: MIT
// expect: 4:19: error: the default of 'b' (IBinder[]) can only be {}: no constant has its element type
parcelable P {
    IBinder[] b = { 1 };
}
