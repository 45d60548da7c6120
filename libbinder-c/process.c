/* SPDX-License-Identifier: MIT */
/* Process state: the opened device, its mapping, threads and the pool. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static void thread_free(struct bc_thread *t, bool unlink)
{
	bc_process *proc = t->proc;

	ioctl(proc->fd, BINDER_THREAD_EXIT, 0);
	bc_txn_unref(t->spare);
	if (unlink) {
		pthread_mutex_lock(&proc->mu);
		for (struct bc_thread **pp = &proc->threads; *pp; pp = &(*pp)->next) {
			if (*pp == t) {
				*pp = t->next;
				break;
			}
		}
		pthread_mutex_unlock(&proc->mu);
	}
	free(t);
}

static void thread_exit_cb(void *arg)
{
	thread_free(arg, true);
}

struct bc_thread *bc__thread(bc_process *proc)
{
	struct bc_thread *t = pthread_getspecific(proc->key);

	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->proc = proc;
	if (pthread_setspecific(proc->key, t) != 0) {
		free(t);
		return NULL;
	}
	pthread_mutex_lock(&proc->mu);
	t->next = proc->threads;
	proc->threads = t;
	pthread_mutex_unlock(&proc->mu);
	return t;
}

static const char *default_device(void)
{
	const char *env = getenv("BINDER_DEVICE");

	if (env && *env)
		return env;
	if (access("/dev/binderc", F_OK) == 0)
		return "/dev/binderc";
	return "/dev/binder";
}

/* How far bc_process_open() got: what process_free() has to undo. */
enum process_setup {
	SETUP_LOCKS, /* the mutexes and condition variables */
	SETUP_OQ,    /* and the ordered queue */
	SETUP_KEY,   /* and the thread key */
};

/*
 * The one teardown of a process's own resources, for both a failed
 * bc_process_open() and bc__process_destroy(): whatever was set up, in
 * reverse.  The fd and the mapping tell for themselves (-1, MAP_FAILED).
 */
static void process_free(bc_process *p, enum process_setup done)
{
	if (done >= SETUP_KEY)
		pthread_key_delete(p->key);
	if (done >= SETUP_OQ)
		bc__oq_fini(p);
	if (p->map != MAP_FAILED)
		munmap(p->map, p->map_size);
	if (p->fd >= 0)
		close(p->fd);
	free(p->device);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->obj_mu);
	pthread_cond_destroy(&p->obj_cv);
	free(p);
}

int bc_process_open(const char *device, bc_process **ret)
{
	struct binder_version ver;
	bc_process *p;
	long page;
	int r;

	if (!ret)
		return -EINVAL;
	if (!device)
		device = default_device();
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	atomic_init(&p->refs, 1);
	atomic_init(&p->stopping, false);
	atomic_init(&p->deferred_free, 0);
	p->fd = -1;
	p->map = MAP_FAILED;
	p->wire = BINDERC_WIRE_DEFAULT;
	p->partition = BINDERC_PARTITION_SYSTEM;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	pthread_mutex_init(&p->obj_mu, NULL);
	pthread_cond_init(&p->obj_cv, NULL);
	if (bc__oq_init(p) < 0) {
		process_free(p, SETUP_LOCKS);
		return -ENOMEM;
	}
	if (pthread_key_create(&p->key, thread_exit_cb) != 0) {
		process_free(p, SETUP_OQ);
		return -EAGAIN;
	}
	p->device = strdup(device);
	if (!p->device) {
		r = -ENOMEM;
		goto fail;
	}
	p->fd = open(device, O_RDWR | O_CLOEXEC);
	if (p->fd < 0) {
		r = -errno;
		goto fail;
	}
	if (ioctl(p->fd, BINDER_VERSION, &ver) < 0) {
		r = -errno;
		goto fail;
	}
	if (ver.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION) {
		r = -EPROTO;
		goto fail;
	}
	page = sysconf(_SC_PAGESIZE);
	p->map_size = BINDERC_PROCESS_MAP_SIZE(page > 0 ? page : 4096);
	p->map = mmap(NULL, p->map_size, PROT_READ, MAP_PRIVATE | MAP_NORESERVE, p->fd, 0);
	if (p->map == MAP_FAILED) {
		r = -errno;
		goto fail;
	}
	r = bc_process_set_max_threads(p, BINDERC_PROCESS_DEFAULT_MAX_THREADS);
	if (r < 0)
		goto fail;
	*ret = p;
	return 0;
fail:
	process_free(p, SETUP_KEY);
	return r;
}

/* Only ref is generated: the last unref may have to be left to the pool
 * thread it runs on (below). */
BINDERC_DEFINE_REF(bc_process, bc_process);

static bool on_pool_thread(bc_process *p)
{
	struct bc_thread *t = pthread_getspecific(p->key);

	return t && t->is_pool;
}

bc_process *bc_process_unref(bc_process *p)
{
	if (!p || atomic_fetch_sub(&p->refs, 1) != 1)
		return NULL;
	if (on_pool_thread(p)) {
		/* The pool thread destroys the process once its loop ends. */
		pthread_mutex_lock(&p->mu);
		p->destroy_pending = true;
		atomic_store(&p->stopping, true);
		pthread_mutex_unlock(&p->mu);
		return NULL;
	}
	bc__process_destroy(p);
	return NULL;
}

const char *bc_process_get_device(const bc_process *p)
{
	return p ? p->device : NULL;
}

int bc_process_get_fd(const bc_process *p)
{
	return p ? p->fd : -EINVAL;
}

int bc_process_set_wire(bc_process *p, int wire, int partition)
{
	if (!p || !bc__wire_proto(wire) || (partition != BINDERC_PARTITION_SYSTEM && partition != BINDERC_PARTITION_VENDOR))
		return -EINVAL;
	p->wire = wire;
	p->partition = partition;
	return 0;
}

int bc_process_new_parcel(bc_process *p, bc_parcel **ret)
{
	int r;

	if (!p)
		return -EINVAL;
	r = bc_parcel_new(ret);
	if (r == 0)
		bc_parcel_set_wire(*ret, p->wire, p->partition);
	return r;
}

int bc_process_set_max_threads(bc_process *p, uint32_t n)
{
	if (!p)
		return -EINVAL;
	if (ioctl(p->fd, BINDER_SET_MAX_THREADS, &n) < 0)
		return -errno;
	p->max_threads = n;
	return 0;
}

/* One pool thread.  Allocated by bc__spawn before it takes proc->mu, so
 * no allocation and no clone happen under the lock; freed by whoever
 * joins the thread. */
struct bc_pool_thread {
	struct bc_pool_thread *next;
	bc_process *proc;
	pthread_t th;
	bool registered;
};

static void *pool_main(void *arg)
{
	struct bc_pool_thread *self = arg;
	bc_process *proc = self->proc;
	bool registered = self->registered, destroy;
	struct bc_thread *t;

	/* @self belongs to the joiner from here on: read nothing more. */
	t = bc__thread(proc);
	if (t) {
		t->is_pool = true;
		bc__looper(proc, registered);
		pthread_setspecific(proc->key, NULL);
		thread_free(t, true);
	}
	pthread_mutex_lock(&proc->mu);
	proc->pool_running--;
	destroy = proc->destroy_pending;
	proc->destroy_pending = false;
	pthread_cond_broadcast(&proc->cv);
	pthread_mutex_unlock(&proc->mu);
	if (destroy)
		bc__process_destroy(proc);
	return NULL;
}

int bc__spawn(bc_process *proc, bool registered)
{
	struct bc_pool_thread *n = calloc(1, sizeof(*n));
	int r;

	if (!n)
		return -ENOMEM;
	n->proc = proc;
	n->registered = registered;
	/* Reserve the thread under the lock, create it outside: stop_pool
	 * waits for the reservation to be settled before it joins. */
	pthread_mutex_lock(&proc->mu);
	if (atomic_load(&proc->stopping) || proc->n_pool > proc->max_threads + 8) {
		pthread_mutex_unlock(&proc->mu);
		free(n);
		return -EAGAIN;
	}
	n->next = proc->pool;
	proc->pool = n;
	proc->n_pool++;
	proc->pool_running++;
	proc->pool_creating++;
	pthread_mutex_unlock(&proc->mu);

	r = pthread_create(&n->th, NULL, pool_main, n);

	pthread_mutex_lock(&proc->mu);
	proc->pool_creating--;
	if (r != 0) {
		for (struct bc_pool_thread **pp = &proc->pool; *pp; pp = &(*pp)->next) {
			if (*pp == n) {
				*pp = n->next;
				break;
			}
		}
		proc->n_pool--;
		proc->pool_running--;
	}
	pthread_cond_broadcast(&proc->cv);
	pthread_mutex_unlock(&proc->mu);
	if (r != 0) {
		free(n);
		return -r;
	}
	return 0;
}

int bc_process_start_thread_pool(bc_process *p)
{
	if (!p)
		return -EINVAL;
	pthread_mutex_lock(&p->mu);
	if (p->pool_started || atomic_load(&p->stopping)) {
		pthread_mutex_unlock(&p->mu);
		return -EALREADY;
	}
	p->pool_started = true;
	pthread_mutex_unlock(&p->mu);
	return bc__spawn(p, false);
}

int bc_process_join(bc_process *p)
{
	struct bc_thread *t;

	if (!p)
		return -EINVAL;
	t = bc__thread(p);
	if (!t)
		return -ENOMEM;
	bc__looper(p, false);
	return 0;
}

/* Wake every thread blocked in the driver: closing a duplicate of the fd
 * makes the driver flush, which returns waiting loopers to userspace. */
static void kick(bc_process *p)
{
	int fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);

	if (fd >= 0)
		close(fd);
}

/* Stop and join the pool threads.  false if some would not stop. */
static bool stop_pool(bc_process *p)
{
	pthread_t self = pthread_self();
	struct bc_pool_thread *list, *next;
	bool all = true;

	atomic_store(&p->stopping, true);
	pthread_mutex_lock(&p->mu);
	for (int round = 0; round < 100; round++) {
		struct timespec ts;

		if (p->pool_running == 0 && p->pool_creating == 0)
			break;
		pthread_mutex_unlock(&p->mu);
		kick(p);
		pthread_mutex_lock(&p->mu);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		while ((p->pool_running > 0 || p->pool_creating > 0) &&
		       pthread_cond_timedwait(&p->cv, &p->mu, &ts) == 0)
			;
	}
	if (p->pool_running > 0 || p->pool_creating > 0)
		all = false;
	/* A thread still being created stays listed: its creator settles it. */
	list = all ? p->pool : NULL;
	if (all) {
		p->pool = NULL;
		p->n_pool = 0;
	}
	pthread_mutex_unlock(&p->mu);
	/* Joined without the lock; every listed thread has ended its loop. */
	for (; list; list = next) {
		next = list->next;
		if (pthread_equal(list->th, self))
			pthread_detach(self);
		else
			pthread_join(list->th, NULL);
		free(list);
	}
	/* Wake joined user threads too. */
	kick(p);
	return all;
}

int bc_process_stop(bc_process *p)
{
	if (!p)
		return -EINVAL;
	if (on_pool_thread(p)) {
		atomic_store(&p->stopping, true);
		return 0;
	}
	return stop_pool(p) ? 0 : -ETIMEDOUT;
}

int bc_process_setup_polling(bc_process *p, int *ret_fd)
{
	struct bc_thread *t;
	int r;

	if (!p || !ret_fd)
		return -EINVAL;
	t = bc__thread(p);
	if (!t)
		return -ENOMEM;
	r = bc__cmd(p, BC_ENTER_LOOPER, NULL, 0);
	if (r < 0)
		return r;
	*ret_fd = p->fd;
	return 0;
}

int bc_process_get_handle(bc_process *p, uint32_t handle, bc_binder **ret)
{
	if (!p || !ret)
		return -EINVAL;
	return bc__proxy_get(p, handle, true, ret);
}

int bc_process_become_context_manager(bc_process *p, bc_binder *obj)
{
	struct flat_binder_object fo;
	int32_t zero = 0;

	if (!p || !bc__as_local(obj))
		return -EINVAL;
	if (p->ctx_obj)
		return -EBUSY;
	{
		bc_process *was = NULL;

		if (!atomic_compare_exchange_strong(&obj->proc, &was, p) && was != p)
			return -EXDEV;
	}
	memset(&fo, 0, sizeof(fo));
	fo.hdr.type = BINDER_TYPE_BINDER;
	fo.flags = FLAT_BINDER_FLAG_ACCEPTS_FDS;
	fo.binder = (uintptr_t)obj;
	fo.cookie = (uintptr_t)obj;
	if (ioctl(p->fd, BINDER_SET_CONTEXT_MGR_EXT, &fo) < 0) {
		if (errno == EBUSY || errno == EPERM)
			return -errno;
		if (ioctl(p->fd, BINDER_SET_CONTEXT_MGR, &zero) < 0)
			return -errno;
	}
	p->ctx_obj = bc_binder_ref(obj);
	return 0;
}

void bc__process_destroy(bc_process *p)
{
	uintptr_t kept;

	if (!stop_pool(p)) {
		/* Threads still inside the driver would use freed memory. */
		bc__log("pool threads did not stop; leaking process state");
		return;
	}
	p->ctx_obj = bc_binder_unref(p->ctx_obj);
	bc__process_release_objects(p);
	/* Nothing else runs now; write what the ordered queue still holds. */
	bc__oq_flush(p, 0);
	/* Before the threads are freed: no destructor may run on one. */
	pthread_key_delete(p->key);
	pthread_mutex_lock(&p->mu);
	while (p->threads) {
		struct bc_thread *t = p->threads;

		p->threads = t->next;
		bc_txn_unref(t->spare);
		free(t);
	}
	pthread_mutex_unlock(&p->mu);
	kept = atomic_exchange(&p->deferred_free, 0);
	if (kept)
		bc__free_buffer(p, kept, false);
	process_free(p, SETUP_OQ); /* the key is gone already */
}
