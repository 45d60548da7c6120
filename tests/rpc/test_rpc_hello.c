/* SPDX-License-Identifier: MIT */
/*
 * The hello example over RPC binder on the host, where there is no
 * binder device: hello-service --rpc serves its object on a unix socket
 * and hello-client --rpc calls it, as `make demo` shows in the guest;
 * and the errors a user meets first (nobody listening, a path in use,
 * usage).
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "rpct_run.h"

#if !defined(HELLO_SERVICE_PATH) || !defined(HELLO_CLIENT_PATH)
#error "HELLO_SERVICE_PATH, HELLO_CLIENT_PATH: the example programs (tests/rpc/build.mk)"
#endif

#define RUN(path, out, ...) rpct_run(path, out, sizeof(out), (const char *const[]){ __VA_ARGS__, NULL })

static char dir[] = "/tmp/rpc-hello.XXXXXX";
static char addr[PATH_MAX + 8];
static pid_t service;

/* hello-service --rpc at @addr, back once its socket is there. */
static void service_start(void)
{
	int64_t end = th_now_ms() + TH_HANG_MS;
	struct stat st;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(addr, sizeof(addr), "unix:%s/hello.sock", dir);
	fflush(NULL);
	service = fork();
	cr_assert_geq(service, 0);
	if (service == 0) {
		execl(HELLO_SERVICE_PATH, HELLO_SERVICE_PATH, "--rpc", addr, (char *)NULL);
		_exit(127);
	}
	while (stat(addr + 5, &st) != 0)
		cr_assert(th_nap_until(end), "hello-service made no socket at %s", addr);
}

static void service_kill(void)
{
	if (service > 0) {
		kill(service, SIGKILL);
		waitpid(service, NULL, 0);
	}
	service = 0;
}

static void service_stop(void)
{
	char path[PATH_MAX];

	service_kill();
	snprintf(path, sizeof(path), "%s/hello.sock", dir);
	unlink(path);
	rmdir(dir);
}

TestSuite(rpc_hello, .init = service_start, .fini = service_stop, .timeout = TH_TEST_TIMEOUT_S);

Test(rpc_hello, client_gets_the_greeting)
{
	char out[512], want[256];

	snprintf(want, sizeof(want), "Hello, tester! (answered by pid %d to uid %u)\n", (int)service,
		 (unsigned)geteuid());
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", addr, "tester"), 0, "%s", out);
	/* the uid is SO_PEERCRED's: RPC binder itself carries no caller */
	cr_assert_str_eq(out, want);
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", addr), 0, "%s", out);
	cr_assert(strncmp(out, "Hello, world!", 13) == 0, "%s", out);
}

Test(rpc_hello, nobody_listening)
{
	char out[512], none[PATH_MAX + 16];

	snprintf(none, sizeof(none), "unix:%s/none.sock", dir);
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", none, "x"), 1, "%s", out);
	cr_assert(strstr(out, "none.sock: No such file or directory"), "%s", out);
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", "carrier-pigeon:1", "x"), 1, "%s", out);
	cr_assert(strstr(out, "carrier-pigeon:1: "), "%s", out);
}

Test(rpc_hello, path_in_use_is_not_taken_over)
{
	char out[512];

	cr_assert_eq(RUN(HELLO_SERVICE_PATH, out, "--rpc", addr), 1, "%s", out);
	cr_assert(strstr(out, "Address already in use"), "%s", out);
	/* and the first service still answers */
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", addr, "again"), 0, "%s", out);
}

Test(rpc_hello, a_dead_service_is_an_error)
{
	char out[512];

	service_kill();
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", addr, "x"), 1, "%s", out);
	cr_assert(strstr(out, "Connection refused"), "%s", out);
}

Test(rpc_hello, usage)
{
	char out[512];

	cr_assert_eq(RUN(HELLO_SERVICE_PATH, out, "--rpc"), 2, "%s", out);
	cr_assert(strstr(out, "usage: hello-service"), "%s", out);
	cr_assert_eq(RUN(HELLO_CLIENT_PATH, out, "--rpc", addr, "a", "b"), 2, "%s", out);
	cr_assert(strstr(out, "usage: hello-client"), "%s", out);
}
