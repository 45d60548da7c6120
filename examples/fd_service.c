// SPDX-License-Identifier: MIT
/*
 * fd-service: registers "fdpass".  writeTo(fd, text) writes a line into a
 * file descriptor the client sent (the driver installs a copy in this
 * process); getNote() sends back a descriptor of a file made here.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "fdpass.h"

static int on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *data)
{
	char *text = NULL, line[512];
	int fd = -1, r;

	(void)self, (void)txn, (void)data;
	if (code == FDPASS_WRITE_TO) {
		r = bc_parcel_read_fd(in, &fd); /* owned by the parcel: no close */
		if (r == 0)
			r = bc_parcel_read_string16(in, &text, NULL);
		if (r < 0)
			return r;
		snprintf(line, sizeof(line), "fd-service (pid %d) wrote this into your fd: %s\n", (int)getpid(),
			 text ? text : "");
		free(text);
		r = (int)write(fd, line, strlen(line));
		return bc_parcel_write_int32(reply, r < 0 ? -errno : r);
	}
	if (code == FDPASS_GET_NOTE) {
		fd = memfd_create("note", MFD_CLOEXEC);
		if (fd < 0)
			return -errno;
		snprintf(line, sizeof(line), "a note from fd-service, pid %d, read through a passed fd\n",
			 (int)getpid());
		if (write(fd, line, strlen(line)) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
			close(fd);
			return -errno;
		}
		return bc_parcel_write_fd(reply, fd, true); /* closed after sending */
	}
	return -EBADMSG;
}

int main(void)
{
	bc_process *proc = NULL;
	bc_class *cls = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	int r;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_class_new(FDPASS_DESCRIPTOR, on_transact, NULL, BINDERC_CLASS_ENFORCE_INTERFACE, &cls);
	if (r == 0)
		r = bc_binder_new(cls, NULL, &obj);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, FDPASS_NAME, obj, 0, 0);
	if (r < 0) {
		fprintf(stderr, "fd-service: %s\n", strerror(-r));
		return 1;
	}
	printf("fd-service: registered '%s'\n", FDPASS_NAME);
	fflush(stdout);
	return bc_process_join(proc) < 0;
}
