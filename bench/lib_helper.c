// SPDX-License-Identifier: MIT
/*
 * binderc-bench-lib: the library rows of the "api" workload, and the
 * RPC row of the "rpc" workload (lib_rpc.c; DEVICE and KEY unused).
 *
 *   binderc-bench-lib lbc|ffi|rpc DEVICE KEY ITERS WARMUP PAYLOAD
 *
 * Started by binderc-bench (run_helper) with fd 3 as the result stream
 * (struct rhdr, then ITERS uint64 round-trip times in ns).  Forks a server
 * and acts as the client, both through libbinder-c:
 *   lbc  a bc_class object answering with an empty reply;
 *        client: bc_binder_new_parcel + bc_binder_transact per call
 *   ffi  a bc_iface stub (libffi dispatch) of one method "ping" (in "",
 *        out ""); client: the libffi closure of a bc_iface proxy
 * The rendezvous is binderc-bench's registry on handle 0 (same protocol
 * as the raw client), with the Android 9 parcel dialect so that a binder
 * in a parcel is a bare flat_binder_object.
 */
#include "bench.h"
#include "bbinder.h"
#include "lib_helper.h"

#include <binderc/binderc.h>
#include <binderc/iface.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint8_t *bench_payload;
size_t bench_payload_size;

#define PING_METHODS(METHOD, ONEWAY, IN, OUT) METHOD(ping, , )
BINDERC_IFACE_DECLARE(bench_ping, "org.binderc.bench.IPing", PING_METHODS);

static int ping_impl(void *self)
{
	(void)self;
	return 0;
}

int lib_on_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata)
{
	(void)self;
	(void)txn;
	(void)code;
	(void)in;
	(void)reply;
	(void)userdata;
	return 0;
}

static int open_proc(const char *dev, bc_process **p)
{
	int r = bc_process_open(dev, p);
	if (r < 0)
		return bench_fail(r, "bc_process_open %s: %s", dev, strerror(-r));
	if ((r = bc_process_set_wire(*p, BINDERC_WIRE_ANDROID_9, BINDERC_PARTITION_SYSTEM)) < 0)
		return bench_fail(r, "bc_process_set_wire: %s", strerror(-r));
	if ((r = bc_process_set_max_threads(*p, 0)) < 0)
		return bench_fail(r, "bc_process_set_max_threads: %s", strerror(-r));
	return 0;
}

static int serve(const char *mode, const char *dev, unsigned key, int ready)
{
	bc_process *p;
	bc_binder *obj = NULL, *sm = NULL;
	bc_parcel *req = NULL, *rep = NULL;
	int r;

	if ((r = open_proc(dev, &p)) < 0)
		return r;
	if (!strcmp(mode, "ffi")) {
		static const struct bench_ping impl = { .ping = ping_impl };
		bc_iface *ifc;
		char *msg = NULL;
		if ((r = bc_iface_new(&bench_ping_def, &ifc, &msg)) < 0)
			return bench_fail(r, "bc_iface_new: %s", msg ? msg : strerror(-r));
		if ((r = bc_iface_stub_new(ifc, &impl, NULL, NULL, &obj)) < 0)
			return bench_fail(r, "bc_iface_stub_new: %s", strerror(-r));
	} else {
		bc_class *cls;
		if ((r = bc_class_new("org.binderc.bench.IRaw", lib_on_transact, NULL, 0, &cls)) < 0)
			return bench_fail(r, "bc_class_new: %s", strerror(-r));
		if ((r = bc_binder_new(cls, NULL, &obj)) < 0)
			return bench_fail(r, "bc_binder_new: %s", strerror(-r));
	}
	if ((r = bc_process_get_handle(p, 0, &sm)) < 0)
		return bench_fail(r, "get handle 0: %s", strerror(-r));
	if ((r = bc_process_new_parcel(p, &req)) < 0 || (r = bc_parcel_write_uint32(req, key)) < 0 ||
	    (r = bc_parcel_write_binder(req, obj)) < 0)
		return bench_fail(r, "register parcel: %s", strerror(-r));
	if ((r = bc_binder_transact(sm, BENCH_REG_CODE, req, &rep, 0, NULL)) < 0)
		return bench_fail(r, "register: %s", strerror(-r));
	bc_parcel_unref(req);
	bc_parcel_unref(rep);
	if ((r = write_full(ready, "r", 1)) < 0)
		return r;
	close(ready);
	r = bc_process_join(p);
	return bench_fail(r < 0 ? r : -EIO, "bc_process_join returned %d", r);
}

static int lookup(bc_process *p, unsigned key, bc_binder **ret)
{
	bc_binder *sm;
	uint64_t end = now_ns() + 5000000000u;
	int r;

	if ((r = bc_process_get_handle(p, 0, &sm)) < 0)
		return bench_fail(r, "get handle 0: %s", strerror(-r));
	for (;;) {
		bc_parcel *req = NULL, *rep = NULL;
		if ((r = bc_process_new_parcel(p, &req)) < 0 || (r = bc_parcel_write_uint32(req, key)) < 0)
			return bench_fail(r, "lookup parcel: %s", strerror(-r));
		if ((r = bc_binder_transact(sm, BENCH_LOOKUP_CODE, req, &rep, 0, NULL)) < 0)
			return bench_fail(r, "lookup: %s", strerror(-r));
		bc_parcel_unref(req);
		size_t n = 0;
		bc_parcel_offsets(rep, &n);
		if (n) {
			r = bc_parcel_read_binder(rep, ret);
			bc_parcel_unref(rep);
			if (r < 0 || !*ret)
				return bench_fail(r < 0 ? r : -ENOENT, "lookup: read binder: %s", strerror(-r));
			bc_binder_unref(sm);
			return 0;
		}
		bc_parcel_unref(rep);
		if (now_ns() > end)
			return bench_fail(-ENOENT, "lookup: key %u not registered", key);
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
}

static int client(const char *mode, const char *dev, unsigned key, long iters, long warm, size_t payload,
		  struct rhdr *h, uint64_t *s)
{
	bc_process *p;
	bc_binder *srv;
	int r;

	if ((r = open_proc(dev, &p)) < 0 || (r = lookup(p, key, &srv)) < 0)
		return r;
	if (!strcmp(mode, "ffi")) {
		bc_iface *ifc;
		bc_iface_proxy *px;
		char *msg = NULL;
		if ((r = bc_iface_new(&bench_ping_def, &ifc, &msg)) < 0)
			return bench_fail(r, "bc_iface_new: %s", msg ? msg : strerror(-r));
		if ((r = bc_iface_proxy_new(ifc, srv, &px)) < 0)
			return bench_fail(r, "bc_iface_proxy_new: %s", strerror(-r));
		const struct bench_ping *m = bc_iface_proxy_methods(px);
		for (long i = 0; i < warm; i++)
			if ((r = m->ping(px)) != 0)
				return bench_fail(r < 0 ? r : -EIO, "ping: %d", r);
		uint64_t t0 = now_ns(), prev = t0;
		for (long i = 0; i < iters; i++) {
			if ((r = m->ping(px)) != 0)
				return bench_fail(r < 0 ? r : -EIO, "ping: %d", r);
			uint64_t t = now_ns();
			s[i] = t - prev;
			prev = t;
		}
		h->elapsed_ns = prev - t0;
	} else if ((r = lib_call_loop(srv, iters, warm, payload, h, s)) < 0) {
		return r;
	}
	h->count = h->n = (uint32_t)iters;
	return 0;
}

int lib_call_loop(bc_binder *srv, long iters, long warm, size_t payload, struct rhdr *h, uint64_t *s)
{
	uint64_t t0 = 0, prev = 0;
	int r;

	for (long i = -warm; i < iters; i++) {
		bc_parcel *req = NULL, *rep = NULL;
		if (i == 0)
			t0 = prev = now_ns();
		if ((r = bc_binder_new_parcel(srv, &req)) < 0)
			return bench_fail(r, "bc_binder_new_parcel: %s", strerror(-r));
		if (payload && (r = bc_parcel_write_raw(req, bench_payload, payload)) < 0)
			return bench_fail(r, "bc_parcel_write_raw: %s", strerror(-r));
		if ((r = bc_binder_transact(srv, BENCH_CALL_CODE, req, &rep, 0, NULL)) < 0)
			return bench_fail(r, "bc_binder_transact: %s", strerror(-r));
		bc_parcel_unref(req);
		bc_parcel_unref(rep);
		if (i >= 0) {
			uint64_t t = now_ns();
			s[i] = t - prev;
			prev = t;
		}
	}
	h->elapsed_ns = prev - t0;
	h->count = h->n = (uint32_t)iters;
	return 0;
}

/* The result stream on fd 3: the header (the error, when @r < 0), then
 * the samples. */
static void send_result(int r, struct rhdr *h, const uint64_t *s)
{
	if (r < 0) {
		*h = (struct rhdr){ .status = r };
		bench_fmt(h->err, sizeof(h->err), "%s", bench_err);
	}
	write_full(3, h, sizeof(*h));
	if (h->n)
		write_full(3, s, h->n * sizeof(*s));
}

int main(int argc, char **argv)
{
	struct rhdr h = { 0 };
	int r;

	if (argc != 7 || (strcmp(argv[1], "lbc") && strcmp(argv[1], "ffi") && strcmp(argv[1], "rpc"))) {
		fprintf(stderr,
			"usage: binderc-bench-lib lbc|ffi|rpc DEVICE KEY ITERS WARMUP PAYLOAD (fd 3: results)\n");
		return 2;
	}
	const char *mode = argv[1], *dev = argv[2];
	unsigned key = (unsigned)strtoul(argv[3], NULL, 0);
	long iters = atol(argv[4]), warm = atol(argv[5]);
	size_t payload = strtoul(argv[6], NULL, 0);
	unsigned left = alarm(0);

	alarm(left ? left : 120);
	signal(SIGPIPE, SIG_IGN);
	bench_payload_size = payload ? payload : 1;
	bench_payload = calloc(1, bench_payload_size);
	uint64_t *s = calloc(iters > 0 ? (size_t)iters : 1, sizeof(*s));
	if (!bench_payload || !s || iters <= 0)
		return 2;

	if (!strcmp(mode, "rpc")) {
		/* no device, no registry: the session's own server */
		bench_err[0] = 0;
		r = lib_rpc_run(iters, warm, payload, &h, s);
		send_result(r, &h, s);
		return r < 0;
	}
	int rp[2];
	if (pipe2(rp, O_CLOEXEC) < 0)
		return 2;
	pid_t srv = fork();
	if (srv == 0) {
		alarm(left ? left : 120);
		close(rp[0]);
		r = serve(mode, dev, key, rp[1]);
		char m[BENCH_ERRLEN + 1];
		bench_fmt(m, sizeof(m), "E%s", bench_err);
		write_full(rp[1], m, strlen(m));
		_exit(1);
	}
	close(rp[1]);
	char buf[BENCH_ERRLEN + 1] = { 0 };
	int wr = wait_readable(rp[0], 15000);
	ssize_t n = wr > 0 ? read(rp[0], buf, sizeof(buf) - 1) : 0;
	if (srv < 0 || n < 1 || buf[0] != 'r') {
		h.status = -EIO;
		bench_fmt(h.err, sizeof(h.err), "server: %s", n > 1 ? buf + 1 : "did not start");
		write_full(3, &h, sizeof(h));
		return 1;
	}
	bench_err[0] = 0;
	r = client(mode, dev, key, iters, warm, payload, &h, s);
	send_result(r, &h, s);
	kill(srv, SIGKILL);
	return r < 0;
}
