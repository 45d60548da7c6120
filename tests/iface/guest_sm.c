// SPDX-License-Identifier: MIT
/*
 * Guest test: wire compatibility with an AIDL interface implemented
 * independently - binder-c's servicemanager speaks Android 11+'s AIDL
 * android.os.IServiceManager.  Described here by signatures only, it is
 * called through an ffi proxy, and it calls back an ffi stub of
 * android.os.IServiceCallback.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

#include "guest.h"
#include "testiface.h"

/*
 * interface IServiceManager {                          (Android 11-14)
 *     @nullable IBinder getService(@utf8InCpp String name);
 *     @nullable IBinder checkService(@utf8InCpp String name);
 *     void addService(@utf8InCpp String name, IBinder service,
 *                     boolean allowIsolated, int dumpPriority);
 *     @utf8InCpp String[] listServices(int dumpPriority);
 *     void registerForNotifications(@utf8InCpp String name, IServiceCallback callback);
 *     void unregisterForNotifications(@utf8InCpp String name, IServiceCallback callback);
 *     boolean isDeclared(@utf8InCpp String name);
 * }
 * oneway interface IServiceCallback { void onRegistration(@utf8InCpp String name, IBinder binder); }
 */
/* clang-format off */
#define SM_METHODS(METHOD, ONEWAY, IN, OUT)                                                     \
	METHOD(getService, IN(string, name), OUT(nbinder, service))                             \
	METHOD(checkService, IN(string, name), OUT(nbinder, service))                           \
	METHOD(addService, IN(string, name) IN(binder, service) IN(bool, allowIsolated)         \
			   IN(i32, dumpPriority), )                                             \
	METHOD(listServices, IN(i32, dumpPriority), OUT(strings, names))                        \
	METHOD(registerForNotifications, IN(string, name) IN(binder, callback), )               \
	METHOD(unregisterForNotifications, IN(string, name) IN(binder, callback), )             \
	METHOD(isDeclared, IN(string, name), OUT(bool, declared))
#define CB_METHODS(METHOD, ONEWAY, IN, OUT)                                                     \
	ONEWAY(onRegistration, IN(string, name) IN(binder, binder))
/* clang-format on */
BINDERC_IFACE_DECLARE(ism, "android.os.IServiceManager", SM_METHODS);
BINDERC_IFACE_DECLARE(iscb, "android.os.IServiceCallback", CB_METHODS);

static pid_t sm_pid;

static void start_sm(void)
{
	char cmd[256];
	FILE *f;
	int st = -1;

	unlink("/tmp/iface-sm-test.pid");
	snprintf(cmd, sizeof(cmd),
		 "build/guest/bin/servicemanager --daemon --device %s --pidfile /tmp/iface-sm-test.pid 2>/dev/null",
		 th_device());
	/* the previous test's context manager may still be going away */
	for (int64_t end = th_now_ms() + TH_HANG_MS; st != 0;) {
		st = system(cmd);
		if (st != 0 && !th_nap_until(end))
			break;
	}
	cr_assert_eq(st, 0, "servicemanager did not start");
	f = fopen("/tmp/iface-sm-test.pid", "r");
	cr_assert_not_null(f);
	cr_assert_eq(fscanf(f, "%d", &sm_pid), 1);
	fclose(f);
}

static void stop_sm(void)
{
	if (sm_pid > 0) {
		kill(sm_pid, SIGKILL);
		/* not our child (daemon): wait until it is gone */
		for (int64_t end = th_now_ms() + TH_HANG_MS; kill(sm_pid, 0) == 0 && th_nap_until(end);)
			;
	}
	sm_pid = 0;
}

static atomic_int registered;
static bc_binder *seen;

static int on_registration(void *self, const char *name, bc_binder *binder)
{
	(void)self;
	if (!strcmp(name, "iface.test") && !seen) {
		seen = bc_binder_ref(binder);
		atomic_fetch_add(&registered, 1);
	}
	return 0;
}

Test(sm, aidl_service_manager_through_signatures, .fini = stop_sm, .timeout = 600)
{
	static const struct iscb cb_impl = { .onRegistration = on_registration };
	bc_process *proc;
	bc_binder *smb, *svc, *got = NULL, *cb;
	bc_iface *smi, *cbi, *ti;
	bc_iface_proxy *sm, *tp;
	const struct ism *SM;
	char **names = NULL;
	size_t n = 0;
	bool declared = true, found = false;
	int32_t v = 0;

	start_sm();
	cr_assert_eq(g_client(&proc, &smb), 0);
	cr_assert_eq(bc_iface_new(&ism_def, &smi, NULL), 0);
	cr_assert_eq(bc_iface_new(&iscb_def, &cbi, NULL), 0);
	cr_assert_eq(bc_iface_new(&t_iface_def, &ti, NULL), 0);
	cr_assert_eq(bc_iface_proxy_new(smi, smb, &sm), 0);
	SM = bc_iface_proxy_methods(sm);

	/* a callback object of ours, called by the service manager */
	cr_assert_eq(bc_iface_stub_new(cbi, &cb_impl, NULL, NULL, &cb), 0);
	cr_expect_eq(SM->registerForNotifications(sm, "iface.test", cb), 0);

	cr_assert_eq(bc_iface_stub_new(ti, &t_impl, NULL, NULL, &svc), 0);
	cr_expect_eq(SM->checkService(sm, "iface.test", &got), 0);
	cr_expect_null(got);
	cr_assert_eq(SM->addService(sm, "iface.test", svc, false, 8), 0);
	cr_assert_eq(SM->checkService(sm, "iface.test", &got), 0);
	cr_assert_not_null(got);
	cr_expect_eq(got, svc); /* our own object comes back as itself */
	bc_binder_unref(got);
	cr_assert_eq(SM->getService(sm, "iface.test", &got), 0);
	cr_expect_eq(got, svc);
	bc_binder_unref(got);

	cr_assert_eq(SM->listServices(sm, 15, &names, &n), 0);
	for (size_t k = 0; k < n; k++)
		found |= !strcmp(names[k], "iface.test");
	cr_expect(found, "iface.test not among %zu names", n);
	bc_strv_free(names, n);
	cr_expect_eq(SM->isDeclared(sm, "iface.test", &declared), 0);
	cr_expect(!declared);

	for (int64_t end = th_now_ms() + TH_HANG_MS; atomic_load(&registered) == 0 && th_nap_until(end);)
		;
	cr_expect_eq(atomic_load(&registered), 1, "no onRegistration callback");
	if (seen) {
		cr_expect_eq(seen, svc);
		cr_assert_eq(bc_iface_proxy_new(ti, seen, &tp), 0);
		cr_expect_eq(bc_call(tp, "add", 20, 22, &v), 0);
		cr_expect_eq(v, 42);
		bc_iface_proxy_unref(tp);
		seen = bc_binder_unref(seen);
	}
	cr_expect_eq(SM->unregisterForNotifications(sm, "iface.test", cb), 0);
	/* the service manager's own checks answer as AIDL exceptions */
	cr_expect_eq(SM->addService(sm, "", svc, false, 8), -EREMOTEIO);
	cr_expect_eq(bc_iface_last_status()->exception, BINDERC_EX_ILLEGAL_ARGUMENT);

	bc_binder_unref(cb);
	bc_binder_unref(svc);
	bc_iface_proxy_unref(sm);
	bc_iface_unref(ti);
	bc_iface_unref(cbi);
	bc_iface_unref(smi);
	bc_binder_unref(smb);
	bc_process_stop(proc);
	bc_process_unref(proc);
}
