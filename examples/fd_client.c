// SPDX-License-Identifier: MIT
/*
 * fd-client: sends its own stdout to "fdpass" for the service to write
 * into, then asks for a file descriptor back and prints what it reads.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/servicemanager.h>

#include "fdpass.h"

static int call(bc_binder *svc, uint32_t code, int fd, bc_parcel **reply)
{
	bc_parcel *req = NULL;
	int r = bc_binder_new_parcel(svc, &req);

	if (r == 0)
		r = bc_parcel_write_interface_token(req, FDPASS_DESCRIPTOR);
	if (r == 0 && fd >= 0)
		r = bc_parcel_write_fd(req, fd, false); /* we keep ours */
	if (r == 0 && fd >= 0)
		r = bc_parcel_write_string16(req, "hello through a file descriptor");
	if (r == 0)
		r = bc_binder_transact(svc, code, req, reply, 0, NULL);
	bc_parcel_unref(req);
	return r;
}

int main(void)
{
	bc_process *proc = NULL;
	bc_sm *sm = NULL;
	bc_binder *svc = NULL;
	bc_parcel *reply = NULL;
	char buf[256];
	int32_t written = 0;
	int fd = -1, r;
	ssize_t n;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, FDPASS_NAME, &svc);
	fflush(stdout);
	if (r == 0)
		r = call(svc, FDPASS_WRITE_TO, STDOUT_FILENO, &reply);
	if (r == 0)
		r = bc_parcel_read_int32(reply, &written);
	reply = bc_parcel_unref(reply);
	if (r == 0)
		r = call(svc, FDPASS_GET_NOTE, -1, &reply);
	if (r == 0)
		r = bc_parcel_read_dup_fd(reply, &fd); /* ours to keep and close */
	if (r < 0) {
		fprintf(stderr, "fd-client: %s\n", strerror(-r));
		return 1;
	}
	printf("fd-client: the service wrote %d bytes into my stdout\n", written);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	printf("fd-client: read from the fd it sent back: %s", buf);
	close(fd);
	bc_parcel_unref(reply);
	bc_binder_unref(svc);
	bc_sm_unref(sm);
	bc_process_unref(proc);
	return 0;
}
