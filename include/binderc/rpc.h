/* SPDX-License-Identifier: MIT */
/*
 * binderc/rpc.h - binder over sockets (RPC binder), wire-compatible with
 * Android's libbinder RpcSession/RpcServer (raw transport, protocol
 * versions 0, 1 and 2).
 *
 * A session joins one client and one server over a connected stream
 * socket (unix, vsock, TCP, or one end of a socketpair).  The server
 * serves a root object, an ordinary local object (bc_binder_new()); the
 * client gets it as an ordinary bc_binder (bc_rpc_session_get_root())
 * on which bc_binder_transact(), bc_binder_ping() and
 * bc_binder_get_interface() work as on a kernel proxy.  Dropping the
 * client's last reference gives the server its reference back
 * (DEC_STRONG); a server whose session holds no more objects ends it.
 *
 * Parcels for calls on an RPC proxy come from bc_binder_new_parcel(),
 * which makes them parcels of its session: binders written into them
 * travel as session addresses (local objects, and proxies of the same
 * session; weak binders say -EOPNOTSUPP, kernel proxies and other
 * sessions' proxies -EXDEV), and an interface token is the descriptor
 * alone, as in Android's RPC parcels.  The objects a peer sends come out
 * of bc_parcel_read_binder() as RPC proxies (or as the local object, for
 * one of ours that came back); a handler may call them back while the
 * call that brought them waits (a nested call on the same connection).
 *
 * File descriptors travel when the client asked for them
 * (BINDERC_RPC_FDS) and the server allows them (bc_rpc_server_set_fds()),
 * at version 1 or later: bc_parcel_write_fd() and bc_parcel_read_fd() on
 * a session's parcels (a received parcel owns its fds; elsewhere
 * bc_parcel_write_fd() says -EOPNOTSUPP).
 *
 * Death notifications: bc_binder_link_to_death() on an RPC proxy; when
 * the session ends, for any reason (the peer closed or died, a broken
 * stream, bc_rpc_session_shutdown()), every recipient of every proxy of
 * the session is called once, on the thread that noticed (the serving
 * thread of a server session; for a client session a watcher thread the
 * first link starts, which polls the socket for the peer's hang-up, or
 * the caller whose call failed).  -EPIPE once the session has ended.
 *
 * Connections: a session is a group of connections, each used by one
 * thread at a time.  The client's outgoing ones carry its calls (as many
 * as the server serves per session, bc_rpc_server_set_max_threads(), so
 * that several threads call in parallel; each is served by a server
 * thread); its incoming ones (bc_rpc_session_join(..., true)) carry the
 * server's calls to the client's objects outside the client's own calls
 * -- without one, a server reaches the client only from a handler of
 * the client's call (nested, on that call's connection), and elsewhere
 * gets -EWOULDBLOCK.  Oneway calls to one object run one at a time in
 * the order they were made, whatever connections carried them.
 *
 * TLS (TCP between machines): <binderc/rpc_tls.h>, as Android's TLS
 * transport -- TLS 1.3, a certificate on both sides, peers pinned by
 * their certificates; bc_rpc_session_connect_tls(),
 * bc_rpc_server_set_tls().
 *
 * Handlers of calls that come over a session run on the thread reading
 * the connection they came on.  The protocol carries no caller identity, so on a unix
 * socket (or socketpair) bc_txn_get_calling_pid() and
 * bc_txn_get_calling_euid() say who the socket's peer was when it
 * connected (SO_PEERCRED; pid 0 for oneway calls, as over the kernel);
 * over other transports pid 0 and euid (uid_t)-1, nobody's.
 *
 * Errors of a session are final: a malformed or truncated stream, an
 * unknown command or a failed read or write on any of its connections
 * ends the session (its sockets are shut down) and every later call on
 * it says -EPIPE;
 * bc_rpc_session_get_error() tells what ended it.
 */
#ifndef BINDERC_RPC_H
#define BINDERC_RPC_H

#include <poll.h>
#include <sys/socket.h>

#include <binderc/binder.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Protocol versions.  0 is Android 13's, 1 Android 14's and 15's, 2
 * Android 16's (framed as 1). */
#define BINDERC_RPC_VERSION_0 0u
#define BINDERC_RPC_VERSION_1 1u
#define BINDERC_RPC_VERSION_2 2u
/** What a client proposes and a server caps at unless told otherwise
 * (Android 14's default). */
#define BINDERC_RPC_VERSION_DEFAULT BINDERC_RPC_VERSION_1

typedef struct bc_rpc_session bc_rpc_session;
typedef struct bc_rpc_server bc_rpc_server;

/* ---- client ------------------------------------------------------------- */

/** Flag of bc_rpc_session_connect_fd(): ask for file descriptors in
 * parcels (fd mode UNIX: @fd must be a unix socket; needs version 1 or
 * later).  A server that does not take them closes the connection. */
#define BINDERC_RPC_FDS 0x1u

/**
 * Set up a new session on the connected stream socket @fd (taken: closed
 * with the session): send the connection header proposing @max_version
 * (BINDERC_RPC_VERSION_*) and the fd mode of @flags (BINDERC_RPC_FDS),
 * read the version the server chose (at most @max_version), and ask for
 * the server's thread count and session id, as Android's client does.
 * Blocks, each read at most the set-up timeout (see below).  0, or
 * -EPROTONOSUPPORT (a version not spoken here, or above @max_version),
 * -EBADMSG (a malformed answer), -EPIPE (the server closed), -ETIMEDOUT
 * (it said nothing in time), -errno of the socket.  On an error @fd is closed too.
 */
int bc_rpc_session_connect_fd(int fd, uint32_t max_version, unsigned flags, bc_rpc_session **ret);
/**
 * Join one more connection, the connected stream socket @fd (taken: on
 * an error too) to the same server, to client session @s:
 *  - outgoing (!@incoming): one more connection to make calls on, so
 *    that calls of several threads run in parallel.  At most as many as
 *    the server serves per session (it told at set-up): -EUSERS beyond.
 *  - incoming: a connection on which the server calls the client's
 *    objects whenever it likes, not only from inside the client's calls;
 *    a thread of this library serves it, running those handlers, and
 *    notices the server's end at once.  -EPIPE if the server refused it.
 * Blocks for an incoming connection's answer, at most the session's
 * set-up timeout (then -ETIMEDOUT).
 */
int bc_rpc_session_join_fd(bc_rpc_session *s, int fd, bool incoming);
/**
 * How long a client waits for each part of a session's set-up (the
 * server's answer to its header, the replies to its first calls, an
 * incoming join's "cci") before it gives up with -ETIMEDOUT, in ms (0:
 * for ever); default BINDERC_RPC_SETUP_TIMEOUT_MS_DEFAULT, as a
 * server's.  A server that accepts and then says nothing would otherwise
 * hold bc_rpc_session_connect_fd() and bc_rpc_session_connect() for
 * ever.  bc_rpc_client_set_setup_timeout() sets it for the sessions set
 * up after it, process-wide (there is no session before
 * bc_rpc_session_connect_fd() makes one); a session keeps that value for
 * its joins, which bc_rpc_session_set_setup_timeout() changes (-EINVAL
 * for a server's session).  Calls on a session once set up wait as long
 * as they take.
 */
void bc_rpc_client_set_setup_timeout(unsigned ms);
int bc_rpc_session_set_setup_timeout(bc_rpc_session *s, unsigned ms);
/**
 * Poll-friendly incoming connection, for a client with no threads of the
 * library's, as a kernel binder client polls its device fd: like an
 * incoming bc_rpc_session_join_fd(), but nobody reads it until the
 * program calls bc_rpc_session_handle_polled(), which it does whenever
 * the socket (@fd; *@ret_fd of bc_rpc_session_join_polled()) polls
 * readable (POLLIN).  The server's calls to the client's objects then run
 * on that thread, as does the end of the session: when the server goes,
 * bc_rpc_session_handle_polled() runs the death recipients and says
 * -EPIPE, and no watcher thread is started for them.  At most one per
 * session (-EBUSY).  The socket is the session's: stop polling it once
 * the session's last reference is dropped.
 */
int bc_rpc_session_join_polled_fd(bc_rpc_session *s, int fd);
/** bc_rpc_connect() to @addr, then bc_rpc_session_join_polled_fd(); the
 * socket to poll in *@ret_fd. */
int bc_rpc_session_join_polled(bc_rpc_session *s, const char *addr, unsigned flags, int *ret_fd);
/** Run every command that came on the polled connection, without
 * waiting for more: 0; -EPIPE once the session has ended (its death
 * recipients have run, on this thread); -ENOTCONN without a polled
 * connection. */
int bc_rpc_session_handle_polled(bc_rpc_session *s);
/** bc_rpc_connect() to @addr, then bc_rpc_session_join_fd(). */
int bc_rpc_session_join(bc_rpc_session *s, const char *addr, unsigned flags, bool incoming);
/** Take a reference.  Returns @s. */
bc_rpc_session *bc_rpc_session_ref(bc_rpc_session *s);
/** Drop one; proxies of the session hold their own.  Returns NULL. */
bc_rpc_session *bc_rpc_session_unref(bc_rpc_session *s);
/** The server's root object in *@ret (a strong reference), or NULL if it
 * serves none.  Each call asks the server (GET_ROOT). */
int bc_rpc_session_get_root(bc_rpc_session *s, bc_binder **ret);
/** The protocol version the session speaks. */
uint32_t bc_rpc_session_get_version(const bc_rpc_session *s);
/** 0 while the session runs; then what ended it (-EPIPE: the peer
 * closed; -EBADMSG, -EMSGSIZE, -EPROTO: it broke the protocol;
 * -ESHUTDOWN: bc_rpc_session_shutdown()). */
int bc_rpc_session_get_error(const bc_rpc_session *s);
/** End the session now: its socket is shut down, calls in flight and
 * later ones fail with -EPIPE. */
void bc_rpc_session_shutdown(bc_rpc_session *s);

/* ---- addresses ---------------------------------------------------------- */

/*
 * One syntax for every transport:
 *
 *   unix:PATH             a unix domain socket at PATH (relative or absolute)
 *   unix-abstract:NAME    a unix socket in the abstract namespace
 *   tcp:HOST:PORT         HOST a dotted IPv4 address, [IPv6] or localhost
 *                         (no resolver); PORT 0 to listen on any free port
 *   vsock:CID:PORT        CID a number, or any, local or host
 *
 * TCP is meant to carry TLS (<binderc/rpc_tls.h>, BINDERC_RPC_TLS
 * below).  Plain TCP carries every call readable, and anyone who reaches
 * the port may call the objects served: it is refused (-EPERM) unless
 * BINDERC_RPC_PLAIN_TCP or BINDERC_RPC_TLS is among the flags, and with
 * BINDERC_RPC_PLAIN_TCP a warning goes to stderr for each TCP socket
 * made.  Unix sockets are guarded by
 * their file's permissions; handlers see the peer's credentials
 * (SO_PEERCRED) as bc_txn_get_calling_pid() and _euid().
 */

/** Flag of the address functions and bc_rpc_session_connect(): allow
 * tcp: addresses (plain TCP, see above). */
#define BINDERC_RPC_PLAIN_TCP 0x2u
/** Flag of the address functions: the socket will carry TLS
 * (<binderc/rpc_tls.h>), so tcp: is allowed without a warning. */
#define BINDERC_RPC_TLS 0x4u

/**
 * Parse @addr into a socket address (*@ret, *@ret_len).  -EINVAL for a
 * malformed address (an empty path or name, a bad host or number, text
 * after the port), -ERANGE for a port or CID too large, -ENAMETOOLONG
 * for a unix path or name that does not fit a sockaddr_un,
 * -EAFNOSUPPORT for an unknown scheme, -EPERM for tcp: without
 * BINDERC_RPC_PLAIN_TCP or BINDERC_RPC_TLS.
 */
int bc_rpc_address_parse(const char *addr, unsigned flags, struct sockaddr_storage *ret, socklen_t *ret_len);
/** Write socket address @sa in the syntax above into @buf (NUL-ended).
 * -ENOSPC if it does not fit, -EAFNOSUPPORT for another family,
 * -EINVAL for an unnamed unix socket. */
int bc_rpc_address_format(const struct sockaddr *sa, socklen_t len, char *buf, size_t size);
/** The address of socket @fd (its peer's if @peer), formatted: e.g.
 * the port a "tcp:127.0.0.1:0" listener was given. */
int bc_rpc_socket_address(int fd, bool peer, char *buf, size_t size);
/** A listening stream socket at @addr in *@ret_fd (close-on-exec).
 * An existing unix path is not replaced (-EADDRINUSE). */
int bc_rpc_listen(const char *addr, unsigned flags, int *ret_fd);
/** A stream socket connected to @addr in *@ret_fd. */
int bc_rpc_connect(const char *addr, unsigned flags, int *ret_fd);
/** The next connection on listening socket @listen_fd in *@ret_fd
 * (blocks; retried on EINTR and on clients that gave up). */
int bc_rpc_accept(int listen_fd, int *ret_fd);
/** bc_rpc_connect(), then bc_rpc_session_connect_fd() on the socket,
 * then as many more outgoing connections (bc_rpc_session_join()) as the
 * server serves per session, up to BINDERC_RPC_MAX_OUTGOING in all (a
 * join that fails leaves the session with fewer).  @flags may hold
 * BINDERC_RPC_PLAIN_TCP and BINDERC_RPC_FDS. */
#define BINDERC_RPC_MAX_OUTGOING 8u
int bc_rpc_session_connect(const char *addr, uint32_t max_version, unsigned flags, bc_rpc_session **ret);

/*
 * Bootstrap sockets, as Android's setupUnixDomainSocketBootstrapClient and
 * _Server: a unix socket (often inherited, or one end of a socketpair made
 * before a fork) over which each new connection is handed as one end of a
 * fresh socketpair, the only fd of a 4-byte message.  A pre-connected
 * socket (setupPreconnectedClient) needs nothing more than
 * bc_rpc_session_connect_fd() and bc_rpc_server_serve_fd().
 */
/** Client side: a new connection's socket in *@ret_fd, its other end
 * sent over @bootstrap_fd.  -EPIPE if the server's end is closed. */
int bc_rpc_bootstrap_connect(int bootstrap_fd, int *ret_fd);
/** Server side: the next connection's socket from @bootstrap_fd in
 * *@ret_fd (blocks).  -EPIPE when the client closed the bootstrap
 * socket, -EBADMSG for a message without exactly one fd, -ENOTSOCK for
 * an fd that is no stream socket (what came is closed). */
int bc_rpc_bootstrap_accept(int bootstrap_fd, int *ret_fd);

/* ---- server ------------------------------------------------------------- */

/** A server of root object @root (a reference is taken; may be NULL). */
int bc_rpc_server_new(bc_binder *root, bc_rpc_server **ret);
bc_rpc_server *bc_rpc_server_ref(bc_rpc_server *srv);
bc_rpc_server *bc_rpc_server_unref(bc_rpc_server *srv);
/** The highest version the server agrees to (default
 * BINDERC_RPC_VERSION_DEFAULT); -EINVAL above BINDERC_RPC_VERSION_2. */
int bc_rpc_server_set_max_version(bc_rpc_server *srv, uint32_t version);
/** Whether clients may ask for file descriptors in parcels (fd mode
 * UNIX; default no: such a client is answered, then dropped, as
 * Android's server does). */
int bc_rpc_server_set_fds(bc_rpc_server *srv, bool allow);
/**
 * Serve the connection a client opened, the connected stream socket @fd
 * (taken), on the calling thread: a new session, or one more connection
 * of a session of this server (a join), until the session ends (the
 * client closes, or drops every object it held).  Handlers of calls on
 * the connection run on this thread.  A client's incoming connection is
 * only handed to its session (which keeps @fd): 0 at once.  0 for a
 * clean end; -EBADMSG, -EMSGSIZE or -EPROTO if the client broke the
 * protocol (a malformed or truncated message), -ENOENT if it asked to
 * join a session this server does not serve, -EUSERS for a join beyond
 * the server's per-session limits, -EOPNOTSUPP if it asked for fd transport,
 * -EPIPE if it went away while a handler's call back to it waited,
 * -ESHUTDOWN if bc_rpc_server_shutdown() ended it (or came first),
 * -EUSERS at the server's session limit, -errno of the socket.  What
 * ended the session first is returned.
 */
int bc_rpc_server_serve_fd(bc_rpc_server *srv, int fd);

/** The most connections a server serves per session (what it answers
 * GET_MAX_THREADS: a client opens that many to call in parallel; default
 * 1, as Android's), 1 to BINDERC_RPC_MAX_THREADS.  Each is served by a
 * thread of its own. */
#define BINDERC_RPC_MAX_THREADS 16u
int bc_rpc_server_set_max_threads(bc_rpc_server *srv, unsigned max);
/** The most incoming connections a client may offer per session (on
 * which the server calls the client's objects outside the client's own
 * calls), 0 to BINDERC_RPC_MAX_THREADS; default
 * BINDERC_RPC_MAX_INCOMING_DEFAULT.  One beyond it is closed. */
#define BINDERC_RPC_MAX_INCOMING_DEFAULT 4u
int bc_rpc_server_set_max_incoming(bc_rpc_server *srv, unsigned max);
/** How long a server waits for each part of a connection's set-up (its
 * header, session id, "cci") before it drops the connection, in ms (0:
 * for ever); default BINDERC_RPC_SETUP_TIMEOUT_MS_DEFAULT.  A client that
 * connects and says nothing would otherwise keep a thread for ever.
 * bc_rpc_server_serve_fd() then says -ETIMEDOUT. */
#define BINDERC_RPC_SETUP_TIMEOUT_MS_DEFAULT 10000u
int bc_rpc_server_set_setup_timeout(bc_rpc_server *srv, unsigned ms);
/** How many sessions a server serves at once unless told otherwise. */
#define BINDERC_RPC_MAX_SESSIONS_DEFAULT 128u
/**
 * The most sessions @srv serves at once (> 0): bc_rpc_server_join()
 * closes a connection beyond it as soon as it is accepted (its client's
 * set-up fails with -EPIPE), and bc_rpc_server_serve_fd() refuses one
 * with -EUSERS.  This bounds what a flood of connections costs: a thread
 * and a socket per session.
 */
int bc_rpc_server_set_max_sessions(bc_rpc_server *srv, unsigned max);
/**
 * Serve vsock peers from @cid (repeatable: each call adds one).  Once one
 * CID is allowed, a vsock connection from any other CID is closed before
 * a byte of it is read (bc_rpc_server_serve_fd() says -EACCES, the
 * library logs the CID); until then every CID is served.  Connections of
 * other families are not affected: a unix socket is guarded by its
 * file's permissions, TCP by TLS.  -EINVAL for VMADDR_CID_ANY, -ENOSPC
 * beyond 1024 CIDs.
 */
int bc_rpc_server_allow_vsock_cid(bc_rpc_server *srv, uint32_t cid);
/**
 * Accept connections on listening socket @listen_fd (bc_rpc_listen())
 * and serve each new session on a thread of its own, until
 * bc_rpc_server_shutdown().  Blocks.  0 after a shutdown, else -errno of
 * accept() (out of fds, it waits for a session to end instead).
 * Several threads may join one server, each on its own socket.
 */
int bc_rpc_server_join(bc_rpc_server *srv, int listen_fd);
/**
 * Stop @srv: every bc_rpc_server_join() returns (its listening socket is
 * shut down; closing it stays the caller's), every session it serves
 * ends (as if its client had gone: calls in flight fail with -EPIPE on
 * both sides), and new connections are refused.  Returns when every
 * session has ended and given its objects back, so not from a handler of
 * one of the server's sessions.  (The threads that served them may still
 * be exiting, each holding a reference to the server, and so to its
 * root, for a moment.)  Final.
 */
void bc_rpc_server_shutdown(bc_rpc_server *srv);

/* ---- a polled server ------------------------------------------------------ */

/*
 * For a single-threaded program, as a kernel binder server polls its
 * device fd: no thread of the library's; the program polls the listening
 * socket and every connection of the server's, and calls
 * bc_rpc_server_handle_polled() for each that polls readable.  It
 * accepts, sets up connections, and serves every whole command that has
 * come, never waiting for the rest of one: a connection reads ahead into
 * a buffer of its own, so a client that sends half a command holds
 * nothing but that buffer.  Handlers run on the program's thread, inside
 * bc_rpc_server_handle_polled().  A loop:
 *
 *	struct pollfd p[64];
 *	int n, timeout;
 *
 *	bc_rpc_server_listen_polled(srv, listen_fd);
 *	while ((n = bc_rpc_server_get_pollfds(srv, p, 64, &timeout)) >= 0) {
 *		if (n > 64)
 *			n = 64;  (a bigger array: see max_sessions)
 *		if (poll(p, (nfds_t)n, timeout) < 0 && errno != EINTR)
 *			break;
 *		for (int i = 0; i < n; i++)
 *			if (p[i].revents)
 *				bc_rpc_server_handle_polled(srv, p[i].fd);
 *	}
 *
 * which ends once bc_rpc_server_shutdown() (-ESHUTDOWN).  An epoll loop
 * (level-triggered) hears of each connection's fd coming and going from
 * bc_rpc_server_set_poll_fn() instead, and calls
 * bc_rpc_server_get_pollfds(srv, NULL, 0, &timeout) for its timeout.
 *
 * The limits are a threaded server's: max_sessions (a connection beyond
 * it closed as soon as it is accepted; as many set-ups under way at
 * most), max_threads and max_incoming per session, the fd mode, the
 * protocol versions; a malformed stream ends only its session.  The
 * set-up timeout bounds each connection's set-up (the timeout
 * get_pollfds gives is the next one's deadline: the dropping of a
 * client that said nothing happens in get_pollfds and handle_polled),
 * and, once served, every wait the loop does on one client: a write it
 * has no room for (it reads nothing), and a handler's call back into it
 * (nested: the handler waits for its reply, reading that connection, as
 * a kernel binder thread does); past it the session ends with
 * -ETIMEDOUT.  While a handler runs or waits so, the other clients wait.
 * Calls of the program's own outside handlers, on objects a client sent,
 * go on its incoming connections, as from a threaded server (and wait
 * for room to write without that bound).
 *
 * Not over TLS: bc_rpc_server_listen_polled() says -EOPNOTSUPP on a
 * server with bc_rpc_server_set_tls(), and a connection accepted after
 * it was set is closed (a handshake cannot be read ahead).  The
 * functions below are for one thread (bc_rpc_server_shutdown() may come
 * from another: it waits for a handler running here to return), and not
 * for a handler of the server's (they would wait for themselves).
 */

/**
 * Poll listening socket @listen_fd (bc_rpc_listen(); it stays the
 * caller's, made non-blocking) for @srv's connections.  -EOPNOTSUPP over
 * TLS, -ESHUTDOWN after bc_rpc_server_shutdown(), -EEXIST if it is
 * polled already.  Several listeners may be.
 */
int bc_rpc_server_listen_polled(bc_rpc_server *srv, int listen_fd);
/** Told each connection fd to poll as it comes (@add) and goes (!@add;
 * it may be closed by then): for an epoll loop.  The listeners are not
 * told of.  It runs inside the functions below and must not call them. */
typedef void (*bc_rpc_server_poll_fn)(void *userdata, int fd, bool add);
int bc_rpc_server_set_poll_fn(bc_rpc_server *srv, bc_rpc_server_poll_fn fn, void *userdata);
/**
 * The fds to poll (for POLLIN: listeners and connections, in no promised
 * order) in @fds[0..@max); returns how many there are, which may be more
 * than @max (then give it a bigger array).  *@ret_timeout_ms (if not NULL):
 * what poll() should wait at most, in ms, for the next set-up deadline
 * (-1: none).  Drops the set-ups past theirs and forgets sessions that
 * ended.  -ESHUTDOWN after bc_rpc_server_shutdown(), -ENOENT if nothing
 * of @srv is polled.
 */
int bc_rpc_server_get_pollfds(bc_rpc_server *srv, struct pollfd *fds, size_t max, int *ret_timeout_ms);
/**
 * @fd polled readable (or hung up): a listener's connections accepted (a
 * few at a time), or a connection's input taken and every whole command
 * in it served, without waiting for more.  @fd -1: only the set-up
 * deadlines.  0; -ENOENT for an fd that is not (or no longer) polled (a
 * stale revents: harmless); -ESHUTDOWN after bc_rpc_server_shutdown();
 * -errno of accept() (e.g. -EMFILE: stop polling the listener until a
 * session ends).  What ended a session is bc_rpc_session_get_error()'s,
 * not the loop's.
 */
int bc_rpc_server_handle_polled(bc_rpc_server *srv, int fd);

#ifdef __cplusplus
}
#endif

#endif
