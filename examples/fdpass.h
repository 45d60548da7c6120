// SPDX-License-Identifier: MIT
/* The interface of the fd-passing example. */
#ifndef FDPASS_H
#define FDPASS_H

#define FDPASS_NAME "fdpass"
#define FDPASS_DESCRIPTOR "org.binderc.example.IFdPass"
#define FDPASS_WRITE_TO 1 /* int writeTo(FileDescriptor fd, String text) */
#define FDPASS_GET_NOTE 2 /* FileDescriptor getNote(): a file to read */

#endif
