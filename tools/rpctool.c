/* SPDX-License-Identifier: MIT */
/*
 * `binder rpc`: binder over sockets from the shell.
 *
 *   rpc ping [--plain-tcp | TLS] ADDR
 *   rpc call [--oneway] [--no-token] [--plain-tcp | TLS] ADDR CODE [ARG]...
 *   rpc serve NAME --listen ADDR [--plain-tcp | TLS] [--max-sessions N] [--max-threads N]
 *             [--allow-cid CID]...
 *   rpc tls-keygen CERT KEY [--days N]
 *
 * TLS is --tls-cert FILE --tls-key FILE --tls-trust FILE (--tls-trust
 * again for more peers): our certificate and key, and the certificates
 * of the peers we accept (<binderc/rpc_tls.h>: pinned, as Android's RPC
 * TLS).  tls-keygen makes a self-signed pair for it.
 *
 * ping and call talk to an RPC server's root object as `binder ping` and
 * `binder call` do to a registered service.  serve exposes a service
 * registered on the binder device over RPC, as Android's
 * servicedispatcher does: its root is a local object that passes each
 * call's bytes on to the service and its reply's bytes back, turning the
 * interface token from RPC binder's form into the kernel's.  Binders and
 * file descriptors inside the parcels cannot cross between the two
 * transports: a reply with objects fails the call (-EXDEV).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/rpc.h>
#include <binderc/rpc_tls.h>

#include "rpctool.h"

static const char *prog = "binder";

/* ---- TLS options ----------------------------------------------------------- */

#define MAX_TRUST 16

struct tls_opts {
	const char *cert, *key;
	const char *trust[MAX_TRUST];
	unsigned n_trust;
};

/* Whether argv[*i] is a TLS option: taken (its value too, *@i moved on
 * to it), or *@err set to the exit status of a usage error. */
static bool tls_option(struct tls_opts *o, int argc, char **argv, int *i, int *err)
{
	const char *opt = argv[*i];
	const char **slot = NULL;

	if (strcmp(opt, "--tls-cert") == 0)
		slot = &o->cert;
	else if (strcmp(opt, "--tls-key") == 0)
		slot = &o->key;
	else if (strcmp(opt, "--tls-trust") != 0)
		return false;
	if (*i + 1 >= argc) {
		*err = binder_usage_error("'%s' needs a file", opt);
	} else if (slot) {
		*slot = argv[++*i];
	} else if (o->n_trust == MAX_TRUST) {
		*err = binder_usage_error("%s", "at most 16 --tls-trust files");
	} else {
		o->trust[o->n_trust++] = argv[++*i];
	}
	return true;
}

/* Take the TLS options out of the leading options of argv[0..*argc)
 * (the rest move down): 0 or the exit status. */
static int strip_tls_options(struct tls_opts *o, int *argc, char **argv)
{
	int i, n = 0, err = 0;

	for (i = 0; i < *argc && argv[i][0] == '-' && argv[i][1] == '-'; i++)
		if (!tls_option(o, *argc, argv, &i, &err))
			argv[n++] = argv[i];
		else if (err)
			return err;
	for (; i < *argc; i++)
		argv[n++] = argv[i];
	*argc = n;
	return 0;
}

/* The TLS context the options describe in *@ret (NULL without them): 0 or
 * the exit status. */
static int tls_context(const struct tls_opts *o, bool plain, bc_rpc_tls **ret)
{
	bc_rpc_tls *t = NULL;
	int r;

	*ret = NULL;
	if (!o->cert && !o->key && !o->n_trust)
		return 0;
	if (plain)
		return binder_usage_error("%s", "--plain-tcp and --tls-* together");
	if (!o->cert || !o->key || !o->n_trust)
		return binder_usage_error("%s", "TLS needs --tls-cert, --tls-key and --tls-trust");
	r = bc_rpc_tls_new(&t);
	if (r == 0)
		r = bc_rpc_tls_load_identity(t, o->cert, o->key);
	for (unsigned k = 0; r == 0 && k < o->n_trust; k++)
		r = bc_rpc_tls_load_trusted(t, o->trust[k]);
	if (r < 0) {
		fprintf(stderr, "%s: TLS: %s\n", prog, r == -EOPNOTSUPP ? strerror(-r) : bc_rpc_tls_last_error());
		bc_rpc_tls_unref(t);
		return EXIT_USAGE;
	}
	*ret = t;
	return 0;
}

/* The session to @addr (over TLS with @tls unless NULL) and its root: 0
 * or the exit status. */
static int open_root(const char *addr, unsigned flags, bc_rpc_tls *tls, bc_rpc_session **ret_s,
		     bc_binder **ret_root)
{
	int r = tls ? bc_rpc_session_connect_tls(addr, BINDERC_RPC_VERSION_DEFAULT, flags, tls, ret_s)
		    : bc_rpc_session_connect(addr, BINDERC_RPC_VERSION_DEFAULT, flags, ret_s);

	if (r == -EPERM && !(flags & BINDERC_RPC_PLAIN_TCP)) {
		fprintf(stderr, "%s: %s: plain TCP is unencrypted and unauthenticated; use TLS (--tls-cert, "
				"--tls-key, --tls-trust), or add --plain-tcp to use it anyway\n", prog, addr);
		return EXIT_USAGE;
	}
	if (r == -EINVAL || r == -EAFNOSUPPORT || r == -ERANGE || r == -ENAMETOOLONG) {
		fprintf(stderr, "%s: bad address '%s': %s (unix:PATH, unix-abstract:NAME, tcp:HOST:PORT, "
				"vsock:CID:PORT)\n", prog, addr, strerror(-r));
		return EXIT_USAGE;
	}
	if (r < 0 && tls && (r == -EKEYREJECTED || r == -EPROTO)) {
		fprintf(stderr, "%s: TLS with %s failed: %s\n", prog, addr, bc_rpc_tls_last_error());
		return EXIT_UNREACHABLE;
	}
	if (r < 0) {
		fprintf(stderr, "%s: cannot reach an RPC binder server at %s: %s\n", prog, addr, strerror(-r));
		return EXIT_UNREACHABLE;
	}
	r = bc_rpc_session_get_root(*ret_s, ret_root);
	if (r == 0 && !*ret_root)
		r = -ENOENT;
	if (r < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, addr,
			r == -ENOENT ? "the server serves no root object" : binder_call_error(r));
		*ret_s = bc_rpc_session_unref(*ret_s);
		return r == -ENOENT ? EXIT_NOTFOUND : EXIT_UNREACHABLE;
	}
	return 0;
}

static int rpc_ping(int argc, char **argv)
{
	bool plain = false, oneway = false, token = true;
	struct tls_opts o = { 0 };
	bc_rpc_session *s = NULL;
	bc_rpc_tls *tls = NULL;
	bc_binder *root = NULL;
	char *desc = NULL;
	int i, r = strip_tls_options(&o, &argc, argv);

	if (r)
		return r;
	i = binder_call_options(argc, argv, &oneway, &token, &plain);
	if (i < 0)
		return -i;
	if (oneway || !token || argc - i != 1)
		return binder_usage_error("%s", "rpc ping [--plain-tcp | --tls-cert F --tls-key F --tls-trust F] ADDR");
	r = tls_context(&o, plain, &tls);
	if (r == 0)
		r = open_root(argv[i], plain ? BINDERC_RPC_PLAIN_TCP : 0, tls, &s, &root);
	bc_rpc_tls_unref(tls); /* the session keeps its own */
	if (r)
		return r;
	r = bc_binder_ping(root);
	if (r == 0)
		bc_binder_get_interface(root, &desc);
	if (r < 0)
		printf("RPC server %s: ping failed: %s\n", argv[i], binder_call_error(r));
	else
		printf("RPC server %s: alive, protocol version %u, root [%s]\n", argv[i],
		       bc_rpc_session_get_version(s), desc ? desc : "");
	free(desc);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	return r < 0 ? EXIT_NOTFOUND : 0;
}

static int rpc_call(int argc, char **argv)
{
	bool plain = false, oneway = false, token = true, fds = false;
	struct tls_opts o = { 0 };
	bc_rpc_session *s = NULL;
	bc_rpc_tls *tls = NULL;
	bc_binder *root = NULL;
	uint32_t code;
	int i, r = strip_tls_options(&o, &argc, argv);

	if (r)
		return r;
	i = binder_call_options(argc, argv, &oneway, &token, &plain);
	if (i < 0)
		return -i;
	if (argc - i < 2)
		return binder_usage_error("%s", "rpc call: ADDR and CODE needed");
	if (binder_parse_code(argv[i + 1], &code) < 0)
		return binder_usage_error("bad code '%s'", argv[i + 1]);
	/* fds travel only in the session mode that asks for them */
	for (int k = i + 2; k < argc; k++)
		fds |= strcmp(argv[k], "fd") == 0;
	r = tls_context(&o, plain, &tls);
	if (r == 0 && tls && fds) {
		fprintf(stderr, "%s: file descriptors do not travel over TLS\n", prog);
		r = EXIT_USAGE;
	}
	if (r == 0)
		r = open_root(argv[i], (plain ? BINDERC_RPC_PLAIN_TCP : 0) | (fds ? BINDERC_RPC_FDS : 0), tls, &s,
			      &root);
	bc_rpc_tls_unref(tls);
	if (r)
		return r;
	r = binder_call_object(root, argv[i], oneway, token, code, argc - i - 2, argv + i + 2);
	bc_binder_unref(root);
	bc_rpc_session_unref(s);
	return r;
}

/* ---- serve -------------------------------------------------------------- */

struct fwd {
	bc_binder *target; /* the service, on the device */
	char *desc;	   /* its interface descriptor ("" if it told none) */
};

/* The kernel request for RPC request @in: the interface token rewritten
 * (RPC binder's is the descriptor alone), the rest copied. */
static int translate_request(struct fwd *f, bc_parcel *in, bc_parcel *out)
{
	size_t start = bc_parcel_get_position(in), pos;
	int r = 0;

	if (*f->desc && bc_parcel_enforce_interface(in, f->desc) == 0)
		r = bc_parcel_write_interface_token(out, f->desc);
	else
		bc_parcel_set_position(in, start); /* no token: bytes as they are */
	pos = bc_parcel_get_position(in);
	if (r == 0 && bc_parcel_size(in) > pos)
		r = bc_parcel_write_raw(out, (const uint8_t *)bc_parcel_data(in) + pos, bc_parcel_size(in) - pos);
	return r;
}

static int fwd_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *u)
{
	struct fwd *f = u;
	bool oneway = bc_txn_get_flags(txn) & BINDERC_FLAG_ONEWAY;
	bc_parcel *out = NULL, *kr = NULL;
	size_t n_offs = 0;
	int r = bc_binder_new_parcel(f->target, &out);

	(void)self;
	if (r == 0)
		r = translate_request(f, in, out);
	if (r == 0)
		r = bc_binder_transact(f->target, code, out, oneway ? NULL : &kr, oneway ? BINDERC_FLAG_ONEWAY : 0,
				       NULL);
	if (r == 0 && kr) {
		bc_parcel_offsets(kr, &n_offs);
		/* a binder or fd of the device means nothing to the peer */
		r = n_offs ? -EXDEV : bc_parcel_write_raw(reply, bc_parcel_data(kr), bc_parcel_size(kr));
	}
	bc_parcel_unref(out);
	bc_parcel_unref(kr);
	return r;
}

/* A positive count option's value: 0 or the exit status. */
static int count_arg(const char *opt, const char *v, unsigned *ret)
{
	char *end;
	unsigned long n;

	if (!v)
		return binder_usage_error("'%s' needs a value", opt);
	n = strtoul(v, &end, 10);
	if (*end || !*v || v[0] == '-' || n == 0 || n > 65536)
		return binder_usage_error("bad count '%s'", v);
	*ret = (unsigned)n;
	return 0;
}

/* A vsock CID option's value (a number below VMADDR_CID_ANY). */
static int cid_arg(const char *opt, const char *v, uint32_t *ret)
{
	char *end;
	unsigned long n;

	if (!v)
		return binder_usage_error("'%s' needs a value", opt);
	errno = 0;
	n = strtoul(v, &end, 10);
	if (*end || !*v || v[0] == '-' || errno || n >= UINT32_MAX)
		return binder_usage_error("bad vsock CID '%s'", v);
	*ret = (uint32_t)n;
	return 0;
}

static int rpc_serve(struct ctx *c, int argc, char **argv)
{
	const char *name = NULL, *addr = NULL;
	unsigned max_sessions = 0, max_threads = 0;
	uint32_t cids[16];
	size_t n_cids = 0;
	struct fwd f = { NULL, NULL };
	struct tls_opts o = { 0 };
	bc_rpc_tls *tls = NULL;
	bc_rpc_server *srv = NULL;
	bc_class *cls = NULL;
	bc_binder *root = NULL;
	bool plain = false;
	char where[160];
	unsigned sock_flags;
	int lfd = -1, r = 0;

	for (int i = 0; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (tls_option(&o, argc, argv, &i, &r)) {
			if (r)
				return r;
		} else if (strcmp(argv[i], "--listen") == 0) {
			if (!v)
				return binder_usage_error("'%s' needs a value", argv[i]);
			addr = argv[++i];
		} else if (strcmp(argv[i], "--plain-tcp") == 0) {
			plain = true;
		} else if (strcmp(argv[i], "--max-sessions") == 0) {
			if ((r = count_arg(argv[i], v, &max_sessions)))
				return r;
			i++;
		} else if (strcmp(argv[i], "--max-threads") == 0) {
			if ((r = count_arg(argv[i], v, &max_threads)))
				return r;
			i++;
		} else if (strcmp(argv[i], "--allow-cid") == 0) {
			if (n_cids == sizeof(cids) / sizeof(cids[0]))
				return binder_usage_error("%s", "at most 16 --allow-cid options");
			if ((r = cid_arg(argv[i], v, &cids[n_cids++])))
				return r;
			i++;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			return binder_usage_error("unknown serve option '%s'", argv[i]);
		} else if (!name) {
			name = argv[i];
		} else {
			return binder_usage_error("unexpected argument '%s'", argv[i]);
		}
	}
	if (!name || !addr)
		return binder_usage_error("%s", "rpc serve NAME --listen ADDR");
	r = tls_context(&o, plain, &tls);
	if (r)
		return r;
	sock_flags = plain ? BINDERC_RPC_PLAIN_TCP : tls ? BINDERC_RPC_TLS : 0;
	/* the address first: a typo is told before the device is opened */
	{
		struct sockaddr_storage ss;
		socklen_t len;

		r = bc_rpc_address_parse(addr, sock_flags, &ss, &len);
		if (r < 0)
			tls = bc_rpc_tls_unref(tls);
		if (r == -EPERM)
			return binder_usage_error("%s: plain TCP is unencrypted and unauthenticated; use TLS "
						  "(--tls-cert, --tls-key, --tls-trust) or add --plain-tcp", addr);
		if (r < 0)
			return binder_usage_error("bad address '%s' (unix:PATH, unix-abstract:NAME, tcp:HOST:PORT, "
						  "vsock:CID:PORT)", addr);
	}
	r = binder_connect_sm(c);
	if (r == 0)
		r = binder_find(c, name, &f.target);
	if (r) {
		bc_rpc_tls_unref(tls);
		return r;
	}
	if (bc_binder_get_interface(f.target, &f.desc) < 0 || !f.desc)
		f.desc = strdup("");
	r = f.desc ? bc_class_new(f.desc, fwd_transact, NULL, 0, &cls) : -ENOMEM;
	if (r == 0)
		r = bc_binder_new(cls, &f, &root);
	bc_class_unref(cls);
	if (r == 0)
		r = bc_rpc_server_new(root, &srv);
	if (r == 0 && max_sessions)
		r = bc_rpc_server_set_max_sessions(srv, max_sessions);
	if (r == 0 && max_threads)
		r = bc_rpc_server_set_max_threads(srv, max_threads);
	if (r == 0 && tls)
		r = bc_rpc_server_set_tls(srv, tls);
	for (size_t i = 0; r == 0 && i < n_cids; i++)
		r = bc_rpc_server_allow_vsock_cid(srv, cids[i]);
	if (r < 0) {
		fprintf(stderr, "%s: %s\n", prog, strerror(-r));
		r = r == -EINVAL ? EXIT_USAGE : EXIT_UNREACHABLE;
		goto out;
	}
	r = bc_rpc_listen(addr, sock_flags, &lfd);
	if (r < 0) {
		fprintf(stderr, "%s: cannot listen at %s: %s\n", prog, addr, strerror(-r));
		r = EXIT_UNREACHABLE;
		goto out;
	}
	if (bc_rpc_socket_address(lfd, false, where, sizeof(where)) < 0)
		snprintf(where, sizeof(where), "%s", addr);
	printf("Serving %s [%s] at %s%s\n", name, f.desc, where, tls ? " over TLS" : "");
	fflush(stdout);
	r = bc_rpc_server_join(srv, lfd);
	if (r < 0) {
		fprintf(stderr, "%s: accepting at %s: %s\n", prog, where, strerror(-r));
		r = EXIT_UNREACHABLE;
	}
out:
	if (lfd >= 0)
		close(lfd);
	bc_rpc_server_unref(srv);
	bc_rpc_tls_unref(tls);
	bc_binder_unref(root);
	bc_binder_unref(f.target);
	free(f.desc);
	return r;
}

/* ---- tls-keygen --------------------------------------------------------------- */

/* A self-signed certificate and its key, for --tls-cert and --tls-key
 * here and --tls-trust on the peer. */
static int rpc_tls_keygen(int argc, char **argv)
{
	const char *cert = NULL, *key = NULL;
	unsigned days = 365;
	bc_rpc_tls *t = NULL;
	int r;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--days") == 0) {
			if ((r = count_arg(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &days)))
				return r;
			i++;
		} else if (argv[i][0] == '-' && argv[i][1] == '-') {
			return binder_usage_error("unknown tls-keygen option '%s'", argv[i]);
		} else if (!cert) {
			cert = argv[i];
		} else if (!key) {
			key = argv[i];
		} else {
			return binder_usage_error("unexpected argument '%s'", argv[i]);
		}
	}
	if (!key)
		return binder_usage_error("%s", "rpc tls-keygen CERT KEY [--days N]");
	r = bc_rpc_tls_new(&t);
	if (r == 0)
		r = bc_rpc_tls_generate(t, days);
	if (r == 0)
		r = bc_rpc_tls_save_identity(t, cert, key);
	bc_rpc_tls_unref(t);
	if (r < 0) {
		fprintf(stderr, "%s: tls-keygen: %s\n", prog,
			r == -EOPNOTSUPP || r == -EINVAL ? strerror(-r) : bc_rpc_tls_last_error());
		return r == -EINVAL ? EXIT_USAGE : EXIT_UNREACHABLE;
	}
	printf("Certificate %s (give it to peers for --tls-trust), private key %s, valid %u days\n", cert, key,
	       days);
	return 0;
}

int binder_rpc(struct ctx *c, int argc, char **argv)
{
	if (argc < 1)
		return binder_usage_error("%s", "rpc: ping, call, serve or tls-keygen needed");
	if (strcmp(argv[0], "ping") == 0)
		return rpc_ping(argc - 1, argv + 1);
	if (strcmp(argv[0], "call") == 0)
		return rpc_call(argc - 1, argv + 1);
	if (strcmp(argv[0], "serve") == 0)
		return rpc_serve(c, argc - 1, argv + 1);
	if (strcmp(argv[0], "tls-keygen") == 0)
		return rpc_tls_keygen(argc - 1, argv + 1);
	return binder_usage_error("unknown rpc command '%s' (ping, call, serve, tls-keygen)", argv[0]);
}
