/* SPDX-License-Identifier: MIT */
/*
 * guest.h: helpers for the Criterion wrappers of the fuzzer, the stress and
 * the fault-injection runs (tests/fuzz, tests/stress): run a sibling program
 * of this test binary with a bounded wait, and keep the kernel console quiet
 * while drivers log user errors by the thousand (serial output under TCG
 * slows every printk'ing ioctl down and can stall the guest).  The kernel
 * log itself is untouched: run-guest still reads all of it afterwards.
 */
#ifndef BINDERC_TESTS_FUZZ_GUEST_H
#define BINDERC_TESTS_FUZZ_GUEST_H

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fz.h"

static inline void fzg_write_file(const char *path, const char *val, char *old, size_t oldlen)
{
	int fd = open(path, O_RDWR);

	if (fd < 0)
		return;
	if (old && oldlen) {
		ssize_t n = read(fd, old, oldlen - 1);

		old[n > 0 ? n : 0] = 0;
		lseek(fd, 0, SEEK_SET);
	}
	if (write(fd, val, strlen(val)) < 0) {
		/* best effort */
	}
	close(fd);
}

struct fzg_quiet {
	char printk[64];
	char mask[32];
};

/* Console loglevel 1 (emergencies only), mainline binder's user-error
 * logging off; fzg_loud() restores both. */
static inline void fzg_quiet(struct fzg_quiet *q)
{
	fzg_write_file("/proc/sys/kernel/printk", "1", q->printk, sizeof(q->printk));
	fzg_write_file("/sys/module/binder_linux/parameters/debug_mask", "0", q->mask, sizeof(q->mask));
}

static inline void fzg_loud(const struct fzg_quiet *q)
{
	char lvl[16];

	if (sscanf(q->printk, "%15s", lvl) == 1)
		fzg_write_file("/proc/sys/kernel/printk", lvl, NULL, 0);
	if (q->mask[0])
		fzg_write_file("/sys/module/binder_linux/parameters/debug_mask", q->mask, NULL, 0);
}

/* path of a program next to this binary */
static inline void fzg_sibling(const char *name, char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = 0;
	snprintf(out, len, "%s/%s", dirname(self), name);
}

/*
 * Run argv (argv[0] a sibling program name) with extra "NAME=VALUE" env
 * entries (NULL-terminated, may be NULL); SIGKILL after timeout_s.  Returns
 * the exit status, 128 + signal, or -1 on timeout.
 */
static inline int fzg_run(char *const argv[], char *const env[], int timeout_s)
{
	char prog[PATH_MAX];
	pid_t pid;
	int ret;

	fzg_sibling(argv[0], prog, sizeof(prog));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -2;
	if (pid == 0) {
		/* We run inside a Criterion worker: a Criterion binary started
		 * with its BXFI_MAP would take itself for that worker and abort
		 * (exit 134) before running a test. */
		unsetenv("BXFI_MAP");
		for (int i = 0; env && env[i]; i++)
			putenv(env[i]);
		setpgid(0, 0);
		execv(prog, argv);
		fprintf(stderr, "exec %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	ret = th_wait(pid, timeout_s * 1000);
	if (ret == -ETIMEDOUT) {
		fprintf(stderr, "%s: still running after %d s: killed\n", argv[0], timeout_s);
		kill(-pid, SIGKILL);
		th_kill(pid);
		return -1;
	}
	return ret;
}

#endif
