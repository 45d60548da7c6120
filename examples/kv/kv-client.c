// SPDX-License-Identifier: MIT
/*
 * kv-client: uses "kv" (kv.h) through the typed proxy.
 *
 *   kv-client                  a tour: every method, and a listener object
 *                              of our own that the service calls back
 *   kv-client put KEY VALUE    store a string
 *   kv-client get KEY          print it
 *   kv-client rm KEY           remove it
 *   kv-client keys [PREFIX]    list keys
 *   kv-client dump             the service writes its entries to our stdout
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/iface.h>
#include <binderc/servicemanager.h>

#include "kv.h"

static atomic_int heard;

/* Our listener: called by the service, on one of our pool threads. */
static int on_changed(void *self, const char *key, bool present)
{
	(void)self;
	printf("  listener: '%s' %s\n", key, present ? "set" : "removed");
	fflush(stdout);
	atomic_fetch_add(&heard, 1);
	return 0;
}

static const struct kv_listener listener_impl = { .changed = on_changed };

static int fail(const char *what, int r)
{
	const bc_status *st = bc_iface_last_status();

	if (r == -EREMOTEIO)
		fprintf(stderr, "kv-client: %s: %s: %s\n", what, bc_exception_name(st->exception),
			st->message ? st->message : "");
	else
		fprintf(stderr, "kv-client: %s: %s\n", what, strerror(r < 0 ? -r : EPROTO));
	return 1;
}

static int print_keys(bc_iface_proxy *p, const struct kv *kv, const char *prefix)
{
	char **keys;
	size_t n;
	int r = kv->keys(p, prefix, &keys, &n);

	if (r)
		return fail("keys", r);
	for (size_t k = 0; k < n; k++)
		printf("%s\n", keys[k]);
	bc_strv_free(keys, n);
	return 0;
}

static int tour(bc_process *proc, bc_iface_proxy *p, const struct kv *kv)
{
	static const uint8_t blob[] = { 0xde, 0xad, 0x00, 0xbe, 0xef };
	bc_iface *li = NULL;
	bc_binder *listener = NULL;
	bool replaced, removed;
	void *v;
	size_t n;
	char *s;
	int32_t count, written;
	int r;

	/* a listener object of ours, served by a thread pool */
	r = bc_process_start_thread_pool(proc);
	if (r == 0)
		r = bc_iface_new(&kv_listener_def, &li, NULL);
	if (r == 0)
		r = bc_iface_stub_new(li, &listener_impl, NULL, NULL, &listener);
	if (r == 0)
		r = kv->watch(p, listener);
	if (r)
		return fail("watch", r);
	printf("watching for changes\n");

	if ((r = kv->put(p, "blob", blob, sizeof(blob), &replaced)))
		return fail("put", r);
	printf("put blob (5 bytes): replaced=%s\n", replaced ? "yes" : "no");
	if ((r = kv->put_string(p, "greeting", "hello, binder")) || (r = kv->put_string(p, "lang", "C11")))
		return fail("put_string", r);
	if ((r = kv->get(p, "blob", &v, &n)))
		return fail("get", r);
	printf("get blob: %zu bytes, first 0x%02x\n", n, ((uint8_t *)v)[0]);
	free(v);
	if ((r = kv->get(p, "missing", &v, &n)))
		return fail("get", r);
	printf("get missing: %s\n", v ? "?" : "null (absent)");
	if ((r = kv->get_string(p, "greeting", &s)))
		return fail("get_string", r);
	printf("get_string greeting: \"%s\"\n", s);
	free(s);
	r = kv->get_string(p, "blob", &s);
	printf("get_string blob: %s (%s)\n", r == -EREMOTEIO ? "exception" : "?",
	       bc_iface_last_status()->message ? bc_iface_last_status()->message : "");
	if ((r = kv->size(p, &count)))
		return fail("size", r);
	printf("size: %d\nkeys:\n", count);
	print_keys(p, kv, NULL);
	printf("dump (the service writes to our stdout, passed as an fd):\n");
	fflush(stdout);
	if ((r = kv->dump(p, STDOUT_FILENO, &written)))
		return fail("dump", r);
	printf("(%d bytes)\n", written);
	if ((r = kv->remove(p, "lang", &removed)))
		return fail("remove", r);
	printf("remove lang: %s\n", removed ? "removed" : "absent");

	/* four changes were sent to the listener, one-way */
	for (int k = 0; k < 200 && atomic_load(&heard) < 4; k++)
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	printf("listener heard %d changes\n", atomic_load(&heard));
	r = atomic_load(&heard) == 4 ? 0 : 1;
	bc_binder_unref(listener);
	bc_iface_unref(li);
	return r;
}

int main(int argc, char **argv)
{
	bc_process *proc = NULL;
	bc_binder *obj = NULL;
	bc_iface *iface = NULL;
	bc_iface_proxy *p = NULL;
	bc_sm *sm = NULL;
	const struct kv *kv;
	bool b;
	char *s;
	int32_t w;
	int r, rc = 0;

	r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_get(sm, KV_SERVICE_NAME, &obj);
	if (r == 0)
		r = bc_iface_new(&kv_def, &iface, NULL);
	if (r == 0)
		r = bc_iface_proxy_new(iface, obj, &p);
	if (r < 0) {
		fprintf(stderr, "kv-client: %s\n", strerror(-r));
		return 1;
	}
	kv = bc_iface_proxy_methods(p);
	if (argc < 2) {
		rc = tour(proc, p, kv);
	} else if (!strcmp(argv[1], "put") && argc == 4) {
		r = kv->put_string(p, argv[2], argv[3]);
		rc = r ? fail("put", r) : 0;
	} else if (!strcmp(argv[1], "get") && argc == 3) {
		r = kv->get_string(p, argv[2], &s);
		if (r)
			rc = fail("get", r);
		else if (!s)
			rc = 1, fprintf(stderr, "kv-client: no key '%s'\n", argv[2]);
		else
			printf("%s\n", s);
		free(s);
	} else if (!strcmp(argv[1], "rm") && argc == 3) {
		r = kv->remove(p, argv[2], &b);
		rc = r ? fail("rm", r) : !b;
	} else if (!strcmp(argv[1], "keys") && argc <= 3) {
		rc = print_keys(p, kv, argc == 3 ? argv[2] : NULL);
	} else if (!strcmp(argv[1], "dump") && argc == 2) {
		fflush(stdout);
		r = kv->dump(p, STDOUT_FILENO, &w);
		rc = r ? fail("dump", r) : 0;
	} else {
		fprintf(stderr, "usage: kv-client [put KEY VALUE | get KEY | rm KEY | keys [PREFIX] | dump]\n");
		rc = 2;
	}
	bc_iface_proxy_unref(p);
	bc_iface_unref(iface);
	bc_binder_unref(obj);
	bc_sm_unref(sm);
	if (proc)
		bc_process_stop(proc);
	bc_process_unref(proc);
	return rc;
}
