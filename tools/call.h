/* SPDX-License-Identifier: MIT */
/*
 * What the binder tool's commands share (binder.c): the exit statuses,
 * the connection to a device's service manager, and a call on an object
 * with its arguments from the command line and its reply printed --
 * `binder call` on a registered service, `binder rpc call` on an RPC
 * server's root.
 */
#ifndef BINDER_TOOL_CALL_H
#define BINDER_TOOL_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

enum { EXIT_NOTFOUND = 1, EXIT_USAGE = 2, EXIT_UNREACHABLE = 3 };

struct ctx {
	const char *device;
	int dialect;
	bc_process *proc;
	bc_sm *sm;
};

/* Print "binder: " @fmt (with @arg) and the --help hint: EXIT_USAGE. */
int binder_usage_error(const char *fmt, const char *arg);
/* Open the device and its service manager: 0 or the exit status (the
 * reason printed). */
int binder_connect_sm(struct ctx *c);
/* Look @name up: 0 or the exit status (the reason printed). */
int binder_find(struct ctx *c, const char *name, bc_binder **ret);
/* A failed call's status in words. */
const char *binder_call_error(int r);
/* A transaction code: a number, or 4 characters such as _PNG. */
int binder_parse_code(const char *s, uint32_t *ret);
/* The options before a call's target (--oneway, --no-token, and
 * --plain-tcp if @plain_tcp): how many there were, or -EXIT_USAGE. */
int binder_call_options(int argc, char **argv, bool *oneway, bool *token, bool *plain_tcp);
/* Call @code on @b (@what names it in messages), with the interface
 * token first if @token and the ARGs of `binder call`; print the reply.
 * 0 or the exit status. */
int binder_call_object(bc_binder *b, const char *what, bool oneway, bool token, uint32_t code, int argc,
		       char **argv);

#endif
