/* SPDX-License-Identifier: MIT */
/*
 * `binder rpc` on the host, without a binder device: ping and call on an
 * RPC server this test serves (unix and TCP on the loopback), and the
 * errors every subcommand reports before it needs a device (bad
 * addresses, plain TCP not asked for, usage); the TLS options.  `binder rpc serve` itself
 * needs a device and a service manager: guest_rpc_serve.c.
 */
#include <binderc/rpc_tls.h>

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

/* ---- TLS ---------------------------------------------------------------- */

/* `binder rpc tls-keygen` makes the tool's pair; the test's server trusts
 * its certificate and the tool trusts the server's; then ping and call
 * over TLS on loopback TCP, and the refusals either way. */
Test(rpc_tool, tls)
{
	char dir[] = "/tmp/binderc-tool-tls-XXXXXX", c_crt[64], c_key[64], s_crt[64], s_key[64], o_crt[64], o_key[64];
	bc_rpc_tls *tls = NULL;
	struct rpct_adder a;
	struct joiner j;
	char addr[96], out[8192];
	int64_t end;
	int rc;

	rc = bc_rpc_tls_new(&tls);
	if (rc == -EOPNOTSUPP)
		cr_skip_test("built without TLS");
	cr_assert_eq(rc, 0);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(c_crt, sizeof(c_crt), "%s/c.crt", dir);
	snprintf(c_key, sizeof(c_key), "%s/c.key", dir);
	snprintf(s_crt, sizeof(s_crt), "%s/s.crt", dir);
	snprintf(s_key, sizeof(s_key), "%s/s.key", dir);
	snprintf(o_crt, sizeof(o_crt), "%s/o.crt", dir);
	snprintf(o_key, sizeof(o_key), "%s/o.key", dir);
	rc = TOOL(out, "rpc", "tls-keygen", c_crt, c_key);
	cr_assert_eq(rc, 0, "%s", out);
	rc = TOOL(out, "rpc", "tls-keygen", o_crt, o_key, "--days", "2");
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert_eq(bc_rpc_tls_generate(tls, 1), 0);
	cr_assert_eq(bc_rpc_tls_save_identity(tls, s_crt, s_key), 0);
	cr_assert_eq(bc_rpc_tls_load_trusted(tls, c_crt), 0);

	rpct_adder_new(&a);
	memset(&j, 0, sizeof(j));
	cr_assert_eq(bc_rpc_listen("tcp:127.0.0.1:0", BINDERC_RPC_TLS, &j.lfd), 0);
	cr_assert_eq(bc_rpc_socket_address(j.lfd, false, addr, sizeof(addr)), 0);
	cr_assert_eq(bc_rpc_server_new(a.self, &j.srv), 0);
	cr_assert_eq(bc_rpc_server_set_tls(j.srv, tls), 0);
	cr_assert_eq(pthread_create(&j.thread, NULL, join_main, &j), 0);

	rc = TOOL(out, "rpc", "ping", "--tls-cert", c_crt, "--tls-key", c_key, "--tls-trust", s_crt, addr);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "alive") && strstr(out, RPCT_DESCRIPTOR), "%s", out);
	cr_assert_null(strstr(out, "plain TCP"), "%s", out);
	rc = TOOL(out, "rpc", "call", "--no-token", "--tls-cert", c_crt, "--tls-key", c_key, "--tls-trust", o_crt,
		  "--tls-trust", s_crt, addr, "1", "i32", "40", "i32", "2");
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "i32 42"), "%s", out);
	/* the server does not know the other pair's certificate */
	rc = TOOL(out, "rpc", "ping", "--tls-cert", o_crt, "--tls-key", o_key, "--tls-trust", s_crt, addr);
	cr_assert_eq(rc, 3, "%s", out);
	cr_assert(strstr(out, "refused our certificate"), "%s", out);
	/* the tool does not know the server's */
	rc = TOOL(out, "rpc", "ping", "--tls-cert", c_crt, "--tls-key", c_key, "--tls-trust", o_crt, addr);
	cr_assert_eq(rc, 3, "%s", out);
	cr_assert(strstr(out, "not trusted"), "%s", out);
	/* the server went on serving */
	rc = TOOL(out, "rpc", "ping", "--tls-cert", c_crt, "--tls-key", c_key, "--tls-trust", s_crt, addr);
	cr_assert_eq(rc, 0, "%s", out);

	/* usage: all three, not with --plain-tcp, no fds; a key not the
	 * certificate's; serve checks them before the device */
	rc = TOOL(out, "rpc", "ping", "--tls-cert", c_crt, "--tls-key", c_key, addr);
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "ping", "--plain-tcp", "--tls-cert", c_crt, "--tls-key", c_key, "--tls-trust", s_crt,
		  addr);
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "call", "--tls-cert", c_crt, "--tls-key", c_key, "--tls-trust", s_crt, addr, "1", "fd",
		  "/dev/null");
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "ping", "--tls-cert", c_crt, "--tls-key", o_key, "--tls-trust", s_crt, addr);
	cr_assert_eq(rc, 2, "%s", out);
	cr_assert(strstr(out, "not the certificate's"), "%s", out);
	rc = TOOL(out, "rpc", "serve", "svc", "--listen", "tcp:127.0.0.1:0", "--tls-cert", c_crt);
	cr_assert_eq(rc, 2, "%s", out);
	rc = TOOL(out, "rpc", "tls-keygen", c_crt);
	cr_assert_eq(rc, 2, "%s", out);

	cr_assert_eq(joiner_stop(&j), 0);
	bc_binder_unref(a.self);
	end = th_now_ms() + TH_HANG_MS;
	while (atomic_load(&a.destroyed) < 1 && th_nap_until(end))
		;
	cr_assert_eq(atomic_load(&a.destroyed), 1);
	bc_rpc_tls_unref(tls);
	{
		const char *fs[] = { c_crt, c_key, s_crt, s_key, o_crt, o_key };

		for (size_t k = 0; k < sizeof(fs) / sizeof(fs[0]); k++)
			unlink(fs[k]);
	}
	rmdir(dir);
}
