// SPDX-License-Identifier: MIT
/* The interface of the hello example, shared by service and client, and
 * their RPC options. */
#ifndef HELLO_H
#define HELLO_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <binderc/rpc.h>
#include <binderc/rpc_tls.h>

#define HELLO_NAME "hello"			   /* name in the service manager */
#define HELLO_DESCRIPTOR "org.binderc.example.IHello" /* interface token */
#define HELLO_SAY_HELLO 1			   /* String sayHello(String name) */

/* How --rpc talks: the address, plain TCP allowed, or TLS (NULL: neither). */
struct hello_rpc {
	const char *addr;
	unsigned flags;
	bc_rpc_tls *tls;
};

/*
 * Read "--rpc ADDR [--plain-tcp | --tls CERT KEY PEER-CERT]" at argv[*i]
 * (if there): our certificate and key, and the one peer certificate we
 * trust (pinned, as Android's RPC binder does).  0, or -1 after saying
 * what was wrong on stderr.
 */
static inline int hello_rpc_options(const char *prog, int argc, char **argv, int *i, struct hello_rpc *o)
{
	int r;

	memset(o, 0, sizeof(*o));
	if (*i + 1 >= argc || strcmp(argv[*i], "--rpc") != 0)
		return 0;
	o->addr = argv[*i + 1];
	*i += 2;
	if (*i < argc && strcmp(argv[*i], "--plain-tcp") == 0) {
		o->flags = BINDERC_RPC_PLAIN_TCP;
		*i += 1;
	} else if (*i < argc && strcmp(argv[*i], "--tls") == 0) {
		if (*i + 3 >= argc)
			return -1;
		r = bc_rpc_tls_new(&o->tls);
		if (r == 0)
			r = bc_rpc_tls_load_identity(o->tls, argv[*i + 1], argv[*i + 2]);
		if (r == 0)
			r = bc_rpc_tls_load_trusted(o->tls, argv[*i + 3]);
		if (r < 0) {
			fprintf(stderr, "%s: --tls: %s\n", prog, bc_rpc_tls_last_error());
			o->tls = bc_rpc_tls_unref(o->tls);
			return -1;
		}
		o->flags = BINDERC_RPC_TLS;
		*i += 4;
	}
	return 0;
}

/* The error of a --rpc set-up, in words. */
static inline void hello_rpc_error(const char *prog, const struct hello_rpc *o, int r)
{
	if (r == -EPERM && !o->flags)
		fprintf(stderr, "%s: %s: plain TCP is unencrypted and unauthenticated: use --tls, or "
				"--plain-tcp to use it anyway\n", prog, o->addr);
	else if (o->tls && (r == -EKEYREJECTED || r == -EPROTO))
		fprintf(stderr, "%s: %s: %s\n", prog, o->addr, bc_rpc_tls_last_error());
	else
		fprintf(stderr, "%s: %s: %s\n", prog, o->addr, strerror(-r));
}

#endif
