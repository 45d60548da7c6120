/* SPDX-License-Identifier: MIT */
/*
 * binderc/servicemanager.h - client of the service manager (handle 0):
 * find services by name, register them, list them, wait for them and be
 * told when they appear.
 *
 * It speaks either dialect of Android's service-manager protocol:
 *   BINDERC_SM_DIALECT_AIDL    Android 14 IServiceManager (ANDROID_11..16
 *                         for another release's numbering) (header with work
 *                         source and 'SYST', status-prefixed replies);
 *                         everything below works.
 *   BINDERC_SM_DIALECT_LEGACY  the C servicemanager of Android <= 10 (codes 1-4,
 *                         Android 9 header): get, check, add, list only;
 *                         is_declared and notifications give -EOPNOTSUPP.
 * binder-c's servicemanager answers both.
 *
 * Errors (besides transport errors, see binderc/status.h):
 *   -ENOENT     no such service (check) / none registered (unregister)
 *   -EBUSY      not now (EX_ILLEGAL_STATE: e.g. a service with clients)
 *   -ETIMEDOUT  get/wait gave up
 *   -EPERM      the policy denied it (EX_SECURITY, or status -EPERM)
 *   -EINVAL     bad name or null binder (EX_ILLEGAL_ARGUMENT/NULL_POINTER)
 *   -ENOSPC     the service manager's limits are reached
 *   -EBADMSG    the reply could not be decoded
 *   -EPROTO     another exception; -EOPNOTSUPP not in this dialect
 */
#ifndef BINDERC_SERVICEMANAGER_H
#define BINDERC_SERVICEMANAGER_H

#include <binderc/common.h>
#include <binderc/binder.h>
#include <binderc/process.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A connection to the service manager of one device. */
typedef struct bc_sm bc_sm;

enum bc_sm_dialect {
	/** $BINDERC_SM_DIALECT ("aidl", "legacy", "android-11".."android-16") if set, else AIDL. */
	BINDERC_SM_DIALECT_DEFAULT = 0,
	BINDERC_SM_DIALECT_AIDL = 1,
	BINDERC_SM_DIALECT_LEGACY = 2,
	/** AIDL with the method numbering of one Android release (15 and 16
	 * renumbered them); AIDL is ANDROID_14.  $BINDERC_SM_DIALECT may say
	 * "android-11" .. "android-16". */
	BINDERC_SM_DIALECT_ANDROID_11 = 11,
	BINDERC_SM_DIALECT_ANDROID_12 = 12,
	BINDERC_SM_DIALECT_ANDROID_13 = 13,
	BINDERC_SM_DIALECT_ANDROID_14 = 14,
	BINDERC_SM_DIALECT_ANDROID_15 = 15,
	BINDERC_SM_DIALECT_ANDROID_16 = 16,
};

/** bc_sm_add() flag: isolated uids may find the service. */
#define BINDERC_SM_ADD_ALLOW_ISOLATED 0x1u

/** Dump priorities (the add argument and the list filter). */
#define BINDERC_SM_DUMP_CRITICAL 1
#define BINDERC_SM_DUMP_HIGH 2
#define BINDERC_SM_DUMP_NORMAL 4
#define BINDERC_SM_DUMP_DEFAULT 8
#define BINDERC_SM_DUMP_ALL 15

/** How long bc_sm_get() waits for a service that is not there yet (as
 * Android's getService). */
#define BINDERC_SM_GET_TIMEOUT_MS 5000

/** Open the service manager of @proc (takes a reference on @proc). */
int bc_sm_new(bc_process *proc, int dialect, bc_sm **ret);
/** Take a reference. */
bc_sm *bc_sm_ref(bc_sm *sm);
/** Drop a reference.  Returns NULL. */
bc_sm *bc_sm_unref(bc_sm *sm);
/** The dialect in use (enum bc_sm_dialect, never DEFAULT). */
int bc_sm_get_dialect(const bc_sm *sm);
/** The proxy for handle 0 (no reference taken). */
bc_binder *bc_sm_get_binder(const bc_sm *sm);

/** Ping the service manager: 0 when one serves the device. */
int bc_sm_ping(bc_sm *sm);
/** Look @name up without waiting; *@ret gets a new reference.  -ENOENT. */
int bc_sm_check(bc_sm *sm, const char *name, bc_binder **ret);
/** Look @name up, waiting up to BINDERC_SM_GET_TIMEOUT_MS for it.  -ETIMEDOUT. */
int bc_sm_get(bc_sm *sm, const char *name, bc_binder **ret);
/** Wait up to @timeout_ms (negative: forever) for @name.  -ETIMEDOUT.
 * (Polls with back-off, so it needs no thread serving this process.) */
int bc_sm_wait(bc_sm *sm, const char *name, int timeout_ms, bc_binder **ret);
/**
 * Register @b (normally a local object) under @name.  @flags:
 * BINDERC_SM_ADD_ALLOW_ISOLATED; @dump_priority: BINDERC_SM_DUMP_* (0 means
 * DEFAULT).  The service manager keeps a strong reference while the name
 * is registered; this process must serve transactions (thread pool or
 * polling) for anyone to call @b.
 */
int bc_sm_add(bc_sm *sm, const char *name, bc_binder *b, unsigned flags, int dump_priority);
/** Names of the services whose dump priority matches @dump_priority
 * (0: all), as newly allocated UTF-8 strings (free with bc_strv_free()). */
int bc_sm_list(bc_sm *sm, int dump_priority, char ***ret, size_t *ret_n);
/** Whether @name is declared in the service manager's configuration. */
int bc_sm_is_declared(bc_sm *sm, const char *name, bool *ret);
/*
 * What the service manager says of its declarations (Android's VINTF
 * manifest; servicemanager(8)'s `declare` lines).  Each is -EOPNOTSUPP
 * in a dialect without the method (the comment names the first Android
 * that has it).
 */
/** The instances declared for interface @iface ("org.ex.IFoo/default"
 * declares "default"), as UTF-8 strings (free with bc_strv_free()).
 * Android 12. */
int bc_sm_get_declared_instances(bc_sm *sm, const char *iface, char ***ret, size_t *ret_n);
/** The APEX that may update service @name in *@ret (free()), or NULL.
 * Android 12. */
int bc_sm_updatable_via_apex(bc_sm *sm, const char *name, char **ret);
/** The services APEX @apex may update (free with bc_strv_free()).
 * Android 14. */
int bc_sm_get_updatable_names(bc_sm *sm, const char *apex, char ***ret, size_t *ret_n);
/** Where @name is served over RPC binder: its IP address in *@ret_address
 * (free()) and its port; -ENOENT if the service manager knows none.
 * Android 13. */
int bc_sm_get_connection_info(bc_sm *sm, const char *name, char **ret_address, int32_t *ret_port);

/**
 * Called when a service named @name is registered (also at once if it
 * already is).  @binder is borrowed: take a reference to keep it.  Runs on
 * a thread serving this process: start a thread pool (or poll) first.
 */
typedef void (*bc_sm_notify_fn)(const char *name, bc_binder *binder, void *userdata);

/** Ask to be called whenever @name is registered.  *@ret is the
 * registration (binderc/slot.h): dropping it unregisters, from @fn too. */
int bc_sm_watch(bc_sm *sm, const char *name, bc_sm_notify_fn fn, void *userdata, bc_slot **ret);

/*
 * Lazy services (AIDL dialect only; -EOPNOTSUPP in LEGACY).  A service
 * that wants to exit while unused registers, then asks to be told about
 * its clients; when told it has none, it tries to unregister and exits
 * if that worked (if not, a client came meanwhile: it keeps serving).
 * binder-c's servicemanager can start it again on the next lookup (its
 * policy's start-command, see servicemanager(8)).
 */

/**
 * Called with @has_clients true when a process other than the service
 * manager got @service, and false when the service manager's periodic
 * check (every 5 s) finds none left.  @service is borrowed.  Runs on a
 * thread serving this process: start a thread pool (or poll) first.
 */
typedef void (*bc_sm_clients_fn)(bc_binder *service, bool has_clients, void *userdata);

/**
 * Ask to be told about the clients of @service, which this process
 * registered as @name (Android's registerClientCallback).  -EOPNOTSUPP
 * when another process registered @name, -EINVAL when @name is not
 * registered or under another binder.  The registration lasts as long
 * as @name stays registered with @service, or until *@ret (binderc/slot.h)
 * is dropped, which may be done from @fn too.
 */
int bc_sm_register_client_callback(bc_sm *sm, const char *name, bc_binder *service, bc_sm_clients_fn fn,
				   void *userdata, bc_slot **ret);
/**
 * Unregister @name, registered by this process as @service, unless
 * another process holds it (Android's tryUnregisterService).  -EBUSY
 * when it has clients (or is not registered), -EOPNOTSUPP when another
 * process registered it, -EINVAL when another binder is.
 */
int bc_sm_try_unregister(bc_sm *sm, const char *name, bc_binder *service);

#ifdef __cplusplus
}
#endif

#endif
