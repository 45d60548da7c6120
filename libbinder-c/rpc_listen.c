/* SPDX-License-Identifier: MIT */
/*
 * An RPC server's accept loop and its limits: bc_rpc_server_join()
 * accepts connections on a listening socket and serves each on a thread
 * of its own; bc_rpc_server_shutdown() stops the loops and ends every
 * session the server serves, however it was handed over.
 *
 * A connection flood costs a bounded number of threads: the sessions'
 * connections (max_sessions times max_threads), and one more per session
 * for a set-up under way; a connection beyond them is closed as soon as
 * it is accepted, a new session beyond max_sessions before any byte of
 * it is read (a client sees its set-up fail with -EPIPE).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rpc_internal.h"

int bc_rpc_server_set_max_sessions(bc_rpc_server *srv, unsigned max)
{
	if (!srv || max == 0)
		return -EINVAL;
	pthread_mutex_lock(&srv->mu);
	srv->max_sessions = max;
	pthread_mutex_unlock(&srv->mu);
	return 0;
}

int bc_rpc_server_set_max_threads(bc_rpc_server *srv, unsigned max)
{
	if (!srv || max == 0 || max > BINDERC_RPC_MAX_THREADS)
		return -EINVAL;
	pthread_mutex_lock(&srv->mu);
	srv->max_threads = max;
	pthread_mutex_unlock(&srv->mu);
	return 0;
}

int bc_rpc_server_set_max_incoming(bc_rpc_server *srv, unsigned max)
{
	if (!srv || max > BINDERC_RPC_MAX_THREADS)
		return -EINVAL;
	pthread_mutex_lock(&srv->mu);
	srv->max_incoming = max;
	pthread_mutex_unlock(&srv->mu);
	return 0;
}

int bc_rpc_server_set_setup_timeout(bc_rpc_server *srv, unsigned ms)
{
	if (!srv)
		return -EINVAL;
	pthread_mutex_lock(&srv->mu);
	srv->setup_timeout_ms = ms;
	pthread_mutex_unlock(&srv->mu);
	return 0;
}

int bc__rpc_server_may_add(bc_rpc_server *srv)
{
	int r = 0;

	pthread_mutex_lock(&srv->mu);
	if (srv->shut_down)
		r = -ESHUTDOWN;
	else if (srv->n_sessions >= srv->max_sessions)
		r = -EUSERS;
	pthread_mutex_unlock(&srv->mu);
	return r;
}

bc_rpc_session *bc__rpc_server_find_session(bc_rpc_server *srv, const uint8_t *id)
{
	bc_rpc_session *s = NULL;

	pthread_mutex_lock(&srv->mu);
	for (size_t i = 0; i < srv->n_sessions && !s; i++) {
		bc_rpc_session *x = srv->sessions[i];

		/* every byte compared: how far a guess matched must not show */
		unsigned diff = 0;

		for (size_t k = 0; k < BC_RPC_SESSION_ID_SIZE; k++)
			diff |= (unsigned)(x->id[k] ^ id[k]);
		if (!diff && !atomic_load(&x->dead))
			s = bc_rpc_session_ref(x);
	}
	pthread_mutex_unlock(&srv->mu);
	return s;
}

int bc__rpc_server_add_session(bc_rpc_server *srv, bc_rpc_session *s)
{
	bc_rpc_session **ns = NULL;
	int r = 0;

	for (;;) {
		pthread_mutex_lock(&srv->mu);
		if (srv->shut_down) {
			r = -ESHUTDOWN;
		} else if (srv->n_sessions >= srv->max_sessions) {
			r = -EUSERS;
		} else if (srv->n_sessions == srv->cap_sessions && ns) {
			/* the array made unlocked, if nobody grew it meanwhile */
			if (srv->n_sessions)
				memcpy(ns, srv->sessions, srv->n_sessions * sizeof(*ns));
			free(srv->sessions);
			srv->sessions = ns;
			srv->cap_sessions = srv->cap_sessions ? srv->cap_sessions * 2 : 4;
			ns = NULL;
		}
		if (r == 0 && srv->n_sessions < srv->cap_sessions) {
			srv->sessions[srv->n_sessions++] = bc_rpc_session_ref(s);
			pthread_mutex_unlock(&srv->mu);
			break;
		}
		{
			size_t want = srv->cap_sessions ? srv->cap_sessions * 2 : 4;

			pthread_mutex_unlock(&srv->mu);
			free(ns);
			ns = NULL;
			if (r < 0)
				return r;
			ns = malloc(want * sizeof(*ns));
			if (!ns)
				return -ENOMEM;
		}
	}
	free(ns);
	return 0;
}

void bc__rpc_server_remove_session(bc_rpc_server *srv, bc_rpc_session *s)
{
	bool found = false;

	pthread_mutex_lock(&srv->mu);
	for (size_t i = 0; i < srv->n_sessions && !found; i++) {
		if (srv->sessions[i] == s) {
			srv->sessions[i] = srv->sessions[--srv->n_sessions];
			found = true;
		}
	}
	pthread_mutex_unlock(&srv->mu);
	if (found)
		bc_rpc_session_unref(s);
}

struct conn_job {
	bc_rpc_server *srv; /* referenced */
	int fd;
};

static void *conn_main(void *arg)
{
	struct conn_job *j = arg;
	bc_rpc_server *srv = j->srv;

	/* what ended the session is the session's business, not the loop's */
	(void)bc_rpc_server_serve_fd(srv, j->fd);
	free(j);
	pthread_mutex_lock(&srv->mu);
	srv->n_threads--;
	pthread_cond_broadcast(&srv->cv);
	pthread_mutex_unlock(&srv->mu);
	bc_rpc_server_unref(srv);
	return NULL;
}

/* Serve @fd on a new thread, unless the limit is reached (closed then):
 * each session's connections served, and one more per session for a
 * set-up or an incoming connection's short hand-over. */
static void spawn(bc_rpc_server *srv, int fd)
{
	struct conn_job *j = NULL;
	pthread_attr_t attr;
	pthread_t t;
	bool room;

	pthread_mutex_lock(&srv->mu);
	room = !srv->shut_down && srv->n_threads < srv->max_sessions * (srv->max_threads + 1);
	if (room)
		srv->n_threads++;
	pthread_mutex_unlock(&srv->mu);
	if (room)
		j = malloc(sizeof(*j));
	if (j) {
		j->srv = bc_rpc_server_ref(srv);
		j->fd = fd;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		if (pthread_create(&t, &attr, conn_main, j) != 0) {
			bc_rpc_server_unref(srv);
			free(j);
			j = NULL;
		}
		pthread_attr_destroy(&attr);
	}
	if (j)
		return;
	/* turned away: over the limit, or no memory or thread for it */
	close(fd);
	if (room) {
		pthread_mutex_lock(&srv->mu);
		srv->n_threads--;
		pthread_cond_broadcast(&srv->cv);
		pthread_mutex_unlock(&srv->mu);
	}
}

static int listener_add(bc_rpc_server *srv, int lfd)
{
	int *nl = NULL;
	size_t cap;
	int r = 0;

	pthread_mutex_lock(&srv->mu);
	cap = srv->n_listeners + 1;
	pthread_mutex_unlock(&srv->mu);
	nl = malloc(cap * sizeof(*nl));
	if (!nl)
		return -ENOMEM;
	pthread_mutex_lock(&srv->mu);
	if (srv->shut_down) {
		r = -ESHUTDOWN;
	} else if (srv->n_listeners + 1 > cap) {
		r = -EBUSY; /* another join started meanwhile: rare, refused */
	} else {
		if (srv->n_listeners)
			memcpy(nl, srv->listeners, srv->n_listeners * sizeof(*nl));
		free(srv->listeners);
		nl[srv->n_listeners++] = lfd;
		srv->listeners = nl;
		nl = NULL;
	}
	pthread_mutex_unlock(&srv->mu);
	free(nl);
	return r;
}

static void listener_remove(bc_rpc_server *srv, int lfd)
{
	pthread_mutex_lock(&srv->mu);
	for (size_t i = 0; i < srv->n_listeners; i++) {
		if (srv->listeners[i] == lfd) {
			srv->listeners[i] = srv->listeners[--srv->n_listeners];
			break;
		}
	}
	pthread_mutex_unlock(&srv->mu);
}

int bc_rpc_server_join(bc_rpc_server *srv, int listen_fd)
{
	int r;

	if (!srv || listen_fd < 0)
		return -EINVAL;
	r = listener_add(srv, listen_fd);
	if (r < 0)
		return r;
	for (;;) {
		int fd = -1;
		bool stop;

		r = bc_rpc_accept(listen_fd, &fd);
		pthread_mutex_lock(&srv->mu);
		stop = srv->shut_down;
		pthread_mutex_unlock(&srv->mu);
		if (stop) {
			if (fd >= 0)
				close(fd);
			r = 0;
			break;
		}
		if (r == -EMFILE || r == -ENFILE || r == -ENOBUFS || r == -ENOMEM) {
			/* out of fds or memory: the clients already served
			 * will free some; the one waiting stays queued */
			pthread_mutex_lock(&srv->mu);
			if (srv->n_threads && !srv->shut_down)
				pthread_cond_wait(&srv->cv, &srv->mu);
			stop = srv->shut_down || !srv->n_threads;
			pthread_mutex_unlock(&srv->mu);
			if (stop)
				break;
			continue;
		}
		if (r < 0)
			break;
		spawn(srv, fd);
	}
	listener_remove(srv, listen_fd);
	return r;
}

void bc_rpc_server_shutdown(bc_rpc_server *srv)
{
	bc_rpc_session **ss;
	size_t n;

	if (!srv)
		return;
	pthread_mutex_lock(&srv->mu);
	srv->shut_down = true;
	/* wakes each join's accept() (Linux fails it with EINVAL) */
	for (size_t i = 0; i < srv->n_listeners; i++)
		shutdown(srv->listeners[i], SHUT_RDWR);
	/* the sessions, referenced, to end outside the lock */
	n = srv->n_sessions;
	ss = malloc((n ? n : 1) * sizeof(*ss));
	for (size_t i = 0; ss && i < n; i++)
		ss[i] = bc_rpc_session_ref(srv->sessions[i]);
	pthread_mutex_unlock(&srv->mu);
	if (!ss) {
		/* no memory for a copy: end them under the lock (no I/O but a
		 * shutdown(2); their threads take mu only after it) */
		pthread_mutex_lock(&srv->mu);
		for (size_t i = 0; i < srv->n_sessions; i++)
			bc__rpc_fail(srv->sessions[i], -ESHUTDOWN);
		pthread_mutex_unlock(&srv->mu);
	} else {
		for (size_t i = 0; i < n; i++) {
			bc__rpc_fail(ss[i], -ESHUTDOWN);
			bc_rpc_session_unref(ss[i]);
		}
		free(ss);
	}
	/* the polled ones have no thread: ended here */
	bc__rpc_server_polled_stop(srv);
	/* the joins' connection threads end with their sessions */
	pthread_mutex_lock(&srv->mu);
	while (srv->n_threads)
		pthread_cond_wait(&srv->cv, &srv->mu);
	pthread_mutex_unlock(&srv->mu);
}
