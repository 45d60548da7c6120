/* SPDX-License-Identifier: MIT */
/*
 * What a proxy requires of the stability its object came with
 * (bc_binder_require_stability), on the host's only proxies: RPC binder's,
 * whose root object carries its level after its address as a kernel
 * binder object does after its flat object.  A VINTF requirement refuses
 * a system- or vendor-stability object (Android's Stability::check:
 * every required bit set) before anything is sent, and takes a VINTF one.
 */
#include "rpct.h"

struct served {
	struct rpct_adder a;
	struct rpct_server t;
	bc_rpc_session *s;
	bc_binder *root;
};

/* Serve an adder marked @level (0: unmarked) and get its proxy. */
static void serve(struct served *x, int level)
{
	int fd;

	rpct_adder_new(&x->a);
	cr_assert_eq(bc_binder_set_stability(x->a.self, level), 0);
	rpct_server_start(&x->t, x->a.self, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &x->s), 0);
	cr_assert_eq(bc_rpc_session_get_root(x->s, &x->root), 0);
}

static void end(struct served *x)
{
	bc_binder_unref(x->root);
	bc_rpc_session_unref(x->s);
	cr_assert_eq(rpct_server_join(&x->t), 0);
	bc_binder_unref(x->a.self);
}

Test(rpc_stability, vintf_required_refuses_system)
{
	struct served x;
	bc_error err;
	int32_t v = 0;

	serve(&x, 0);
	cr_assert_eq(bc_binder_get_stability(x.root), BINDERC_STABILITY_SYSTEM);
	cr_expect_eq(rpct_add(x.root, 1, 2, &v), 0);
	cr_expect_eq(v, 3);
	/* refused at once, and from then on for every user call */
	cr_expect_eq(bc_binder_require_stability(x.root, BINDERC_STABILITY_VINTF), -EPROTOTYPE);
	cr_expect_eq(rpct_add(x.root, 1, 2, &v), -EPROTOTYPE);
	cr_expect_eq(bc_binder_transact(x.root, RPCT_RECORD, NULL, NULL, BINDERC_FLAG_ONEWAY, &err), -EPROTOTYPE);
	cr_expect_eq(err.origin, BINDERC_ERROR_LOCAL);
	/* nothing was sent: the oneway call left no record */
	cr_expect_eq(atomic_load(&x.a.recorded), 0);
	/* ping and interface transactions are not user calls */
	cr_expect_eq(bc_binder_ping(x.root), 0);
	end(&x);
}

Test(rpc_stability, vintf_required_takes_vintf)
{
	struct served x;
	int32_t v = 0;

	serve(&x, BINDERC_STABILITY_VINTF);
	cr_assert_eq(bc_binder_get_stability(x.root), BINDERC_STABILITY_VINTF);
	cr_expect_eq(bc_binder_require_stability(x.root, BINDERC_STABILITY_VINTF), 0);
	cr_expect_eq(rpct_add(x.root, 40, 2, &v), 0);
	cr_expect_eq(v, 42);
	/* VINTF includes both partitions' levels */
	cr_expect_eq(bc_binder_require_stability(x.root, BINDERC_STABILITY_SYSTEM), 0);
	cr_expect_eq(bc_binder_require_stability(x.root, BINDERC_STABILITY_VENDOR), 0);
	cr_expect_eq(rpct_add(x.root, 1, 1, &v), 0);
	end(&x);
}

Test(rpc_stability, partitions_do_not_include_each_other)
{
	struct served x;
	int32_t v = 0;

	serve(&x, BINDERC_STABILITY_VENDOR);
	cr_assert_eq(bc_binder_get_stability(x.root), BINDERC_STABILITY_VENDOR);
	cr_expect_eq(bc_binder_require_stability(x.root, BINDERC_STABILITY_VENDOR), 0);
	cr_expect_eq(rpct_add(x.root, 1, 2, &v), 0);
	/* 0b000011 lacks SYSTEM's bits 0b001100 */
	cr_expect_eq(bc_binder_require_stability(x.root, BINDERC_STABILITY_SYSTEM), -EPROTOTYPE);
	cr_expect_eq(rpct_add(x.root, 1, 2, &v), -EPROTOTYPE);
	end(&x);
}
