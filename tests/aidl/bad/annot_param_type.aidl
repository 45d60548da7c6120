// SPDX-License-Identifier: MIT
// expect: 3:35: error: @UnsupportedAppUsage(maxTargetSdk=...) takes an integer
@UnsupportedAppUsage(maxTargetSdk="30")
interface annot_param_type {
}
