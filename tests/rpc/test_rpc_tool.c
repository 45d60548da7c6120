/* SPDX-License-Identifier: MIT */
/*
 * `binder rpc` on the host, without a binder device: ping and call on an
 * RPC server this test serves (unix and TCP on the loopback), and the
 * errors every subcommand reports before it needs a device (bad
 * addresses, plain TCP not asked for, usage).  `binder rpc serve` itself
 * needs a device and a service manager: guest_rpc_serve.c.
 */
#include "rpct.h"
#include "rpct_run.h"

#ifndef BINDER_TOOL_PATH
#error "BINDER_TOOL_PATH: the binder tool to run (tests/rpc/build.mk)"
#endif

#define TOOL(out, ...) rpct_run(BINDER_TOOL_PATH, out, sizeof(out), (const char *const[]){ __VA_ARGS__, NULL })

Test(rpc_tool, ping_and_call)
{
	struct rpct_adder a;
	struct joiner j;
	char addr[96], out[8192];
	int64_t end;
	int rc;

	rpct_adder_new(&a);
	joiner_start(&j, a.self, 0, addr, sizeof(addr));
	rc = TOOL(out, "rpc", "ping", addr);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "alive") && strstr(out, RPCT_DESCRIPTOR), "%s", out);
	/* the adder reads no token */
	rc = TOOL(out, "rpc", "call", "--no-token", addr, "1", "i32", "40", "i32", "2");
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "Reply: 4 bytes") && strstr(out, "i32 42"), "%s", out);
	/* the handler's error comes back as the call's */
	rc = TOOL(out, "rpc", "call", "--no-token", addr, "2");
	cr_assert_eq(rc, 1, "%s", out);
	cr_assert(strstr(out, "Call failed"), "%s", out);
	rc = TOOL(out, "rpc", "call", "--oneway", "--no-token", addr, "3", "i32", "77");
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "Sent (oneway)"), "%s", out);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&a.recorded) != 77 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&a.recorded), 77);
	/* with the interface token (the default) the descriptor is asked */
	rc = TOOL(out, "rpc", "call", addr, "_PNG");
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
}

/* (An end the tool never reaches leaves accept() waiting: the timeout.) */
Test(rpc_tool, plain_tcp, .timeout = TH_TEST_TIMEOUT_S)
{
	struct rpct_adder a;
	bc_rpc_server *srv = NULL;
	char addr[64], out[8192];
	int lfd = -1, fd = -1, rc;

	cr_assert_eq(bc_rpc_listen("tcp:127.0.0.1:0", BINDERC_RPC_PLAIN_TCP, &lfd), 0);
	cr_assert_eq(bc_rpc_socket_address(lfd, false, addr, sizeof(addr)), 0);
	/* refused without the flag, before any connection */
	rc = TOOL(out, "rpc", "ping", addr);
	cr_assert_eq(rc, 2, "%s", out);
	cr_assert(strstr(out, "--plain-tcp"), "%s", out);
	/* one session, served by a thread of this test */
	rpct_adder_new(&a);
	cr_assert_eq(bc_rpc_server_new(a.self, &srv), 0);
	rc = fork();
	cr_assert_geq(rc, 0);
	if (rc == 0) {
		const char *argv[] = { "binder", "rpc", "ping", "--plain-tcp", addr, NULL };

		close(lfd);
		execv(BINDER_TOOL_PATH, (char *const *)argv);
		_exit(127);
	}
	cr_assert_eq(bc_rpc_accept(lfd, &fd), 0);
	cr_assert_eq(bc_rpc_server_serve_fd(srv, fd), 0);
	{
		int status = -1;

		cr_assert_eq(waitpid(rc, &status, 0), rc);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	}
	bc_rpc_server_unref(srv);
	close(lfd);
	bc_binder_unref(a.self);
}

Test(rpc_tool, errors)
{
	char out[8192];
	int rc;

	/* nobody at the address */
	rc = TOOL(out, "rpc", "ping", "unix-abstract:binderc-tool-nobody-here");
	cr_assert_eq(rc, 3, "%s", out);
	cr_assert(strstr(out, "cannot reach"), "%s", out);
	rc = TOOL(out, "rpc", "ping", "nowhere");
	cr_assert_eq(rc, 2, "%s", out);
	cr_assert(strstr(out, "bad address"), "%s", out);
	rc = TOOL(out, "rpc", "call", "unix:/nonexistent/x", "zz");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "call", "unix:/x");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "frob");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc");
	cr_assert_eq(rc, 2, "%s", out);
	/* serve: its arguments and address are checked before the device */
	rc = TOOL(out, "rpc", "serve", "svc");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "serve", "svc", "--listen");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "serve", "svc", "--listen", "tcp:127.0.0.1:0");
	cr_assert_eq(rc, 2, "%s", out);
	cr_assert(strstr(out, "--plain-tcp"), "%s", out);
	rc = TOOL(out, "rpc", "serve", "svc", "--listen", "tcp:1.2.3:4", "--plain-tcp");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "serve", "svc", "--listen", "unix:/x", "--max-threads", "0");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "serve", "svc", "--listen", "unix:/x", "--bogus");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "--help");
	cr_assert_eq(rc, 0);
	cr_assert(strstr(out, "rpc serve NAME --listen ADDR"), "%s", out);
}
