/* SPDX-License-Identifier: MIT */
/*
 * A @VintfStability interface's proxy requires VINTF of the binder it
 * calls (Android's Stability::check in BpBinder::transact): every
 * generated proxy function of IHal (good/IHal.aidl) asks
 * bc_binder_require_stability() before it writes anything, and so a
 * system-stability binder is refused with -EPROTOTYPE while a VINTF one
 * is served.  The binders are RPC binder proxies (the host's only remote
 * binders, see tests/rpc/test_rpc_stability.c): the root object's level
 * travels with it as a kernel binder object's does.
 */
#include "at.h"
#include "rpct.h"

#include "org_binderc_test_IHal.h"


#define REQUIRE_VINTF "\t_r = bc_binder_require_stability(binder, BINDERC_STABILITY_VINTF);\n\tif (_r < 0)\n\t\tgoto out;\n" \
		      "\t_r = bc_binder_new_parcel(binder, &_data);\n"

/* The emitted call: in every proxy function of a VINTF interface (its
 * four methods and getInterfaceVersion/Hash, which Android checks too:
 * their codes are user transactions), before the request is made; in
 * no other interface's. */
Test(aidl_stability, vintf_proxies_emit_the_requirement)
{
	char *hal = at_gen_text("org_binderc_test_IHal"), *all = at_gen_text("org_binderc_test_IAll");

	cr_expect_eq(at_count(hal, "bc_binder_new_parcel(binder, &_data)"), 6);
	cr_expect_eq(at_count(hal, REQUIRE_VINTF), 6);
	cr_expect_eq(at_count(all, "bc_binder_require_stability"), 0);
	free(hal);
	free(all);
}

struct seen {
	int ready;
	int32_t reg;
};

static int on_ready(void *self)
{
	((struct seen *)self)->ready++;
	return 0;
}

static int on_int(void *self, int32_t default_)
{
	((struct seen *)self)->reg = default_;
	return 0;
}

static const struct org_binderc_test_IHal_ops ops = { .onTransferReady = on_ready, .int_ = on_int };

struct served {
	struct seen seen;
	bc_binder *svc;
	struct rpct_server t;
	bc_rpc_session *s;
	bc_binder *root;
};

/* An IHal stub, its level forced to @level when not 0, served over RPC
 * binder; x->root is the client's proxy of it. */
static void serve(struct served *x, int level)
{
	int fd;

	memset(x, 0, sizeof(*x));
	cr_assert_eq(org_binderc_test_IHal_stub_new(&ops, &x->seen, NULL, &x->svc), 0);
	cr_assert_eq(bc_binder_get_stability(x->svc), BINDERC_STABILITY_VINTF);
	if (level)
		cr_assert_eq(bc_binder_set_stability(x->svc, level), 0);
	rpct_server_start(&x->t, x->svc, BINDERC_RPC_VERSION_DEFAULT, &fd);
	cr_assert_eq(bc_rpc_session_connect_fd(fd, BINDERC_RPC_VERSION_DEFAULT, 0, &x->s), 0);
	cr_assert_eq(bc_rpc_session_get_root(x->s, &x->root), 0);
}

/* Close the connection and wait for the server: everything it was sent
 * has been dispatched when this returns. */
static void end(struct served *x)
{
	bc_binder_unref(x->root);
	bc_rpc_session_unref(x->s);
	cr_assert_eq(rpct_server_join(&x->t), 0);
	bc_binder_unref(x->svc);
}

/* A stub of the right interface but system stability (as one built
 * without @VintfStability would be): every generated call is refused
 * before it is sent, one-way ones too. */
Test(aidl_stability, vintf_proxy_refuses_system_binder)
{
	struct served x;
	int32_t v = -1;

	serve(&x, BINDERC_STABILITY_SYSTEM);
	cr_assert_eq(bc_binder_get_stability(x.root), BINDERC_STABILITY_SYSTEM);
	cr_expect_eq(org_binderc_test_IHal_int_(x.root, 9), -EPROTOTYPE);
	cr_expect_eq(org_binderc_test_IHal_onTransferReady(x.root), -EPROTOTYPE);
	cr_expect_eq(org_binderc_test_IHal_getInterfaceVersion(x.root, &v), -EPROTOTYPE);
	cr_expect_eq(v, -1);
	/* not a user transaction: the binder itself is reachable */
	cr_expect_eq(bc_binder_ping(x.root), 0);
	end(&x);
	/* nothing reached the implementation */
	cr_expect_eq(x.seen.ready, 0);
	cr_expect_eq(x.seen.reg, 0);
}

/* Vendor stability lacks VINTF's bits as well. */
Test(aidl_stability, vintf_proxy_refuses_vendor_binder)
{
	struct served x;

	serve(&x, BINDERC_STABILITY_VENDOR);
	cr_expect_eq(org_binderc_test_IHal_int_(x.root, 9), -EPROTOTYPE);
	end(&x);
	cr_expect_eq(x.seen.reg, 0);
}

/* The stub as generated (VINTF) is served: the requirement passes. */
Test(aidl_stability, vintf_proxy_calls_vintf_binder)
{
	struct served x;
	int32_t v = 0;

	serve(&x, 0);
	cr_assert_eq(bc_binder_get_stability(x.root), BINDERC_STABILITY_VINTF);
	cr_expect_eq(org_binderc_test_IHal_int_(x.root, 9), 0);
	cr_expect_eq(org_binderc_test_IHal_onTransferReady(x.root), 0);
	cr_expect_eq(org_binderc_test_IHal_getInterfaceVersion(x.root, &v), 0);
	cr_expect_eq(v, 3);
	end(&x);
	cr_expect_eq(x.seen.reg, 9);
	cr_expect_eq(x.seen.ready, 1);
}
