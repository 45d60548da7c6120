// SPDX-License-Identifier: MIT
/*
 * servicemanager/sm.h - the service manager's internal interfaces.
 *
 *   policy.c    the policy file: who may add or find which names, which
 *               names are declared, resource limits
 *   declared.c  the declared names (Android's VINTF manifest): the
 *               queries that answer from them, the VINTF registration rule
 *   proto.c     the two wire dialects: header detection, request
 *               decoding, reply encoding (no state)
 *   registry.c  the state: services, notification callbacks, limits
 *   lazy.c      lazy services: client counts, onClients callbacks,
 *               start-command (start a service on its first lookup)
 *   handler.c   one transaction: decode, check, act, answer
 *   main.c      the daemon: options, logging, poll loop, signals
 *
 * Everything but main.c is free of the binder device and runs in host
 * unit tests on parcels built in memory.
 */
#ifndef BINDERC_SM_H
#define BINDERC_SM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <binderc/binderc.h>

/* Descriptors and codes, shared with the library's client. */
#include "../libbinder-c/sm_protocol.h"

/* ---- logging (main.c in the daemon; tests provide their own) ----------- */

enum sm_log_level { SM_LOG_ERR = 3, SM_LOG_WARNING = 4, SM_LOG_NOTICE = 5, SM_LOG_INFO = 6, SM_LOG_DEBUG = 7 };
void sm_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- names --------------------------------------------------------------- */

/** Longest service name (Android's limit). */
#define SM_NAME_MAX 127
/** 1..127 characters of [A-Za-z0-9_.-/]. */
bool sm_name_is_valid(const char *name);

/* ---- policy.c ------------------------------------------------------------ */

#define SM_DEFAULT_POLICY "/etc/binderc/servicemanager.conf"
/* vnd mode's, as Android's vndservicemanager reads vndservice_contexts
 * rather than service_contexts: the vendor names are another directory. */
#define SM_DEFAULT_VND_POLICY "/etc/binderc/vndservicemanager.conf"

enum sm_action {
	SM_ACT_ADD = 1u << 0,
	SM_ACT_FIND = 1u << 1,
};

struct sm_limits {
	unsigned max_services;		/* in total */
	unsigned max_services_per_uid;	/* registered by one uid */
	unsigned max_callbacks;		/* notification callbacks, in total */
	unsigned max_callbacks_per_uid; /* held for one uid */
	uid_t isolated_first, isolated_last; /* isolated uids (as Android's) */
};

struct sm_policy;

/** Who is calling: the euid the driver reports and the groups it is in. */
struct sm_caller {
	uid_t uid;
	pid_t pid;
	size_t n_gids;
	gid_t gids[64];
};

/** Fill @c for @uid (primary and supplementary groups from the user
 * database; none when the uid has no entry). */
void sm_caller_init(struct sm_caller *c, uid_t uid, pid_t pid);
/** Whether any rule names a group (else callers need no group lookup,
 * which may be slow with network user databases). */
bool sm_policy_uses_groups(const struct sm_policy *p);

/** The built-in policy: root may add anything, anyone may find anything. */
int sm_policy_new_default(struct sm_policy **ret);
/**
 * Parse the policy file @path.  -ENOENT when it does not exist (the caller
 * decides whether the defaults apply); on a syntax error -EINVAL with
 * "LINE: message" in @err.
 */
int sm_policy_load(const char *path, struct sm_policy **ret, char *err, size_t errlen);
/** Parse policy text (for tests and for sm_policy_load). */
int sm_policy_parse(const char *text, const char *origin, struct sm_policy **ret, char *err, size_t errlen);
void sm_policy_free(struct sm_policy *p);
/** Whether @c may do @action (one enum sm_action) on @name. */
bool sm_policy_allows(const struct sm_policy *p, unsigned action, const char *name, const struct sm_caller *c);
/** A "declare NAME [updatable-via-apex APEX] [ip ADDRESS port PORT]" line. */
struct sm_decl {
	char *name;
	char *apex;    /* updatable-via-apex, or NULL */
	char *ip;      /* with port: what getConnectionInfo answers, or NULL */
	uint16_t port;
};
/** The declarations, in file order (*@ret_n of them). */
const struct sm_decl *sm_policy_declarations(const struct sm_policy *p, size_t *ret_n);
const struct sm_limits *sm_policy_limits(const struct sm_policy *p);
/** The "android-release N" of the file, 0 when it has none. */
int sm_policy_release(const struct sm_policy *p);
/** Its Android 15 variant (enum sm_union_shape). */
int sm_policy_union_shape(const struct sm_policy *p);
/** Whether @uid is an isolated uid (it finds only allow-isolated services). */
bool sm_policy_is_isolated(const struct sm_policy *p, uid_t uid);
/** The "start-command NAME PATH ARG..." argument vector for @name
 * (PATH first, NULL-terminated), or NULL when it has none. */
const char *const *sm_policy_start_command(const struct sm_policy *p, const char *name);

/* ---- declared.c ---------------------------------------------------------- */

/** The declaration of @name, or NULL. */
const struct sm_decl *sm_policy_declaration(const struct sm_policy *p, const char *name);
/** Whether @name is declared. */
bool sm_policy_is_declared(const struct sm_policy *p, const char *name);
/** Declared names that start with "@iface/": the instance parts, in file
 * order, newly allocated (free with bc_strv_free). */
int sm_policy_declared_instances(const struct sm_policy *p, const char *iface, char ***ret, size_t *ret_n);
/** Declared names updatable via APEX @apex, in file order, newly allocated. */
int sm_policy_updatable_names(const struct sm_policy *p, const char *apex, char ***ret, size_t *ret_n);
/**
 * Android's rule for addService: a binder whose @stability includes VINTF
 * is registered only under a declared @name.  False (and the reason
 * logged, naming @who) when it may not be.
 */
bool sm_vintf_may_add(const struct sm_policy *p, const char *name, int stability, const char *who);

/* ---- proto.c ------------------------------------------------------------- */

/** What the request header said. */
struct sm_header {
	int dialect;   /* enum bc_sm_dialect (AIDL or LEGACY) */
	int wire;      /* enum bc_wire to read the rest and write the reply */
	int partition; /* enum bc_partition ('SYST' or 'VNDR') */
	const struct sm_dialect *d; /* what the dialect fixes (sm_protocol.h) */
};

/**
 * Detect the dialect from the interface token at the start of @in and
 * leave the position after it, with @in switched to the detected wire.
 * Accepted: policy + String16 (Android <= 9), policy + work source +
 * String16 (Android 10), policy + work source + 'SYST'/'VNDR' + String16
 * (Android 11+).  -EBADMSG when no form parses, -EPERM when the
 * descriptor is not android.os.IServiceManager.
 */
int sm_read_header(bc_parcel *in, struct sm_header *ret);

/** Read a String16 that must be present, as UTF-8 (-EBADMSG when null). */
int sm_read_name(bc_parcel *in, char **ret);

/*
 * Android 15's IServiceManager changed during its life without a new
 * release number, in what getService2 and checkService answer (the
 * requests are the same bytes, so only the device's configuration can
 * choose; see README.md):
 */
enum sm_union_shape {
	/* "15" and "16": getService2 (and 16's checkService2) answer
	 * Service { ServiceWithMetadata serviceWithMetadata; IBinder accessor },
	 * checkService a plain @nullable IBinder. */
	SM_UNION_DEFAULT = 0,
	/* "15-r6" (as android-15.0.0_r6): getService2 and checkService answer
	 * Service { @nullable IBinder binder; @nullable IBinder accessor }. */
	SM_UNION_15_R6,
	/* "15-r20" (as android-15.0.0_r20 and later): getService2 and
	 * checkService answer the ServiceWithMetadata union. */
	SM_UNION_15_R20,
};

/** Parse an android-release value: "11".."16", "15-r6" or "15-r20".
 * -EINVAL for anything else. */
int sm_parse_release(const char *s, int *ret_release, int *ret_shape);
/** The name sm_parse_release() reads back ("14", "15-r6", ...). */
const char *sm_release_name(int release, int shape);

/* ---- registry.c ---------------------------------------------------------- */

struct sm_client_cb;

struct sm_service {
	char *name;
	bc_binder *binder; /* strong reference: the service lives while registered */
	uid_t owner;
	pid_t pid;
	bool allow_isolated;
	int32_t dump_flags;
	bc_slot *death; /* the death recipient, NULL if none */
	struct sm *sm;
	/* Lazy services (lazy.c): IClientCallbacks the registering process
	 * gave, what they were last told, and whether the binder was handed
	 * out since the last count (it then counts as a client once, so a
	 * client that drops it at once still yields true, then false; kept
	 * until the service becomes lazy), and whether it was told anything
	 * yet. */
	struct sm_client_cb **ccbs;
	size_t n_ccbs;
	bool has_clients;
	bool guarantee;
	bool told;
};

struct sm_callback {
	char *name;
	bc_binder *cb;
	uid_t owner;
	int wire, partition;
	bc_slot *death; /* the death recipient, NULL if none */
	struct sm *sm;
};

/** Callers whose release (per-request detection) is remembered. */
#define SM_LEARNED_MAX 64

struct sm {
	struct sm_policy *policy;
	struct sm_service **svc; /* sorted by name */
	size_t n_svc, cap_svc;
	struct sm_callback **cbs;
	size_t n_cbs, cap_cbs;
	bc_binder *self; /* our own object ("manager") */
	int release;	 /* --android-release; 0: the policy's, else 14 */
	/* vnd mode (--vnd), as Android's vndservicemanager: the declare
	 * lines are ignored -- no VINTF registration rule, and the
	 * declaration queries answer as if nothing were declared. */
	bool vnd;
	int shape;	 /* its enum sm_union_shape (with release only) */
	/* handler.c: the releases each recent caller's requests proved
	 * possible (bit release - SM_RELEASE_FIRST), and whether its last
	 * binder came with an Android 12 (Category) stability word, by pid,
	 * oldest replaced */
	struct sm_learned {
		pid_t pid;
		unsigned mask;
		bool category;
	} learned[SM_LEARNED_MAX];
	size_t n_learned, next_learned;
	/* lazy.c: processes started by start-command, by service name */
	struct sm_start *starts;
	size_t n_starts;
	/* What lazy.c needs from the system; sm_init sets the real ones and
	 * host tests replace them. */
	int (*strong_count)(bc_binder *b, uint32_t *ret); /* the driver's count on b's node */
	int (*spawn)(const char *const *argv, pid_t *ret); /* start argv[0] (absolute) */
	int64_t (*clock_ms)(void);			   /* CLOCK_MONOTONIC */
};

/** The AIDL numbering @sm answers in (enum sm_release). */
int sm_release(const struct sm *sm);
/** What its getService2/checkService answer (enum sm_union_shape; always
 * SM_UNION_DEFAULT unless the release is 15). */
int sm_union_shape(const struct sm *sm);

int sm_init(struct sm *sm, struct sm_policy *policy);
/** Drop every service and callback (unlinking deaths) and the policy. */
void sm_fini(struct sm *sm);
/** Replace the policy (takes ownership; existing entries stay). */
void sm_set_policy(struct sm *sm, struct sm_policy *policy);

struct sm_service *sm_find(struct sm *sm, const char *name);
/**
 * Register (or replace) @name.  Takes its own reference on @binder and
 * links to its death when it is a proxy; notifies callbacks for @name.
 * -ENOSPC when a limit is reached, -ENOMEM.
 */
int sm_add(struct sm *sm, const char *name, bc_binder *binder, const struct sm_caller *c, bool allow_isolated,
	   int32_t dump_flags);
/** Remove @name (no-op if absent). */
void sm_remove(struct sm *sm, const char *name);
/** Register @cb for @name; notifies at once if @name is there.  -ENOSPC. */
int sm_watch(struct sm *sm, const char *name, bc_binder *cb, const struct sm_caller *c, int wire, int partition);
/** Remove @cb's registration for @name; -ENOENT when there is none. */
int sm_unwatch(struct sm *sm, const char *name, bc_binder *cb);
/** Whether @a and @b are the same object (same proxy or same local). */
bool sm_same_binder(bc_binder *a, bc_binder *b);

/* ---- lazy.c -------------------------------------------------------------- */

/** How often the daemon compares client counts (as Android: 5 s). */
#define SM_CLIENT_CHECK_MS 5000
/** Client callbacks one service may have. */
#define SM_MAX_CLIENT_CALLBACKS 8
/** start-command runs a service's command at most this often. */
#define SM_START_INTERVAL_MS 1000

/**
 * Add IClientCallback @cb to @s (registerClientCallback; the caller has
 * checked who asks).  Links to its death.  -ENOSPC, -EPIPE (dead), -ENOMEM.
 */
int sm_add_client_callback(struct sm *sm, struct sm_service *s, bc_binder *cb, int wire, int partition);
/** Drop @s's client callbacks (when @s is freed). */
void sm_drop_client_callbacks(struct sm_service *s);
/** Whether @s is a lazy service (has client callbacks). */
bool sm_is_lazy(const struct sm_service *s);
/**
 * Count @s's clients: the driver's strong count on its node minus our own
 * reference.  Tells the callbacks when the answer changed: both ways when
 * @periodic, only "has clients" otherwise (a lookup must not tell a
 * service it may go while a reply carrying it is in flight).  Returns
 * the number of other holders, or -errno when the driver cannot say.
 */
int sm_check_clients(struct sm *sm, struct sm_service *s, bool periodic);
/**
 * Whether @s may be unregistered now (tryUnregisterService): 0 when
 * nobody but us holds it -- besides, once it was last told "no clients",
 * the notifications that told it so (see lazy.c) -- -EBUSY when others
 * do (a lazy service that believed it had none is told otherwise), or
 * -errno when the driver cannot count.
 */
int sm_may_unregister(struct sm *sm, struct sm_service *s);
/** @s was just handed to a client (get or check). */
void sm_handed_out(struct sm *sm, struct sm_service *s);
/** The periodic check of every lazy service (main loop, each
 * SM_CLIENT_CHECK_MS). */
void sm_check_all_clients(struct sm *sm);
/**
 * A getService for the absent @name: run its start-command, unless one
 * started less than SM_START_INTERVAL_MS ago or still runs (then it is
 * run again when that one exits).  Never waits.  0 when started, -ENOENT
 * when @name has no start-command, -EALREADY, -EAGAIN, or the spawn error.
 */
int sm_try_start(struct sm *sm, const char *name);
/** Child @pid (a start-command) exited with wait status @status. */
void sm_child_exited(struct sm *sm, pid_t pid, int status);
/** Free the start-command records (sm_fini). */
void sm_drop_starts(struct sm *sm);
/* The real hooks (struct sm's strong_count, spawn, clock_ms). */
int sm_node_strong_count(bc_binder *b, uint32_t *ret);
int sm_spawn(const char *const *argv, pid_t *ret);
int64_t sm_clock_ms(void);

/* ---- handler.c ----------------------------------------------------------- */

/** Serve one transaction to the service manager object (the library's
 * bc_transact_fn shape with the struct sm as user data). */
int sm_transact(bc_binder *self, bc_txn *txn, uint32_t code, bc_parcel *in, bc_parcel *reply, void *userdata);
/** The same with the caller given explicitly (tests). */
int sm_handle(struct sm *sm, const struct sm_caller *c, uint32_t code, bc_parcel *in, bc_parcel *reply);

#endif
