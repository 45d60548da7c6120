// SPDX-License-Identifier: MIT
package org.binderc.examples;

import org.binderc.examples.Mood;

parcelable Greeting {
    String text;
    int count;
    Mood mood = Mood.CHEERFUL;
}
