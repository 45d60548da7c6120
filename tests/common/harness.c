/* SPDX-License-Identifier: MIT */
/* The shared test harness: child processes and the Criterion main (harness.h). */
#include "harness.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

pid_t th_fork(void)
{
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* the parent died before prctl: nobody would reap us */
		if (getppid() != parent)
			_exit(98);
	}
	return pid;
}

static int th_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int th_wait(pid_t pid, int timeout_ms)
{
	int64_t deadline = th_now_ms() + timeout_ms;
	useconds_t nap = 1000;
	int st;

	if (pid <= 0)
		return -ECHILD;
	if (timeout_ms < 0) {
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				return -errno;
		return th_status(st);
	}
	/* Polled, so that a hung child cannot hang the test: quick at first
	 * (most children are already done), then every 50 ms at most. */
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			return th_status(st);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (th_now_ms() > deadline)
			return -ETIMEDOUT;
		usleep(nap);
		if (nap < 50000)
			nap *= 2;
	}
}

void th_kill(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	th_wait(pid, -1);
}

int th_criterion_main(int argc, char *argv[])
{
	struct criterion_test_set *tests = criterion_initialize();
	int result = 0;

	if (criterion_handle_args(argc, argv, true)) {
		criterion_options.jobs = 1;
		fprintf(stderr, "%s on %s (driver: %s)\n", program_invocation_short_name, th_device(),
			th_driver_name());
		result = !criterion_run_all_tests(tests);
	}
	criterion_finalize(tests);
	return result;
}
