// SPDX-License-Identifier: MIT
/*
 * The server of the guest tests of signature interfaces (their main() is
 * the shared one, tests/common/main.c: the context manager is one per
 * device, so tests run one at a time).
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

pid_t g_server_start(bc_binder *(*make)(void *arg, bc_process *proc), void *arg)
{
	pid_t pid;
	int pfd[2];
	char c = 0;

	if (pipe(pfd) < 0)
		return -1;
	pid = th_fork();
	if (pid == 0) {
		bc_process *p;
		bc_binder *obj;
		int r = -EBUSY;

		close(pfd[0]);
		G_OK(bc_process_open(NULL, &p));
		obj = make(arg, p);
		G_CHECK(obj != NULL);
		/* the previous test's manager may still be going away */
		for (int64_t end = th_now_ms() + TH_HANG_MS; r == -EBUSY;) {
			r = bc_process_become_context_manager(p, obj);
			if (r == -EBUSY && !th_nap_until(end))
				break;
		}
		G_OK(r);
		G_OK(bc_process_start_thread_pool(p));
		G_CHECK(write(pfd[1], "r", 1) == 1);
		close(pfd[1]);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (pid > 0 && read(pfd[0], &c, 1) != 1) {
		close(pfd[0]);
		th_wait(pid, -1);
		return -1;
	}
	close(pfd[0]);
	return pid;
}

int g_client(bc_process **ret_proc, bc_binder **ret_server)
{
	int r = bc_process_open(NULL, ret_proc);

	if (r < 0)
		return r;
	r = bc_process_start_thread_pool(*ret_proc);
	if (r == 0)
		r = bc_process_get_handle(*ret_proc, 0, ret_server);
	if (r < 0)
		*ret_proc = bc_process_unref(*ret_proc);
	return r;
}
