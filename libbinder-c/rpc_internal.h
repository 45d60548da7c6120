/* SPDX-License-Identifier: MIT */
/*
 * RPC binder inside the library (<binderc/rpc.h>):
 *
 *   rpc_wire.c     the wire structures (rpc_wire.h)
 *   rpc_session.c  a session: the object and its life; its pieces
 *                  (rpc_msg, _nodes, _parcel, _dec, _async, _dispatch,
 *                  _call.c) share rpc_session_internal.h
 *   rpc_proxy.c    the proxy kind of a peer's object (a bc_binder_ops)
 *   rpc_server.c   accepting a client and serving its session
 *   rpc_death.c    death notifications, and a client session's watcher
 *   rpc_addr.c     addresses and the sockets made from them
 *
 *   rpc_conn.c     a session's connections: socket I/O (the plain entry
 *                  of struct rpc_conn_ops), their read buffers, who uses
 *                  which
 *   rpc_tls.c      a connection over TLS: handshake, its rpc_conn_ops;
 *                  rpc_tls_ctx.c its context (rpc_tls_internal.h);
 *                  rpc_tls_none.c instead, built without OpenSSL
 *   rpc_client.c   a client's set-up, joins and incoming connections
 *   rpc_poll.c     an incoming connection the program polls itself
 *   rpc_server_poll.c  a server the program polls itself (no threads)
 *
 * LOCKING: each connection is used by one thread at a time (its mu, and
 * the thread-local owner for calls nested in a handler running on a
 * thread that serves or waits on it).  A session's mu protects the
 * object table, the pending DEC_STRONGs, the queued oneways and the id
 * counter; no I/O, allocation-heavy work or callback runs under it.  A
 * connection's mu is taken before the session's, never after.
 */
#ifndef BINDERC_RPC_INTERNAL_H
#define BINDERC_RPC_INTERNAL_H

#include <sys/socket.h>
#include <sys/uio.h>

#include <binderc/rpc.h>
#include <binderc/rpc_tls.h>

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
	/* received: the command's own buffer (struct rpc_conn's big), which
	 * the parcel's data lies in, freed with it */
	void *block;
};
/* At most this many fds go with one message (the kernel's SCM_MAX_FD). */
#define BC_RPC_MAX_FDS 253

/* The fds that came with a message's header (fd mode UNIX). */
struct rx_fds {
	int fd[BC_RPC_MAX_FDS];
	size_t n;
};

struct rpc_conn;
/*
 * How a connection's bytes travel: the seam between the protocol and its
 * transport, as bc_binder_ops is between binders and their kinds.  Plain
 * sockets (rpc_conn.c) and TLS over one (rpc_tls.c).
 *  sendv:    all of @iov[0..@n) (changed as it goes), @n_fds fds with
 *            the first bytes; 0 or -errno
 *  read:     some of @len bytes (> 0), 0 at the end of the stream, or
 *            -errno (-EAGAIN: the connection's timeout passed); the fds
 *            that came with them added to @rx when it is not NULL
 *  buffered: bytes already read from the socket and not yet handed out
 *            (a poll of the socket would not see them); NULL: never
 *  close:    free the transport's state (the socket is closed after)
 */
struct rpc_conn_ops {
	int (*sendv)(struct rpc_conn *c, struct iovec *iov, size_t n, const int *fds, size_t n_fds);
	ssize_t (*read)(struct rpc_conn *c, void *buf, size_t len, struct rx_fds *rx);
	bool (*buffered)(const struct rpc_conn *c);
	void (*close)(struct rpc_conn *c);
};

/* One connection of a session: a connected stream socket, used by one
 * thread at a time.  Named from this side: we serve it (read the peer's
 * calls: a server's connections from a client's outgoing ones, a
 * client's incoming ones) or we call on it (a client's outgoing ones, a
 * server's from a client's incoming ones). */
struct rpc_conn {
	int fd;
	bool serve;
	const struct rpc_conn_ops *ops;
	void *tls; /* rpc_tls.c's state, on a TLS connection */
	bool tls_failed; /* its read or write failed: no close_notify */
	unsigned timeout_ms; /* the bound on each read (0: none) */
	pthread_mutex_t mu;
	/* the peer's credentials (SO_PEERCRED, unix sockets), as callers'
	 * identity; pid 0 and euid -1 (nobody's) where unknown */
	pid_t peer_pid;
	uid_t peer_euid;
	bc_rpc_session *s; /* the session it was added to */
	/* a client's incoming connection: the thread reading it */
	bool has_reader;
	pthread_t reader;
	/* a polled server's connection: rpc_server_poll.c's input buffer */
	void *polled;
	/* Bytes read and not yet taken: [rpos, rlen) of rbuf (rcap bytes,
	 * BC_RPC_RBUF_SIZE once the first command is read).  A command's
	 * read brings whatever else had come too (rpc_msg.c); what is left
	 * is the next command's start.  A command larger than rbuf is read
	 * into a buffer of its own, big, until the next command's read or
	 * until the parcel of its data takes it.  Under mu, as every read. */
	uint8_t *rbuf;
	size_t rcap, rpos, rlen;
	uint8_t *big;
};
/* A connection's read buffer: a command up to this size (header and
 * body) is read into it, a larger one into a buffer of its own. */
#define BC_RPC_RBUF_SIZE 8192u
/* Zero @len bytes at @p if they are in @cn's read buffer (a call's or
 * reply's body read with FLAG_CLEAR_BUF: what the socket brought must
 * not stay there until the next command overwrites it).  A command too
 * large for the buffer is in a block the parcel takes and, marked
 * sensitive, wipes when it is freed. */
void bc__rpc_wipe_read(struct rpc_conn *cn, const uint8_t *p, size_t len);
/* Connections per session, of both kinds (a server's limits are lower). */
#define BC_RPC_MAX_CONNS 32
/* Oneway calls held for an earlier one that has not come yet, per
 * session, and their bytes; beyond either the peer is flooding and the
 * session ends (Android ends at 10000 calls). */
#define BC_RPC_MAX_ASYNC_QUEUED 1000
#define BC_RPC_MAX_ASYNC_BYTES (4u << 20)

/* A oneway call that came before its turn: its body and fds, run when
 * the calls numbered before it have run. */
struct rpc_async {
	uint64_t addr;
	uint64_t number;
	uint8_t *body;
	size_t len;
	int *fds;
	size_t n_fds;
	struct rpc_conn *conn; /* whose peer sent it (identity) */
};

/* One address known in the session (RpcState's BinderNode). */
struct rpc_node {
	uint64_t addr;
	/* An object of ours: held strong while @sent or @pinned > 0. */
	bc_binder *local;
	uint32_t sent; /* references sent and not given back */
	/* calls of ours that carry it and wait for their reply: the node
	 * stays for the reply, which may bring it back, even if the peer's
	 * DEC_STRONG for it came first on another connection */
	uint32_t pinned;
	/* Oneway numbers: the next one expected (ours) or sent (peer's). */
	uint64_t async_next;
	bool async_running; /* ours: a oneway call is being run */
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
	/* The connections, never removed before the session is freed: a slot
	 * is written before n_conns counts it (release), so that a reader of
	 * n_conns (acquire) needs no lock.  Added under mu. */
	struct rpc_conn *conns[BC_RPC_MAX_CONNS];
	atomic_size_t n_conns;
	unsigned n_serve, n_call; /* of each kind (mu) */
	atomic_uint next_call;	  /* where the search for a free one starts */
	/* threads waiting for a connection to call on (under mu, woken by
	 * conn_cv when one is let go) */
	atomic_uint conn_waiters;
	pthread_cond_t conn_cv;
	bool is_server;
	uint32_t max_threads; /* a server's: connections served per session */
	uint32_t peer_threads; /* a client's: what the server serves */
	uint32_t version;
	uint32_t fd_mode; /* BC_RPC_FD_MODE_NONE or _UNIX */
	uint8_t id[BC_RPC_SESSION_ID_SIZE];
	bc_rpc_tls *tls; /* a client's over TLS: for its joins (referenced) */
	/* a client's: the bound on each read of a join's set-up (ms, 0:
	 * none), the process default when the session was set up */
	atomic_uint setup_timeout_ms;
	bc_binder *root; /* a server's (under mu; NULL once the session ended) */
	pthread_mutex_t mu;
	struct rpc_async *async_q; /* oneways before their turn (mu) */
	size_t n_async, cap_async, async_bytes;
	struct rpc_node *nodes;
	size_t n_nodes, cap_nodes;
	uint32_t next_id;
	struct rpc_dec *pending; /* DEC_STRONGs waiting for the connection */
	/* (changed under mu; read without it, whether any wait: those who
	 * queue one flush it themselves, so a late look misses nothing
	 * that a look under mu would not) */
	atomic_size_t n_pending;
	size_t cap_pending;
	atomic_bool dead;
	atomic_int error;
	/* a server session gave its last object back: a clean end */
	atomic_bool drained;
	/* rpc_poll.c: the incoming connection the program polls (set once,
	 * under mu), and whether there is one (read without mu) */
	struct rpc_conn *polled;
	atomic_bool has_polled;
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
	/* per session: connections served (the client's outgoing ones: the
	 * threads a session may use here), and connections to call the
	 * client on (its incoming ones) */
	unsigned max_threads, max_incoming;
	unsigned setup_timeout_ms; /* each read of a connection's set-up */
	unsigned n_threads; /* join's connection threads still running */
	int *listeners;
	size_t n_listeners;
	bool shut_down;
	bc_rpc_tls *tls; /* every connection over TLS (referenced; mu) */
	/* rpc_allow.c: the vsock CIDs served (none: every CID; mu) */
	uint32_t *vsock_cids;
	size_t n_vsock_cids;
	/* rpc_server_poll.c: what the program polls (made once, under mu) */
	struct rpc_server_polled *polled;
};

/* ---- rpc_allow.c ----------------------------------------------------------- */
/* 0 if the peer on @fd may connect (its address is allowed), -EACCES if
 * not, -errno if its address cannot be read. */
int bc__rpc_server_peer_allowed(bc_rpc_server *srv, int fd);

/* ---- rpc_conn.c ------------------------------------------------------------ */
/* A connection on @fd (taken: closed on an error too). */
int bc__rpc_conn_new(int fd, bool serve, struct rpc_conn **ret);
void bc__rpc_conn_free(struct rpc_conn *c);
/* A bound on each read of a connection's set-up, in ms (0: none): a
 * peer that connects and then says nothing must not keep a thread for
 * ever.  Lifted (0) once the set-up is done: a session may idle. */
int bc__rpc_conn_set_timeout(struct rpc_conn *c, unsigned ms);
/* A set-up read that timed out (-EAGAIN) says -ETIMEDOUT. */
int bc__rpc_timeout_error(int r);
/* Add @c to the session (then the session's): -EUSERS when full or
 * when @limit (0: none) connections of its kind are there already,
 * -EPIPE when the session has ended (@c is the caller's then). */
int bc__rpc_conn_add(bc_rpc_session *s, struct rpc_conn *c, unsigned limit);
/* Exact reads and writes of the socket: 0, -EPIPE for an end of stream
 * before the first byte (when @boundary), -EPROTO for one inside a
 * structure, -errno. */
int bc__rpc_send(struct rpc_conn *c, const void *buf, size_t len);
/* @iov[0..@n) (changed as it goes), @n_fds fds (SCM_RIGHTS) with the
 * first bytes: in one sendmsg() where the socket has room. */
int bc__rpc_sendv(struct rpc_conn *c, struct iovec *iov, size_t n, const int *fds, size_t n_fds);
/*
 * A peer writing on a connection we call on while we write on it (its
 * DEC_STRONGs after our oneway calls) would block both sides once both
 * socket buffers are full; as Android's RpcState::drainCommands, a
 * blocked write there reads the peer's commands meanwhile -- DEC_STRONG
 * only: nothing else may come while we have not finished asking.
 * bc__rpc_drains(): whether @c's writes do that; bc__rpc_send_blocked():
 * wait until @c is writable, draining (0 or -errno).
 */
bool bc__rpc_drains(const struct rpc_conn *c);
int bc__rpc_send_blocked(struct rpc_conn *c);
/* (What the read buffer holds already comes first: bc__rpc_fill().) */
int bc__rpc_recv(struct rpc_conn *c, void *buf, size_t len, bool boundary);
/* bc__rpc_recv(), the fds that come with the bytes added to @rx. */
int bc__rpc_recv_fds(struct rpc_conn *c, void *buf, size_t len, bool boundary, struct rx_fds *rx);
/* Read until @want bytes (at most BC_RPC_RBUF_SIZE) wait in @c's read
 * buffer, from rpos: with @greedy, each read asks for as many as the
 * buffer holds (what comes after @want stays for the next command), else
 * only for the @want.  The fds that come are added to @rx (NULL: the
 * kernel drops them).  0; -EPIPE at an end of stream with nothing
 * buffered (when @boundary), -EPROTO with some; -ENOMEM, -errno. */
int bc__rpc_fill(struct rpc_conn *c, size_t want, bool greedy, bool boundary, struct rx_fds *rx);
/* Whether bytes wait above @c's socket, where poll() does not see them:
 * in its read buffer, or in its transport's. */
bool bc__rpc_buffered(const struct rpc_conn *c);
/* The connection of @s this thread uses (serves, or waits on), or NULL. */
struct rpc_conn *bc__rpc_owned(const bc_rpc_session *s);
/* This thread uses @c of @s from now on (its mu held): false when too
 * many sessions are nested on this thread. */
bool bc__rpc_own_push(bc_rpc_session *s, struct rpc_conn *c);
void bc__rpc_own_pop(void);
/* A connection to call on in *@ret, locked and owned: a free one, else
 * (@wait) the next one when it is free.  -ENOTCONN if the session has
 * none, -EWOULDBLOCK if none is free and !@wait, -EDEADLK if the only
 * ones are held by this thread already (a oneway call's handler, run
 * while its thread waits on one), -ELOOP when too many sessions are
 * nested on this thread. */
int bc__rpc_call_conn(bc_rpc_session *s, bool wait, struct rpc_conn **ret);
void bc__rpc_call_conn_put(struct rpc_conn *c);

/* ---- rpc_tls.c (rpc_tls_none.c without OpenSSL) ---------------------------- */
/* 0 if @t has a certificate of its own, else -ENOKEY. */
int bc__rpc_tls_ready(bc_rpc_tls *t);
/* The TLS handshake on @c (as the server if @server), bounded by its
 * timeout; then @c's bytes travel over TLS (its ops).  -EKEYREJECTED,
 * -EPROTO, -ETIMEDOUT, -EPIPE, with words for bc_rpc_tls_last_error(). */
int bc__rpc_tls_start(struct rpc_conn *c, bc_rpc_tls *t, bool server);

/* ---- rpc_session.c ------------------------------------------------------- */
/* A session without connections, with one reference. */
int bc__rpc_session_new(bool is_server, bc_rpc_session **ret);
/* Drop a reference: true if it was the last (the session is freed). */
bool bc__rpc_session_put(bc_rpc_session *s);
/* End the session with @err (the first error stays): every connection
 * is shut down. */
void bc__rpc_fail(bc_rpc_session *s, int err);
/* After the session ended: objects given back, obituaries sent. */
void bc__rpc_ended(bc_rpc_session *s);

/* ---- rpc_dispatch.c ------------------------------------------------------ */
/* Serve commands on @c until the peer closes (0) or an error (-errno);
 * the session ends with it.  The caller owns nothing of the session. */
int bc__rpc_serve(bc_rpc_session *s, struct rpc_conn *c);
/* Serve one command on @c (taking its mu, owning it meanwhile): 0, or
 * -errno (the session must end). */
int bc__rpc_serve_one(bc_rpc_session *s, struct rpc_conn *c);
/* Read one command on @c (rpc_conn.c's drain): a DEC_STRONG, run; any
 * other is a violation (-EBADMSG). */
int bc__rpc_drain_one(bc_rpc_session *s, struct rpc_conn *c);

/* ---- rpc_call.c ------------------------------------------------------------ */
/* A call to address @addr (0: special transaction @code). */
int bc__rpc_transact(bc_rpc_session *s, uint64_t addr, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
		     uint32_t flags, int *ret_origin);

/* ---- rpc_dec.c ------------------------------------------------------------- */
/* Give back @amount references to the peer's @addr (sent when the
 * connection is free). */
void bc__rpc_queue_dec(bc_rpc_session *s, uint64_t addr, uint32_t amount);

/* ---- rpc_nodes.c ----------------------------------------------------------- */
/* The proxy @x is being freed: out of the table. */
void bc__rpc_forget_proxy(bc_rpc_session *s, struct bc_rpc_proxy *x);
/* The session is over: give back every object the peer held. */
void bc__rpc_drop_nodes(bc_rpc_session *s);

/* ---- rpc_listen.c ----------------------------------------------------------- */
/* Count @s among the server's sessions (a reference is taken):
 * -ESHUTDOWN after bc_rpc_server_shutdown(), -EUSERS at the limit. */
int bc__rpc_server_add_session(bc_rpc_server *srv, bc_rpc_session *s);
void bc__rpc_server_remove_session(bc_rpc_server *srv, bc_rpc_session *s);
/* 0 if a new session may start: -ESHUTDOWN, -EUSERS at the limit. */
int bc__rpc_server_may_add(bc_rpc_server *srv);
/* The live session of id @id (referenced), or NULL. */
bc_rpc_session *bc__rpc_server_find_session(bc_rpc_server *srv, const uint8_t *id);

/* Unpin @n nodes of our objects @v (and drop those references): a reply
 * that held them is freed (rpc_parcel.c). */
void bc__rpc_unpin(bc_rpc_session *s, struct bc_binder **v, size_t n);

/* ---- rpc_server.c ----------------------------------------------------------- */
/* A new session on its first connection @c (taken: freed on an error),
 * whose header @h was read: made, counted among the server's sessions
 * and answered, in *@ret (referenced); its "cci" is still to come. */
int bc__rpc_server_open_session(bc_rpc_server *srv, struct rpc_conn *c, const struct bc_rpc_conn_header *h,
				bc_rpc_session **ret);
/* The last step of a connection's set-up: the client's "cci". */
int bc__rpc_server_conn_init(struct rpc_conn *c);
/* Connection @c (taken) joins the session its header @h names: its id
 * (and an outgoing one's "cci") read, @c added to the session in *@ret
 * (referenced); an incoming one (then !@c->serve) answered "cci". */
int bc__rpc_server_add_join(bc_rpc_server *srv, struct rpc_conn *c, const struct bc_rpc_conn_header *h,
			    bc_rpc_session **ret);

/* The fds of @msg's SCM_RIGHTS messages: the first @max into @fd, the
 * rest closed.  How many came in all (more than @max: some were closed). */
size_t bc__rpc_cmsg_fds(struct msghdr *msg, int *fd, size_t max);

/* ---- rpc_pollbuf.c ----------------------------------------------------------- */
/* A polled server's connection @c reads ahead into a buffer of its own,
 * without blocking (its ops wrapped; freed with it); a read that finds
 * the buffer empty, or a write, waits at most @wait_ms (0: for ever). */
int bc__rpc_pollbuf_attach(struct rpc_conn *c, unsigned wait_ms);
/* Read what the socket holds now, room made for @need bytes in all:
 * > 0 bytes, 0 at the end of the stream, -EAGAIN for none now, -errno. */
ssize_t bc__rpc_pollbuf_fill(struct rpc_conn *c, size_t need);
/* The bytes read ahead and not yet read (*@data: where, if not NULL). */
size_t bc__rpc_pollbuf_have(const struct rpc_conn *c, const uint8_t **data);
/* Whether the peer closed (nothing comes after what is buffered). */
bool bc__rpc_pollbuf_eof(const struct rpc_conn *c);

/* ---- rpc_server_poll.c ------------------------------------------------------ */
/* bc_rpc_server_shutdown(): every polled session ended, every set-up
 * dropped, the listeners forgotten. */
void bc__rpc_server_polled_stop(bc_rpc_server *srv);
/* The server's last reference went: the same, and the state freed. */
void bc__rpc_server_polled_free(bc_rpc_server *srv);

/* ---- rpc_client.c ----------------------------------------------------------- */
/* Join connection @fd (taken) to client session @s, set up and added to
 * it, in *@ret; nobody reads it yet. */
int bc__rpc_join_conn(bc_rpc_session *s, int fd, bool incoming, struct rpc_conn **ret);

/* ---- rpc_death.c ------------------------------------------------------------ */
int bc__rpc_link_to_death(bc_binder *b, bc_death_fn fn, void *userdata, bc_slot **ret);
/* Once the session is dead: call every recipient of its proxies (once;
 * no lock held by the caller). */
void bc__rpc_send_obituaries(bc_rpc_session *s);
/* The session is being freed: end its watcher, if it has one. */
void bc__rpc_watcher_stop(bc_rpc_session *s);

#endif
