/* SPDX-License-Identifier: MIT */
/*
 * The 17 raw-ioctl checks of Android's binderDriverInterfaceTest, same
 * environment (O_NONBLOCK open, 64 KiB read-only mapping, max threads 0,
 * BC_ENTER_LOOPER) and a context manager that answers PING with an empty
 * reply.  Where AOSP accepts either EFAULT or EINVAL we assert mainline's
 * exact errno: results must be identical across drivers.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bt.h"

static struct bt_child cm;
static int bfd = -1;
static void *bmap = MAP_FAILED;
#define MAP_SZ (64 * 1024)

static void env_setup(void)
{
	uint32_t max = 0, cmd = BC_ENTER_LOOPER;
	binder_size_t wc = 0;
	int ret = bt_cm_start(&cm);

	cr_assert_eq(ret, 0, "test context manager did not start: %s", strerror(-ret));
	bfd = open(th_device(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
	cr_assert_geq(bfd, 0, "open %s: %s", th_device(), strerror(errno));
	bmap = mmap(NULL, MAP_SZ, PROT_READ, MAP_SHARED, bfd, 0);
	cr_assert_neq(bmap, MAP_FAILED, "mmap: %s", strerror(errno));
	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_MAX_THREADS, &max), 0);
	cr_assert_eq(bt_write_read(bfd, &cmd, sizeof(cmd), &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, sizeof(cmd));
}

static void env_teardown(void)
{
	if (bmap != MAP_FAILED)
		munmap(bmap, MAP_SZ);
	if (bfd >= 0)
		close(bfd);
	bt_cm_stop(&cm);
}

/* AOSP's ReadEmpty: a 128-byte read gives EAGAIN and consumes nothing. */
static void read_empty(void)
{
	uint8_t buf[128];
	binder_size_t rc = 77;

	cr_assert_eq(bt_write_read(bfd, NULL, 0, NULL, buf, sizeof(buf), &rc), -EAGAIN);
	cr_assert_eq(rc, 0, "read_consumed %llu", (unsigned long long)rc);
}

TestSuite(interface, .init = env_setup, .fini = env_teardown, .timeout = TH_TEST_TIMEOUT_S);

Test(interface, Version)
{
	struct binder_version v = { .protocol_version = -1 };

	cr_assert_eq(bt_ioctl(bfd, BINDER_VERSION, &v), 0);
	cr_assert_eq(v.protocol_version, BINDER_CURRENT_PROTOCOL_VERSION);
	cr_assert_eq(v.protocol_version, 8);
}

Test(interface, OpenNoMmap)
{
	int fd = open(th_device(), O_RDWR | O_NONBLOCK | O_CLOEXEC);

	cr_assert_geq(fd, 0);
	cr_assert_eq(close(fd), 0);
}

Test(interface, WriteReadNull)
{
	cr_assert_eq(bt_ioctl(bfd, BINDER_WRITE_READ, NULL), -EFAULT);
}

Test(interface, SetIdleTimeoutNull)
{
	/* AOSP accepts EFAULT or EINVAL; mainline does not implement it: EINVAL */
	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_IDLE_TIMEOUT, NULL), -EINVAL);
}

Test(interface, SetMaxThreadsNull)
{
	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_MAX_THREADS, NULL), -EINVAL);
}

Test(interface, SetIdlePriorityNull)
{
	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_IDLE_PRIORITY, NULL), -EINVAL);
}

Test(interface, VersionNull)
{
	cr_assert_eq(bt_ioctl(bfd, BINDER_VERSION, NULL), -EINVAL);
}

Test(interface, SetIdleTimeoutNoTest)
{
	int64_t idle = 100000;

	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_IDLE_TIMEOUT, &idle), -EINVAL);
}

Test(interface, SetMaxThreads)
{
	uint32_t max = 0;

	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_MAX_THREADS, &max), 0);
}

Test(interface, SetIdlePriorityNoTest)
{
	int32_t prio = 0;

	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_IDLE_PRIORITY, &prio), -EINVAL);
}

Test(interface, SetContextMgrBusy)
{
	int32_t dummy = 0;

	cr_assert_eq(bt_ioctl(bfd, BINDER_SET_CONTEXT_MGR, &dummy), -EBUSY);
}

Test(interface, ThreadExit)
{
	int32_t dummy = 0;
	uint32_t cmd = BC_ENTER_LOOPER;
	binder_size_t wc = 0;

	cr_assert_eq(bt_ioctl(bfd, BINDER_THREAD_EXIT, &dummy), 0);
	/* the next ioctl creates a fresh thread */
	cr_assert_eq(bt_write_read(bfd, &cmd, sizeof(cmd), &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, sizeof(cmd));
	read_empty();
}

Test(interface, WriteReadEmpty)
{
	struct binder_write_read bwr;

	memset(&bwr, 0, sizeof(bwr));
	cr_assert_eq(bt_ioctl(bfd, BINDER_WRITE_READ, &bwr), 0);
	cr_assert_eq(bwr.write_consumed, 0);
	cr_assert_eq(bwr.read_consumed, 0);
}

Test(interface, Read)
{
	read_empty();
}

Test(interface, IncRefsAcquireReleaseDecRefs)
{
	struct bt_buf w = { .len = 0 };
	binder_size_t wc = 0;

	bt_put_ref(&w, BC_INCREFS, 0);
	bt_put_ref(&w, BC_ACQUIRE, 0);
	bt_put_ref(&w, BC_RELEASE, 0);
	bt_put_ref(&w, BC_DECREFS, 0);
	cr_assert_eq(bt_write_read(bfd, w.data, w.len, &wc, NULL, 0, NULL), 0);
	cr_assert_eq(wc, 32);
	read_empty();
}

Test(interface, Transaction)
{
	struct {
		uint32_t cmd;
		struct binder_transaction_data tr;
	} __attribute__((packed)) wr = { .cmd = BC_TRANSACTION };
	/* the driver dequeues an item only with room for the largest one, so
	 * the read buffer is bigger than what is expected back */
	struct {
		uint32_t noop, complete, reply;
		struct binder_transaction_data tr;
		uint8_t spare[128];
	} __attribute__((packed)) rd;
	const size_t want = 3 * 4 + sizeof(struct binder_transaction_data);
	struct binder_write_read bwr;
	int ret;

	memset(&wr.tr, 0, sizeof(wr.tr));
	wr.tr.target.handle = 0;
	wr.tr.code = BT_PING_TRANSACTION;
	memset(&rd, 0xa5, sizeof(rd));
	memset(&bwr, 0, sizeof(bwr));
	bwr.write_buffer = (binder_uintptr_t)(uintptr_t)&wr;
	bwr.write_size = sizeof(wr);
	bwr.read_buffer = (binder_uintptr_t)(uintptr_t)&rd;
	bwr.read_size = sizeof(rd);
	ret = bt_ioctl(bfd, BINDER_WRITE_READ, &bwr);
	cr_assert(ret == 0 || ret == -EAGAIN, "first WRITE_READ: %d", ret);
	cr_assert_eq(bwr.write_consumed, sizeof(wr));
	if (bwr.read_consumed < want) {
		/* the reply is not there yet: wait for it, then read the rest
		 * (a hang-catcher; the 100 ms slices guard a lost wakeup) */
		int64_t end = th_now_ms() + TH_HANG_MS;

		while (bwr.read_consumed < want && th_now_ms() < end) {
			struct pollfd p = { .fd = bfd, .events = POLLIN };

			cr_assert_geq(poll(&p, 1, 100), 0);
			bwr.write_size = 0;
			ret = bt_ioctl(bfd, BINDER_WRITE_READ, &bwr);
			cr_assert(ret == 0 || ret == -EAGAIN, "WRITE_READ: %d", ret);
		}
	}
	cr_assert_eq(bwr.read_consumed, want);
	cr_assert_eq(rd.noop, BR_NOOP);
	cr_assert_eq(rd.complete, BR_TRANSACTION_COMPLETE, "got %s", bt_br_name(rd.complete));
	cr_assert_eq(rd.reply, BR_REPLY, "got %s", bt_br_name(rd.reply));
	cr_assert_eq(rd.tr.target.ptr, 0);
	cr_assert_eq(rd.tr.cookie, 0);
	cr_assert_eq(rd.tr.code, 0);
	cr_assert_eq(rd.tr.flags, 0);
	cr_assert_eq(rd.tr.data_size, 0);
	cr_assert_eq(rd.tr.offsets_size, 0);
	read_empty();
	{
		struct bt_buf w = { .len = 0 };
		binder_size_t wc = 0;

		bt_put_free(&w, rd.tr.data.ptr.buffer);
		cr_assert_eq(bt_write_read(bfd, w.data, w.len, &wc, NULL, 0, NULL), 0);
		cr_assert_eq(wc, 12);
	}
	read_empty();
}

Test(interface, RequestDeathNotification)
{
	struct bt_buf w = { .len = 0 };
	struct {
		uint32_t noop, cmd;
		binder_uintptr_t cookie;
		uint8_t spare[128];
	} __attribute__((packed)) rd;
	binder_size_t wc = 0, rc = 0;

	bt_put_ref(&w, BC_INCREFS, 0);
	bt_put_death(&w, BC_REQUEST_DEATH_NOTIFICATION, 0, 1234);
	bt_put_death(&w, BC_CLEAR_DEATH_NOTIFICATION, 0, 1234);
	bt_put_ref(&w, BC_DECREFS, 0);
	memset(&rd, 0, sizeof(rd));
	cr_assert_eq(bt_write_read(bfd, w.data, w.len, &wc, &rd, sizeof(rd), &rc), 0);
	cr_assert_eq(wc, w.len);
	cr_assert_eq(w.len, 8 + 16 + 16 + 8);
	cr_assert_eq(rc, 4 + 4 + sizeof(binder_uintptr_t));
	cr_assert_eq(rd.noop, BR_NOOP);
	cr_assert_eq(rd.cmd, BR_CLEAR_DEATH_NOTIFICATION_DONE, "got %s", bt_br_name(rd.cmd));
	cr_assert_eq(rd.cookie, 1234);
	read_empty();
}
