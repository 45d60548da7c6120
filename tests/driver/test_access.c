/* SPDX-License-Identifier: MIT */
/*
 * Access control: who may open the device, and who may freeze whom.
 *
 * The guest (tests/vm/guest-init) gives both drivers two devices,
 * $BINDER_DEVICE and "$BINDER_DEVICE-b" (a second binder context), mode
 * 0660 and group 2000.  The tests run as root; other users are forked
 * helpers that drop to:
 *   uid 1000, in group 2000 (may open the device)
 *   uid 1001, in group 2000 (another user who may open it too)
 *   uid 1002, not in group 2000 (may not open it)
 *
 * Mainline lets any opener freeze or query any pid in any of its contexts;
 * binderc acts only on procs of the caller's own context and only for the
 * same euid or CAP_SYS_NICE over the target (differences.h).  Whether a
 * freeze took is checked from outside: a sync call to a frozen proc gets
 * BR_FROZEN_REPLY and sets sync_recv in BINDER_GET_FROZEN_INFO.  binderc
 * also reads the pid in the caller's pid namespace; mainline reads a
 * global one.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bt.h"
#include "srv.h"

#define SHARED_GID 2000

struct user {
	uid_t uid;          /* also the primary gid */
	bool shared_group;  /* in SHARED_GID, the device's group */
};
static const struct user alice = { 1000, true };
static const struct user bob = { 1001, true };
static const struct user mallory = { 1002, false };

/* The second context of the same driver. */
static const char *device_b(void)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s-b", th_device());
	return path;
}

/* Drop to u (0 or -errno).  keep_caps: the capability mask to keep as
 * permitted and effective across the uid change (0: none). */
static int become(const struct user *u, uint32_t keep_caps)
{
	gid_t shared = SHARED_GID;

	if (setgroups(u->shared_group ? 1 : 0, &shared) || setresgid(u->uid, u->uid, u->uid))
		return -errno;
	if (keep_caps && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		return -errno;
	if (setresuid(u->uid, u->uid, u->uid))
		return -errno;
	/* an euid change clears the parent-death signal bt_spawn set */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		return -ESRCH;
	if (keep_caps) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2] = { { keep_caps, keep_caps, 0 }, { 0, 0, 0 } };

		/* raw capset(2): no libcap in the guest */
		if (syscall(SYS_capset, &h, d))
			return -errno;
	}
	return geteuid() == u->uid ? 0 : -EPERM;
}

/* ---- actions run as another user ---------------------------------------- */

struct act {
	const struct user *u;
	uint32_t keep_caps;
	long (*fn)(const void *arg);
	const void *arg;
};

static int act_main(void *arg, int rd, int wr)
{
	const struct act *a = arg;
	int ret = become(a->u, a->keep_caps);

	(void)rd;
	bt_send_u64(wr, (uint64_t)-ret); /* 0: ready (bt_spawn_ready) */
	if (ret)
		return 1;
	bt_send_u64(wr, (uint64_t)a->fn(a->arg));
	return 0;
}

/* Run fn(arg) in a helper that became u; returns what fn returned. */
static long as_user(const struct user *u, uint32_t keep_caps, long (*fn)(const void *),
		    const void *arg)
{
	struct act a = { u, keep_caps, fn, arg };
	struct bt_child ch;
	uint64_t res = 0;
	int ret = bt_spawn_ready(&ch, act_main, &a, BT_TIMEOUT_MS);

	cr_assert_eq(ret, 0, "helper could not become uid %u: %s", u->uid, strerror(-ret));
	ret = bt_recv_u64(ch.from_child, &res, BT_TIMEOUT_MS);
	if (ret)
		bt_kill(&ch);
	cr_assert_eq(ret, 0, "helper as uid %u gave no result: %d", u->uid, ret);
	cr_assert_eq(bt_join(&ch, BT_TIMEOUT_MS), 0, "helper as uid %u", u->uid);
	return (long)(int64_t)res;
}

/* What a helper asks of the driver. */
enum op { FREEZE, THAW, FROZEN_INFO };
struct req {
	enum op op;
	pid_t pid;
	bool own_userns;   /* ask from a fresh user namespace of the caller's */
};

/*
 * Both drivers wake a caller with its reply before they count the call out
 * of the server (outstanding_txns): right after a call, a freeze without a
 * timeout can fail with EAGAIN and GET_FROZEN_INFO can say "calls in flight"
 * (sync_recv bit 1).  So freezing waits for the count (up to TH_HANG_MS),
 * and that bit is left out.
 */
static int freeze_pid(int fd, pid_t pid, bool on)
{
	/* the kernel waits for calls in flight to be counted out, and returns
	 * as soon as they are: a hang-catcher, not a guess of how long */
	struct binder_freeze_info i = { .pid = (uint32_t)pid, .enable = on, .timeout_ms = TH_HANG_MS };

	return bt_ioctl(fd, BINDER_FREEZE, &i);
}

/* GET_FROZEN_INFO: -errno, or (sync_recv bit 0) | async_recv << 8 */
static long frozen_info(int fd, pid_t pid)
{
	struct binder_frozen_status_info i = { .pid = (uint32_t)pid };
	int ret = bt_ioctl(fd, BINDER_GET_FROZEN_INFO, &i);

	return ret ? ret : (long)((i.sync_recv & 1) | i.async_recv << 8);
}

static long do_req(int fd, const struct req *r)
{
	switch (r->op) {
	case FREEZE: return freeze_pid(fd, r->pid, true);
	case THAW: return freeze_pid(fd, r->pid, false);
	case FROZEN_INFO: return frozen_info(fd, r->pid);
	}
	return -ENOSYS;
}

/* (helper) open the device, do the request: its result, or -errno */
static long req_fn(const void *arg)
{
	const struct req *r = arg;
	struct bt_conn q;
	long ret = bt_open_dev(&q, O_NONBLOCK);

	if (ret)
		return ret;
	/* full capabilities there, but none over the target's namespace;
	 * -1000 - errno if there is none to be had (the test skips) */
	if (r->own_userns && unshare(CLONE_NEWUSER))
		ret = -errno - 1000;
	else
		ret = do_req(q.fd, r);
	bt_close(&q);
	return ret;
}

static long user_req(const struct user *u, uint32_t keep_caps, enum op op, pid_t pid)
{
	struct req r = { .op = op, .pid = pid };

	return as_user(u, keep_caps, req_fn, &r);
}

/* ---- targets and checks ------------------------------------------------- */

struct target {
	const struct user *u;
	struct srv_cfg cfg;
	bool open_as_root;  /* also hold a binder fd opened before dropping root */
};

static int target_main(void *arg, int rd, int wr)
{
	struct target *t = arg;
	struct bt_conn early;
	int ret = t->open_as_root ? bt_open_dev(&early, O_NONBLOCK) : 0;

	if (!ret)
		ret = become(t->u, 0);

	if (ret) {
		bt_send_u64(wr, (uint64_t)-ret);
		return 1;
	}
	return srv_main(&t->cfg, rd, wr);
}

/* Start s1 as a node server running as u (NULL: root); its handle. */
static uint32_t start_target_opts(const struct user *u, bool open_as_root)
{
	static struct target t;
	int ret;

	t = (struct target){ .u = u, .cfg = { .first_slot = 0, .nslots = 1 },
			     .open_as_root = open_as_root };
	ret = u ? bt_spawn_ready(&s1, target_main, &t, TH_HANG_MS) : srv_start(&s1, &t.cfg);
	cr_assert_eq(ret, 0, "target server did not start (%d)", ret);
	return get_handle(&c, 0);
}

static uint32_t start_target(const struct user *u)
{
	return start_target_opts(u, false);
}

/* From outside (root): is the proc behind h, pid, frozen?  A sync call
 * must answer accordingly and GET_FROZEN_INFO must show it (sync_recv is
 * set only by a sync call that arrived while frozen). */
static void assert_frozen(struct bt_conn *conn, uint32_t h, pid_t pid, bool frozen)
{
	uint32_t got = bt_ping(conn, h);
	long info;

	cr_assert_eq(got, frozen ? BR_FROZEN_REPLY : BR_REPLY, "call to pid %d: %s (want %s)",
		     (int)pid, bt_br_name(got), frozen ? "BR_FROZEN_REPLY" : "BR_REPLY");
	info = frozen_info(conn->fd, pid);
	cr_assert_eq(info, frozen ? 1 : 0, "GET_FROZEN_INFO of pid %d after the call: %ld", (int)pid,
		     info);
}

static void access_teardown(void)
{
	/* nothing may stay frozen behind a failed test */
	if (s1.pid > 0)
		freeze_pid(c.fd, s1.pid, false);
	fixture_teardown();
}

TestSuite(access, .init = fixture_setup, .fini = access_teardown, .timeout = TH_TEST_TIMEOUT_S);

/* ---- freezing as root: the same on both drivers ------------------------ */

Test(access, root_freezes_and_thaws)
{
	uint32_t h = start_target(NULL);

	assert_frozen(&c, h, s1.pid, false);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	/* freezing clears what was recorded */
	cr_assert_eq(frozen_info(c.fd, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, true);
	/* a second call is refused the same way; the record stays */
	assert_frozen(&c, h, s1.pid, true);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	/* thawing clears the record too */
	cr_assert_eq(frozen_info(c.fd, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, false);
	/* thawing what is not frozen is fine */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

Test(access, oneway_to_frozen_proc_is_recorded)
{
	uint32_t h = start_target(NULL), seq = 0;
	struct binder_transaction_data t = bt_tr(h, C_SEQ, TF_ONE_WAY, &seq, sizeof(seq), NULL, 0);
	struct srv_report rep;
	struct bt_result r;
	long info;
	uint32_t done;

	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	/* a oneway is not refused: it is queued and recorded as async_recv;
	 * since 6.3 the sender is told it waits for a thaw (differences.h) */
	done = (uint32_t)bt_expected("oneway to a frozen proc completes with",
				     BR_TRANSACTION_COMPLETE);
	cr_assert_eq(bt_oneway(&c, &t, &r), 0);
	cr_assert_eq(r.final, done, "%s, want %s", bt_br_name(r.final), bt_br_name(done));
	info = frozen_info(c.fd, s1.pid);
	cr_assert_eq(info, 1L << 8, "frozen info 0x%lx", info);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	/* it was delivered, once, in order */
	rep = srv_get_report(&c, h);
	cr_assert_eq(rep.seq_next, 1);
	cr_assert_eq(rep.seq_errors, 0);
	cr_assert_eq(rep.received, 2, "the oneway and the report");
}

static int idle_main(void *arg, int rd, int wr)
{
	uint64_t v;

	(void)arg;
	bt_send_u64(wr, 0);
	bt_recv_u64(rd, &v, TH_HANG_MS);
	return 0;
}

Test(access, pid_without_binder_is_einval)
{
	struct bt_child idle;

	/* a live process that never opened a binder device */
	cr_assert_eq(bt_spawn_ready(&idle, idle_main, NULL, BT_TIMEOUT_MS), 0);
	cr_assert_eq(freeze_pid(c.fd, idle.pid, true), -EINVAL);
	cr_assert_eq(freeze_pid(c.fd, idle.pid, false), -EINVAL);
	cr_assert_eq(frozen_info(c.fd, idle.pid), -EINVAL);
	bt_kill(&idle);
}

/* ---- opening the device ------------------------------------------------- */

static long open_fn(const void *arg)
{
	int fd = open((const char *)arg, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* What guest-init set up: binderc through mode= and group=, mainline as a
 * udev rule would.  Checked first so that a test that loosened the mode
 * is named, not mistaken for the driver's fault. */
static void assert_shared(const char *path)
{
	struct stat st;

	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	cr_assert_eq(st.st_mode & 07777, 0660, "%s: mode %04o", path, st.st_mode & 07777);
	cr_assert_eq(st.st_uid, 0, "%s: owner %u", path, st.st_uid);
	cr_assert_eq(st.st_gid, SHARED_GID, "%s: group %u", path, st.st_gid);
}

Test(access, outsider_cannot_open)
{
	assert_shared(th_device());
	assert_shared(device_b());
	cr_assert_eq(as_user(&mallory, 0, open_fn, th_device()), -EACCES);
	cr_assert_eq(as_user(&mallory, 0, open_fn, device_b()), -EACCES);
	/* a group member can, on both contexts */
	cr_assert_eq(as_user(&alice, 0, open_fn, th_device()), 0);
	cr_assert_eq(as_user(&alice, 0, open_fn, device_b()), 0);
}

/* (helper) what a client does: version, mapping, a call to the manager
 * that tells who called.  0 or a step number. */
static long member_fn(const void *arg)
{
	struct binder_version v = { 0 };
	struct binder_transaction_data t = bt_tr(0, BT_SM_WHO, 0, NULL, 0, NULL, 0);
	struct bt_result r;
	struct bt_conn q;
	uint32_t who[2] = { 0, 0 };
	long ret = 0;

	(void)arg;
	memset(&r, 0, sizeof(r));
	if (bt_open(&q, BT_VM_SIZE_DEFAULT))
		return 1;
	if (bt_ioctl(q.fd, BINDER_VERSION, &v) || v.protocol_version != BINDER_CURRENT_PROTOCOL_VERSION)
		ret = 2;
	else if (bt_ping(&q, 0) != BR_REPLY)
		ret = 3;
	else if (bt_call(&q, &t, &r) || r.final != BR_REPLY || r.reply.data_size != sizeof(who))
		ret = 4;
	if (r.final == BR_REPLY) {
		memcpy(who, (void *)(uintptr_t)r.reply.data.ptr.buffer, sizeof(who));
		bt_free(&q, r.reply.data.ptr.buffer);
		if (!ret && (who[0] != (uint32_t)getpid() || who[1] != geteuid()))
			ret = 5;
	}
	bt_close(&q);
	return ret;
}

Test(access, group_member_uses_the_device)
{
	cr_assert_eq(as_user(&alice, 0, member_fn, NULL), 0,
		     "1 open+mmap, 2 version, 3 ping, 4 call, 5 sender identity");
}

/* ---- freezing another process as another user --------------------------- */

Test(access, same_euid_may_freeze)
{
	uint32_t h = start_target(&alice);

	cr_assert_eq(user_req(&alice, 0, FREEZE, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, true);
	cr_assert_eq(user_req(&alice, 0, FROZEN_INFO, s1.pid), 1);
	cr_assert_eq(user_req(&alice, 0, THAW, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, false);
}

Test(access, other_euid_may_not_freeze)
{
	uint32_t h = start_target(&bob);
	long ret = user_req(&alice, 0, FREEZE, s1.pid);

	long info;

	cr_assert_eq(ret, bt_expected("BINDER_FREEZE of another euid's proc", 0), "freeze: %ld", ret);
	info = user_req(&alice, 0, FROZEN_INFO, s1.pid);
	cr_assert_eq(info, bt_expected("BINDER_GET_FROZEN_INFO of another euid's proc", 0),
		     "frozen info: %ld", info);
	/* a refused freeze left nothing frozen */
	assert_frozen(&c, h, s1.pid, ret == 0);
	/* nor may it thaw what its owner (here: root) froze */
	cr_assert_eq(freeze_pid(c.fd, s1.pid, true), 0);
	ret = user_req(&alice, 0, THAW, s1.pid);
	cr_assert_eq(ret, bt_expected("BINDER_FREEZE (thaw) of another euid's proc", 0), "thaw: %ld",
		     ret);
	assert_frozen(&c, h, s1.pid, ret != 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
	assert_frozen(&c, h, s1.pid, false);
}

Test(access, root_proc_is_another_euid)
{
	uint32_t h = start_target(NULL);
	long ret = user_req(&alice, 0, FREEZE, s1.pid);

	cr_assert_eq(ret, bt_expected("BINDER_FREEZE of root's proc", 0), "freeze: %ld", ret);
	assert_frozen(&c, h, s1.pid, ret == 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

/* The target's euid is its task's now, not the one its fd was opened with:
 * a server that opened one fd as root and another after dropping to bob is
 * bob's (two procs of one pid in the context; both freeze and thaw). */
Test(access, target_euid_is_the_tasks_own)
{
	uint32_t h = start_target_opts(&bob, true);

	cr_assert_eq(user_req(&bob, 0, FREEZE, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, true);
	cr_assert_eq(user_req(&bob, 0, THAW, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, false);
}

#define CAP_BIT(cap) (1u << (cap))

Test(access, cap_sys_nice_may_freeze_another_euid)
{
	uint32_t h = start_target(&bob);

	cr_assert_eq(user_req(&alice, CAP_BIT(CAP_SYS_NICE), FREEZE, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, true);
	cr_assert_eq(user_req(&alice, CAP_BIT(CAP_SYS_NICE), FROZEN_INFO, s1.pid), 1);
	cr_assert_eq(user_req(&alice, CAP_BIT(CAP_SYS_NICE), THAW, s1.pid), 0);
	assert_frozen(&c, h, s1.pid, false);
}

Test(access, other_capabilities_are_not_enough)
{
	uint32_t h = start_target(&bob);
	/* every capability numbered below 32 but CAP_SYS_NICE (CAP_SYS_ADMIN too) */
	long ret = user_req(&alice, ~CAP_BIT(CAP_SYS_NICE), FREEZE, s1.pid);

	cr_assert_eq(ret, bt_expected("BINDER_FREEZE without CAP_SYS_NICE", 0), "freeze: %ld", ret);
	assert_frozen(&c, h, s1.pid, ret == 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

Test(access, cap_sys_nice_in_own_userns_is_not_enough)
{
	uint32_t h = start_target(&bob);
	struct req r = { .op = FREEZE, .pid = s1.pid, .own_userns = true };
	long ret = as_user(&alice, 0, req_fn, &r);

	if (ret <= -1000)
		cr_skip_test("unshare(CLONE_NEWUSER) as uid 1000: %s", strerror((int)(-ret - 1000)));
	cr_assert_eq(ret, bt_expected("BINDER_FREEZE from a user namespace of one's own", 0),
		     "freeze: %ld", ret);
	assert_frozen(&c, h, s1.pid, ret == 0);
	cr_assert_eq(freeze_pid(c.fd, s1.pid, false), 0);
}

/* ---- contexts ----------------------------------------------------------- */

Test(access, pid_only_on_another_context)
{
	struct bt_child cm_b;
	struct bt_conn b;
	long ret, info;

	/* the target: the manager of the second context, never open here */
	cr_assert_eq(bt_cm_start_on(&cm_b, device_b()), 0);
	cr_assert_eq(bt_open_at(&b, device_b(), BT_VM_SIZE_DEFAULT), 0);
	assert_frozen(&b, 0, cm_b.pid, false);

	ret = freeze_pid(c.fd, cm_b.pid, true);
	cr_assert_eq(ret, bt_expected("BINDER_FREEZE of a pid open only on another context", 0),
		     "freeze: %ld", ret);
	info = frozen_info(c.fd, cm_b.pid);
	cr_assert_eq(info, bt_expected("BINDER_GET_FROZEN_INFO of a pid open only on another context",
				       0), "frozen info: %ld", info);
	/* a refused freeze left nothing frozen */
	assert_frozen(&b, 0, cm_b.pid, ret == 0);
	ret = freeze_pid(c.fd, cm_b.pid, false);
	cr_assert_eq(ret, bt_expected("BINDER_FREEZE (thaw) of a pid open only on another context", 0),
		     "thaw: %ld", ret);
	assert_frozen(&b, 0, cm_b.pid, false);

	/* from its own context it works on both */
	cr_assert_eq(freeze_pid(b.fd, cm_b.pid, true), 0);
	assert_frozen(&b, 0, cm_b.pid, true);
	cr_assert_eq(freeze_pid(b.fd, cm_b.pid, false), 0);
	assert_frozen(&b, 0, cm_b.pid, false);
	bt_close(&b);
	bt_cm_stop(&cm_b);
}

/* ---- pid namespaces ----------------------------------------------------- */

/*
 * Pid 1 of a new pid namespace: starts a target (its pid 2) that opens the
 * device, then freezes and thaws "pid 2" from inside.  Exit status: 0 when
 * both worked, 100 + errno of the first that failed, 200 set-up failed.
 */
static int ns_freezer_main(void)
{
	int ready[2], fd, ret;
	pid_t t;
	char ch;

	if (pipe(ready))
		return 200;
	t = fork();
	if (t < 0)
		return 200;
	if (t == 0) {
		if (open(th_device(), O_RDWR | O_CLOEXEC) < 0)
			_exit(1);
		if (write(ready[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ret = 200;
	if (t == 2 && read(ready[0], &ch, 1) == 1) {
		fd = open(th_device(), O_RDWR | O_CLOEXEC);
		ret = fd < 0 ? -errno : freeze_pid(fd, 2, true);
		if (!ret)
			ret = freeze_pid(fd, 2, false);
		ret = ret ? 100 - ret : 0;
	}
	kill(t, SIGKILL);
	waitpid(t, NULL, 0);
	return ret;
}

Test(access, pid_is_read_in_the_callers_namespace)
{
	int st = 0, code;
	pid_t p = fork();

	cr_assert(p >= 0);
	if (p == 0) {
		pid_t init;

		bt_in_helper = 1;
		if (unshare(CLONE_NEWPID))
			_exit(201);
		init = fork();
		if (init == 0)
			_exit(ns_freezer_main());
		if (init < 0 || waitpid(init, &st, 0) != init || !WIFEXITED(st))
			_exit(202);
		_exit(WEXITSTATUS(st));
	}
	cr_assert_eq(waitpid(p, &st, 0), p);
	cr_assert(WIFEXITED(st), "the namespace helper died (status 0x%x)", st);
	code = WEXITSTATUS(st);
	if (code == 201)
		cr_skip_test("unshare(CLONE_NEWPID): %s", "no pid namespaces in this kernel");
	cr_assert(code < 200, "set-up in the pid namespace failed (%d)", code);
	/* mainline looks for the global pid 2, a kernel thread with no binder */
	cr_assert_eq(code ? 100 - code : 0,
		     bt_expected("BINDER_FREEZE of pid 2 from a new pid namespace", -EINVAL),
		     "freeze from the namespace: exit %d", code);
}
