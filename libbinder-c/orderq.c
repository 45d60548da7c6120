/* SPDX-License-Identifier: MIT */
/*
 * The ordered command queue of a process: death and frozen-state
 * notification requests and clears, whose order the driver must see as the
 * library made them (a clear overtaking its request fails, and leaves the
 * driver with a registration the library thinks gone).
 *
 * Commands are appended under obj_mu, in the same critical section as the
 * state change they reflect, so their order is the order of the changes.
 * One thread at a time writes them out (oq_flushing), without obj_mu: it
 * swaps the filled buffer for an empty one and writes what it took, then
 * looks again.  A thread that finds another one writing leaves its
 * commands to it, so nobody waits for a system call unless it asked to
 * (bc__oq_flush's @wait_for: a freeze request, whose refusal is reported).
 *
 * Each command is written by itself: the driver stops at a command it
 * refuses, and the one refusal that has a meaning (an unknown freeze
 * request on a driver before Linux 6.12) must be told to its proxy.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

int bc__oq_init(bc_process *proc)
{
	proc->oq = malloc(BINDERC_OQ_SIZE);
	proc->oq_spare = malloc(BINDERC_OQ_SIZE);
	if (!proc->oq || !proc->oq_spare) {
		bc__oq_fini(proc);
		return -ENOMEM;
	}
	return 0;
}

void bc__oq_fini(bc_process *proc)
{
	free(proc->oq);
	free(proc->oq_spare);
	proc->oq = proc->oq_spare = NULL;
}

void bc__oq_reserve_locked(bc_process *proc, unsigned n)
{
	/* Full only while a writer holds the other buffer (whoever appended
	 * flushes after unlocking): its swap makes room. */
	while (BINDERC_OQ_SIZE - proc->oq_len < n * BINDERC_OQ_CMD_MAX)
		pthread_cond_wait(&proc->obj_cv, &proc->obj_mu);
}

uint64_t bc__oq_append_locked(bc_process *proc, uint32_t cmd, const void *payload, size_t len)
{
	memcpy(proc->oq + proc->oq_len, &cmd, 4);
	memcpy(proc->oq + proc->oq_len + 4, payload, len);
	proc->oq_len += 4 + len;
	return ++proc->oq_seq;
}

/* Write @len bytes of commands numbered from @first, one by one. */
static void write_each(bc_process *proc, const uint8_t *buf, size_t len, uint64_t first)
{
	for (size_t pos = 0; pos < len; first++) {
		uint32_t cmd;
		size_t size;
		int r;

		memcpy(&cmd, buf + pos, 4);
		size = 4 + _IOC_SIZE(cmd);
		r = bc__write(proc, buf + pos, size);
		if (r < 0 && cmd == BC_REQUEST_FREEZE_NOTIFICATION) {
			struct binder_handle_cookie hc;

			memcpy(&hc, buf + pos + 4, sizeof(hc));
			bc__proxy_freeze_refused(proc, (uintptr_t)hc.cookie, first, r);
		} else if (r < 0) {
			bc__log("ordered command %#x failed: %d", cmd, r);
		}
		pos += size;
	}
}

void bc__oq_flush(bc_process *proc, uint64_t wait_for)
{
	pthread_mutex_lock(&proc->obj_mu);
	for (;;) {
		uint8_t *buf;
		size_t len;
		uint64_t first, last;

		if (proc->oq_flushing) {
			/* The writer takes what we appended before it looks
			 * again. */
			if (proc->oq_done >= wait_for)
				break;
			pthread_cond_wait(&proc->obj_cv, &proc->obj_mu);
			continue;
		}
		if (!proc->oq_len)
			break;
		buf = proc->oq;
		len = proc->oq_len;
		first = proc->oq_done + 1;
		last = proc->oq_seq;
		proc->oq = proc->oq_spare;
		proc->oq_spare = buf;
		proc->oq_len = 0;
		proc->oq_flushing = true;
		/* room again for appenders waiting in bc__oq_reserve_locked() */
		pthread_cond_broadcast(&proc->obj_cv);
		pthread_mutex_unlock(&proc->obj_mu);
		write_each(proc, buf, len, first);
		pthread_mutex_lock(&proc->obj_mu);
		proc->oq_done = last;
		proc->oq_flushing = false;
		pthread_cond_broadcast(&proc->obj_cv);
	}
	pthread_mutex_unlock(&proc->obj_mu);
}
