// SPDX-License-Identifier: MIT
/* The interface of the hello example, shared by service and client. */
#ifndef HELLO_H
#define HELLO_H

#define HELLO_NAME "hello"			   /* name in the service manager */
#define HELLO_DESCRIPTOR "org.binderc.example.IHello" /* interface token */
#define HELLO_SAY_HELLO 1			   /* String sayHello(String name) */

#endif
