// SPDX-License-Identifier: MIT
package org.binderc.examples;

import org.binderc.examples.Greeting;
import org.binderc.examples.IGreeterListener;
import org.binderc.examples.Mood;

/* The greeter example: greeter-service serves it as "greeter". */
interface IGreeter {
    const String SERVICE_NAME = "greeter";

    Greeting greet(String name, Mood mood);
    void subscribe(IGreeterListener listener);
    String[] names();
}
