// SPDX-License-Identifier: MIT
/*
 * kv-service: an in-memory key-value store registered as "kv" (kv.h).
 * Values are byte buffers; put_string/get_string store UTF-8 text.  Clients
 * may register IKvListener objects: each change is sent to them one-way
 * through a proxy built from the listener description.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <binderc/binderc.h>
#include <binderc/iface.h>
#include <binderc/servicemanager.h>

#include "kv.h"

#define MAX_LISTENERS 16

struct entry {
	struct entry *next;
	char *key;
	void *value;
	size_t len;
};

struct store {
	pthread_mutex_t lock;
	struct entry *entries;
	int n;
	bc_iface *listener_iface;
	bc_iface_proxy *listeners[MAX_LISTENERS];
};

static struct entry **find(struct store *s, const char *key)
{
	struct entry **pp;

	for (pp = &s->entries; *pp; pp = &(*pp)->next)
		if (!strcmp((*pp)->key, key))
			break;
	return pp;
}

/* Tell the listeners (called with the lock held; the calls are one-way). */
static void notify(struct store *s, const char *key, bool present)
{
	for (int k = 0; k < MAX_LISTENERS; k++) {
		bc_iface_proxy *p = s->listeners[k];

		if (p && ((const struct kv_listener *)bc_iface_proxy_methods(p))->changed(p, key, present) < 0)
			s->listeners[k] = bc_iface_proxy_unref(p); /* gone */
	}
}

static int set(struct store *s, const char *key, const void *value, size_t len, bool *replaced)
{
	struct entry **pp, *e;
	void *copy = malloc(len ? len : 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, value, len);
	pthread_mutex_lock(&s->lock);
	pp = find(s, key);
	e = *pp;
	if (replaced)
		*replaced = e != NULL;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (e)
			e->key = strdup(key);
		if (!e || !e->key) {
			pthread_mutex_unlock(&s->lock);
			free(e), free(copy);
			return -ENOMEM;
		}
		*pp = e;
		s->n++;
	}
	free(e->value);
	e->value = copy;
	e->len = len;
	notify(s, key, true);
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static int kv_put(void *self, const char *key, const void *value, size_t value_len, bool *replaced)
{
	return set(self, key, value, value_len, replaced);
}

static int kv_get(void *self, const char *key, void **value, size_t *value_len)
{
	struct store *s = self;
	struct entry *e;
	int r = 0;

	pthread_mutex_lock(&s->lock);
	e = *find(s, key);
	*value = NULL; /* absent: a null byte[] */
	if (e) {
		*value = malloc(e->len ? e->len : 1);
		if (*value) {
			memcpy(*value, e->value, e->len);
			*value_len = e->len;
		} else {
			r = -ENOMEM;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

static int kv_remove(void *self, const char *key, bool *removed)
{
	struct store *s = self;
	struct entry **pp, *e;

	pthread_mutex_lock(&s->lock);
	pp = find(s, key);
	e = *pp;
	*removed = e != NULL;
	if (e) {
		*pp = e->next;
		s->n--;
		notify(s, key, false);
		free(e->key), free(e->value), free(e);
	}
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static int kv_keys(void *self, const char *prefix, char ***keys, size_t *keys_len)
{
	struct store *s = self;
	size_t n = 0, plen = prefix ? strlen(prefix) : 0;

	pthread_mutex_lock(&s->lock);
	*keys = calloc((size_t)s->n + 1, sizeof(char *));
	if (!*keys) {
		pthread_mutex_unlock(&s->lock);
		return -ENOMEM;
	}
	for (struct entry *e = s->entries; e; e = e->next)
		if (!prefix || !strncmp(e->key, prefix, plen))
			if (((*keys)[n] = strdup(e->key)))
				n++;
	pthread_mutex_unlock(&s->lock);
	*keys_len = n;
	return 0;
}

static int kv_size(void *self, int32_t *n)
{
	struct store *s = self;

	pthread_mutex_lock(&s->lock);
	*n = s->n;
	pthread_mutex_unlock(&s->lock);
	return 0;
}

static int kv_put_string(void *self, const char *key, const char *value)
{
	return set(self, key, value, strlen(value), NULL);
}

static int kv_get_string(void *self, const char *key, char **value)
{
	void *v = NULL;
	size_t n = 0;
	int r = kv_get(self, key, &v, &n);

	*value = NULL;
	if (r < 0 || !v)
		return r;
	if (memchr(v, 0, n)) {
		free(v);
		return bc_iface_throw(BINDERC_EX_ILLEGAL_STATE, "the value is not a string");
	}
	*value = malloc(n + 1);
	if (*value) {
		memcpy(*value, v, n);
		(*value)[n] = 0;
	}
	free(v);
	return *value ? 0 : -ENOMEM;
}

/* Write "key=value" lines (values shown as text or hex) to the caller's fd. */
static int kv_dump(void *self, int out, int32_t *written)
{
	struct store *s = self;
	int32_t total = 0;

	pthread_mutex_lock(&s->lock);
	for (struct entry *e = s->entries; e; e = e->next) {
		char line[512];
		int n = snprintf(line, sizeof(line), "%s=", e->key);
		bool text = !memchr(e->value, 0, e->len);

		for (size_t k = 0; k < e->len && n < (int)sizeof(line) - 4; k++) {
			unsigned char c = ((unsigned char *)e->value)[k];

			n += text && c >= 0x20 ? snprintf(line + n, sizeof(line) - (size_t)n, "%c", c)
					       : snprintf(line + n, sizeof(line) - (size_t)n, "\\x%02x", c);
		}
		n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
		if (write(out, line, (size_t)n) != n) {
			pthread_mutex_unlock(&s->lock);
			return -EIO;
		}
		total += n;
	}
	pthread_mutex_unlock(&s->lock);
	*written = total;
	return 0;
}

static int kv_watch(void *self, bc_binder *listener)
{
	struct store *s = self;
	int r = -ENOSPC;

	pthread_mutex_lock(&s->lock);
	for (int k = 0; k < MAX_LISTENERS && r == -ENOSPC; k++)
		if (!s->listeners[k])
			r = bc_iface_proxy_new(s->listener_iface, listener, &s->listeners[k]);
	pthread_mutex_unlock(&s->lock);
	return r;
}

static const struct kv kv_impl = {
	.put = kv_put,
	.get = kv_get,
	.remove = kv_remove,
	.keys = kv_keys,
	.size = kv_size,
	.put_string = kv_put_string,
	.get_string = kv_get_string,
	.dump = kv_dump,
	.watch = kv_watch,
};

int main(void)
{
	static struct store store = { .lock = PTHREAD_MUTEX_INITIALIZER };
	bc_process *proc = NULL;
	bc_iface *iface = NULL;
	bc_binder *obj = NULL;
	bc_sm *sm = NULL;
	int r;

	r = bc_iface_new(&kv_def, &iface, NULL);
	if (r == 0)
		r = bc_iface_new(&kv_listener_def, &store.listener_iface, NULL);
	if (r == 0)
		r = bc_process_open(NULL, &proc);
	if (r == 0)
		r = bc_iface_stub_new(iface, &kv_impl, &store, NULL, &obj);
	if (r == 0)
		r = bc_sm_new(proc, BINDERC_SM_DIALECT_DEFAULT, &sm);
	if (r == 0)
		r = bc_sm_add(sm, KV_SERVICE_NAME, obj, 0, 0);
	if (r < 0) {
		fprintf(stderr, "kv-service: %s\n", strerror(-r));
		return 1;
	}
	printf("kv-service: registered '%s' (%s) on %s\n", KV_SERVICE_NAME, bc_iface_get_descriptor(iface),
	       bc_process_get_device(proc));
	fflush(stdout);
	r = bc_process_join(proc);
	bc_sm_unref(sm);
	bc_binder_unref(obj);
	bc_iface_unref(iface);
	bc_process_unref(proc);
	return r < 0;
}
