// SPDX-License-Identifier: MIT
/*
 * binderc-bench: shared declarations.
 *
 * The benchmark runs every workload on several "contenders" (IPC
 * mechanisms).  Each measurement block runs in a forked runner process in
 * its own process group; the runner sends its result back through a pipe.
 * Every wait is bounded: the orchestrator kills a runner that overruns its
 * deadline, and every child also arms alarm() as a second line of defence.
 */
#ifndef BINDERC_BENCH_H
#define BINDERC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BENCH_ERRLEN 200

/* The error text of the last failure in this process (set with bench_fail). */
extern char bench_err[BENCH_ERRLEN];
/* Record an error message; returns @err (a negative errno) for chaining. */
int bench_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* snprintf that may truncate (error texts). */
void bench_fmt(char *dst, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

uint64_t now_ns(void);
/* Write/read exactly @len bytes (restarting on EINTR/short transfers). */
int write_full(int fd, const void *buf, size_t len);
int read_full(int fd, void *buf, size_t len);
/* Wait up to @ms for @fd to become readable: 1 readable, 0 timeout, <0 error. */
int wait_readable(int fd, int ms);

/* What one block measures. */
enum wl_kind {
	WL_LATENCY,  /* round trips, payload in the request, empty reply */
	WL_OBJECTS,  /* round trips carrying nobj binder objects or one fd */
	WL_PAIRS,    /* npairs client/server pairs for a fixed time */
	WL_ONEWAY,   /* oneway messages into one server */
	WL_MEMORY,   /* kernel memory per binder process (payload: 0 idle,
		      * 1 after a burst, 2 after memory pressure) */
};

struct workload {
	enum wl_kind kind;
	size_t payload;     /* request payload bytes */
	int nobj;           /* WL_OBJECTS: binder objects per request */
	bool fd;            /* WL_OBJECTS: carry one fd instead */
	int npairs;         /* WL_PAIRS */
	long iters;         /* WL_LATENCY/WL_OBJECTS: measured round trips;
			     * WL_ONEWAY: messages */
	long warmup;        /* unmeasured round trips first */
	double secs;        /* WL_PAIRS: measuring time */
	unsigned key;       /* binder: registry key base for this block */
	int rt_prio;        /* WL_LATENCY: >0, the client calls at SCHED_FIFO
			     * rt_prio with one busy process per CPU running */
	bool rt_inherit;    /* binder: the server's node asks for its callers'
			     * real-time priority (FLAT_BINDER_FLAG_INHERIT_RT) */
};

/* Per-client result of a WL_PAIRS run (small: fits one atomic pipe write;
 * the round-trip times go to the client's histogram in shared memory). */
struct pair_result {
	int32_t status;
	uint32_t pad;
	uint64_t count;
	uint64_t elapsed_ns;
	uint64_t sum_ns;
	char err[BENCH_ERRLEN];
};

/* WL_PAIRS: every client's round trips together, in microseconds; the
 * terms of binderThroughputTest (average, worst, best, percentiles). */
struct lat_summary {
	double avg, min, max, p50, p90, p95, p99;
};

/* What a runner (or an external helper, on fd 3) sends back: this header,
 * then n uint64 samples (ns per round trip). */
struct rhdr {
	int32_t status; /* 0 or -errno */
	uint32_t n;     /* samples that follow (uint64 ns each) */
	uint64_t count;
	uint64_t elapsed_ns;
	double tput;      /* WL_PAIRS/WL_ONEWAY: operations per second */
	struct lat_summary lat; /* WL_PAIRS */
	char err[BENCH_ERRLEN];
};

/*
 * One IPC mechanism.  Life of a block for one client/server pair:
 *   make() in the runner (before fork), then in the forked server
 *   serve(), and in the client connect(), call() per round trip or
 *   send_oneway() per message, close().
 * make() may leave state in the chan that the children share (fds, shared
 * memory); server and client close the ends that are not theirs in
 * server_init()/connect().
 */
struct chan;
struct ipc_ops {
	const char *name;
	bool binder;      /* needs the registry / a binder device */
	bool can_objects; /* supports nobj > 0 */
	bool can_fd;      /* supports passing one fd */
	bool can_oneway;
	int (*make)(struct chan *c, const struct workload *w, int index);
	/* In the server child: set up, write 1 byte to @ready_fd, serve until
	 * the client goes away; oneway messages are counted and, when
	 * w->iters have arrived, one byte is written to @done_fd. */
	int (*serve)(struct chan *c, const struct workload *w, int ready_fd, int done_fd);
	int (*connect)(struct chan *c, const struct workload *w);
	int (*call)(struct chan *c, const struct workload *w);
	int (*send_oneway)(struct chan *c, const struct workload *w);
	void (*close)(struct chan *c);
};

/* Opaque-ish channel state: big enough for every transport. */
struct chan {
	const struct ipc_ops *ops;
	const char *device;   /* binder device path */
	int index;            /* pair index */
	int fds[4];
	void *shm;
	size_t shm_size;
	void *priv;
};

extern const struct ipc_ops ipc_pipe, ipc_socket, ipc_futex, ipc_binder;

/* The memory workload on binder device @dev (memory.c): fills @h. */
void run_memory(const char *dev, const struct workload *w, struct rhdr *h);

/* Shared payload source buffer (filled once, at least the largest payload). */
extern uint8_t *bench_payload;
extern size_t bench_payload_size;

/* The binder registry (a tiny context manager) for @device: started once
 * per device by the orchestrator.  Returns its pid or -errno. */
pid_t registry_start(const char *device, int timeout_ms);

#endif
