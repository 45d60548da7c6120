/* SPDX-License-Identifier: MIT */
/* Run a program of the build from an RPC host test and take its output. */
#ifndef BINDERC_RPCT_RUN_H
#define BINDERC_RPCT_RUN_H

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

/*
 * Run @path with @args (NULL-ended, after argv[0], at most 22) and
 * return its exit status, with its stdout and stderr together in @out;
 * -1 if it did not exit by itself within TH_HANG_MS (it is killed).
 */
static inline int rpct_run(const char *path, char *out, size_t size, const char *const *args)
{
	const char *argv[24] = { path };
	size_t n = 0, i;
	int p[2], status = -1;
	int64_t end = th_now_ms() + TH_HANG_MS;
	pid_t pid;

	for (i = 0; args[i] && i + 2 < sizeof(argv) / sizeof(argv[0]); i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		dup2(p[1], STDERR_FILENO);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	/* the pipe ends when the program does (it is its only writer) */
	for (;;) {
		ssize_t k = read(p[0], out + n, size - 1 - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
		if (n == size - 1)
			break;
	}
	out[n] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, WNOHANG) == 0 && th_nap_until(end))
		;
	if (!WIFEXITED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		return -1;
	}
	return WEXITSTATUS(status);
}

#endif
