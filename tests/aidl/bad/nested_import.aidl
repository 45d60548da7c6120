// SPDX-License-Identifier: MIT
// expect: 4:1: error: couldn't find import for class org.binderc.test.Nest.Missing (search path: -I)
package org.binderc.test;
import org.binderc.test.Nest.Missing;
interface nested_import { void f(in Missing m); }
