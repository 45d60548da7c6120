/* SPDX-License-Identifier: MIT */
/*
 * RPC binder inside the library (<binderc/rpc.h>):
 *
 *   rpc_wire.c     the wire structures (rpc_wire.h)
 *   rpc_session.c  a session: its socket, its object table, commands
 *   rpc_proxy.c    the proxy kind of a peer's object (a bc_binder_ops)
 *   rpc_server.c   accepting a client and serving its session
 *   rpc_death.c    death notifications, and a client session's watcher
 *   rpc_addr.c     addresses and the sockets made from them
 *
 * LOCKING: a session's connection is used by one thread at a time
 * (conn_mu, and the thread-local owner for calls nested in a handler
 * running on the serving thread).  mu protects the object table, the
 * pending DEC_STRONGs and the id counter; no I/O, allocation-heavy work
 * or callback runs under it.
 */
#ifndef BINDERC_RPC_INTERNAL_H
#define BINDERC_RPC_INTERNAL_H

#include <binderc/rpc.h>

#include "internal.h"
#include "rpc_wire.h"

struct bc_rpc_proxy;

/* The fds of an RPC parcel (fd mode UNIX): owned, in index order, with
 * where each object was written; a received parcel keeps the message's
 * object table to check reads against. */
struct bc_rpc_fds {
	int *fds;
	uint32_t *offs;
	size_t n, cap;
	uint32_t *table; /* received: the object table */
	size_t n_table;
};
/* At most this many fds go with one message (the kernel's SCM_MAX_FD). */
#define BC_RPC_MAX_FDS 253

/* One address known in the session (RpcState's BinderNode). */
struct rpc_node {
	uint64_t addr;
	/* An object of ours: held strong while @sent > 0. */
	bc_binder *local;
	uint32_t sent; /* references sent and not given back */
	/* Oneway numbers: the next one expected (ours) or sent (peer's). */
	uint64_t async_next;
	/* A peer's object: its proxy, not counted (it leaves the table in its
	 * weak_last). */
	struct bc_rpc_proxy *proxy;
};

struct rpc_dec {
	uint64_t addr;
	uint32_t amount;
};

struct bc_rpc_session {
	atomic_int refs;
	int fd;
	bool is_server;
	uint32_t version;
	uint32_t fd_mode; /* BC_RPC_FD_MODE_NONE or _UNIX */
	uint8_t id[BC_RPC_SESSION_ID_SIZE];
	/* The peer's credentials (SO_PEERCRED, unix sockets), as callers'
	 * identity; pid 0 and euid -1 (nobody's) where unknown. */
	pid_t peer_pid;
	uid_t peer_euid;
	bc_binder *root; /* a server's */
	pthread_mutex_t conn_mu;
	pthread_mutex_t mu;
	struct rpc_node *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t next_id;
	struct rpc_dec *pending; /* DEC_STRONGs waiting for the connection */
	size_t n_pending, cap_pending;
	atomic_bool dead;
	atomic_int error;
	/* a server session gave its last object back: a clean end */
	atomic_bool drained;
	/* rpc_death.c: obituaries sent once; a client's watcher thread */
	atomic_bool obituaries_sent;
	atomic_bool watcher_starting;
	bool watcher_started;
	pthread_t watcher;
};

/* A proxy of the peer's object at @addr. */
struct bc_rpc_proxy {
	struct bc_binder base;
	bc_rpc_session *s; /* referenced */
	uint64_t addr;
	uint32_t recd; /* references received, to give back (under s->mu) */
	bc_slot *deaths; /* death recipients (under s->mu) */
};

extern const struct bc_binder_ops bc__rpc_proxy_ops;

struct bc_rpc_server {
	atomic_int refs;
	bc_binder *root;
	atomic_uint max_version;
	atomic_bool fds; /* fd mode UNIX accepted */
	/* rpc_listen.c: the sessions being served (referenced), the
	 * listeners being joined, and the threads serving connections
	 * (all under mu; cv: one of them ended) */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bc_rpc_session **sessions;
	size_t n_sessions, cap_sessions;
	unsigned max_sessions;
	unsigned n_threads; /* join's connection threads still running */
	int *listeners;
	size_t n_listeners;
	bool shut_down;
};

/* ---- rpc_session.c ------------------------------------------------------- */
/* A session on @fd (taken) with one reference. */
int bc__rpc_session_new(int fd, bool is_server, bc_rpc_session **ret);
/* End the session with @err (the first error stays). */
void bc__rpc_fail(bc_rpc_session *s, int err);
/* Exact reads and writes of the socket: 0, -EPIPE for an end of stream
 * before the first byte (when @boundary), -EPROTO for one inside a
 * structure, -errno. */
int bc__rpc_send(bc_rpc_session *s, const void *buf, size_t len);
int bc__rpc_recv(bc_rpc_session *s, void *buf, size_t len, bool boundary);
/* Serve commands until the peer closes (0) or an error (-errno); the
 * caller owns the connection.  For a server session. */
int bc__rpc_serve(bc_rpc_session *s);
/* A call to address @addr (0: special transaction @code). */
int bc__rpc_transact(bc_rpc_session *s, uint64_t addr, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		     uint32_t flags, int *ret_origin);
/* Give back @amount references to the peer's @addr (sent when the
 * connection is free). */
void bc__rpc_queue_dec(bc_rpc_session *s, uint64_t addr, uint32_t amount);
/* The proxy @x is being freed: out of the table. */
void bc__rpc_forget_proxy(bc_rpc_session *s, struct bc_rpc_proxy *x);
/* The session is over: give back every object the peer held. */
void bc__rpc_drop_nodes(bc_rpc_session *s);

/* ---- rpc_listen.c ----------------------------------------------------------- */
/* Count @s among the server's sessions (a reference is taken):
 * -ESHUTDOWN after bc_rpc_server_shutdown(), -EUSERS at the limit. */
int bc__rpc_server_add_session(bc_rpc_server *srv, bc_rpc_session *s);
void bc__rpc_server_remove_session(bc_rpc_server *srv, bc_rpc_session *s);

/* ---- rpc_death.c ------------------------------------------------------------ */
int bc__rpc_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret);
/* Once the session is dead: call every recipient of its proxies (once;
 * no lock held by the caller). */
void bc__rpc_send_obituaries(bc_rpc_session *s);
/* The session is being freed: end its watcher, if it has one. */
void bc__rpc_watcher_stop(bc_rpc_session *s);

#endif
