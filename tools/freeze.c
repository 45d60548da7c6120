// SPDX-License-Identifier: MIT
/*
 * `binder freeze`, `binder thaw` and `binder frozen`: the driver's
 * BINDER_FREEZE and BINDER_GET_FROZEN_INFO from the shell, for people
 * who freeze containers or apps (as Android's activity manager does
 * before it stops a cgroup) and want binder to agree.
 *
 * A freeze fails with EAGAIN while the process still has synchronous
 * calls in progress after the timeout: the driver refuses to freeze a
 * process that another one is waiting on, and thaws it again.  binderc
 * also refuses (EPERM) to freeze a process of another user or another
 * binder context; mainline only checks that the caller may open the
 * device.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <uapi/binder.h>

#include <binderc/process.h>

#include "freeze.h"

enum { EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_UNREACHABLE = 3 };

static int usage_error(const char *prog, const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\nTry 'binder --help'.\n", prog, what, arg);
	return EXIT_USAGE;
}

static bool parse_u32(const char *s, uint32_t *ret)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v > UINT32_MAX)
		return false;
	*ret = (uint32_t)v;
	return true;
}

static const char *freeze_error(int err)
{
	switch (err) {
	case EAGAIN:
		return "it still serves or waits on synchronous calls (try a longer --timeout)";
	case EINVAL:
		return "no process with binder open on this device has that pid";
	case EPERM:
		return "not yours: another user's process or another binder context";
	default:
		return strerror(err);
	}
}

static int one(const char *prog, int fd, const char *cmd, uint32_t pid, uint32_t timeout_ms)
{
	if (strcmp(cmd, "frozen") == 0) {
		struct binder_frozen_status_info st = { .pid = pid };

		if (ioctl(fd, BINDER_GET_FROZEN_INFO, &st) < 0) {
			fprintf(stderr, "%s: pid %u: %s\n", prog, pid, freeze_error(errno));
			return EXIT_FAILED;
		}
		/* Bit 1 of sync_recv (Linux 6.1+): a call is still pending. */
		printf("%u: calls received while frozen: %s, oneway: %s%s\n", pid,
		       st.sync_recv & 1 ? "yes" : "no", st.async_recv ? "yes" : "no",
		       st.sync_recv & 2 ? " (a call is in progress)" : "");
		return 0;
	}
	struct binder_freeze_info info = {
		.pid = pid,
		.enable = strcmp(cmd, "freeze") == 0,
		.timeout_ms = timeout_ms,
	};

	if (ioctl(fd, BINDER_FREEZE, &info) < 0) {
		fprintf(stderr, "%s: %s %u: %s\n", prog, cmd, pid, freeze_error(errno));
		return EXIT_FAILED;
	}
	return 0;
}

int binder_freeze(const char *prog, const char *device, const char *cmd, int argc, char **argv)
{
	uint32_t timeout_ms = 0, pid;
	bc_process *proc;
	int i = 0, r, status = 0;

	if (strcmp(cmd, "freeze") == 0 && argc >= 2 && strcmp(argv[0], "--timeout") == 0) {
		if (!parse_u32(argv[1], &timeout_ms))
			return usage_error(prog, "bad timeout (milliseconds)", argv[1]);
		i = 2;
	}
	if (i >= argc)
		return usage_error(prog, "no pid for", cmd);
	for (int k = i; k < argc; k++)
		if (!parse_u32(argv[k], &pid) || pid == 0)
			return usage_error(prog, "not a pid:", argv[k]);
	r = bc_process_open(device, &proc);
	if (r < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", prog, device ? device : "the binder device",
			strerror(-r));
		return EXIT_UNREACHABLE;
	}
	for (; i < argc; i++) {
		parse_u32(argv[i], &pid);
		if (one(prog, bc_process_get_fd(proc), cmd, pid, timeout_ms))
			status = EXIT_FAILED;
	}
	bc_process_unref(proc);
	return status;
}
