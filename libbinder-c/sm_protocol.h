/* SPDX-License-Identifier: MIT */
/*
 * libbinder-c/sm_protocol.h - the service-manager protocol: descriptors
 * and transaction codes of both dialects.
 *
 * Private to the tree: included by the client (libbinder-c/servicemanager.c)
 * and by the daemon (servicemanager/sm.h), so that the two cannot drift
 * apart.  What applications pass in (dialects, dump priorities, add flags)
 * is public and lives in <binderc/servicemanager.h>; this header has the
 * rest, which only the two ends of the wire need.
 */
#ifndef BINDERC_SM_PROTOCOL_H
#define BINDERC_SM_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <binderc/servicemanager.h>

#define SM_DESCRIPTOR "android.os.IServiceManager"
#define SM_CALLBACK_DESCRIPTOR "android.os.IServiceCallback"

/** Codes of the C servicemanager of Android <= 10. */
enum sm_legacy_code {
	SM_LEGACY_GET = 1,
	SM_LEGACY_CHECK = 2,
	SM_LEGACY_ADD = 3,
	SM_LEGACY_LIST = 4,
};

/** AIDL IServiceManager codes, Android 14 order (1..7 are the same in
 * 11, 12, 13 and 14). */
enum sm_aidl_code {
	SM_AIDL_GET_SERVICE = 1,
	SM_AIDL_CHECK_SERVICE = 2,
	SM_AIDL_ADD_SERVICE = 3,
	SM_AIDL_LIST_SERVICES = 4,
	SM_AIDL_REGISTER_FOR_NOTIFICATIONS = 5,
	SM_AIDL_UNREGISTER_FOR_NOTIFICATIONS = 6,
	SM_AIDL_IS_DECLARED = 7,
	SM_AIDL_GET_DECLARED_INSTANCES = 8,
	SM_AIDL_UPDATABLE_VIA_APEX = 9,
	SM_AIDL_GET_UPDATABLE_NAMES = 10,
	SM_AIDL_GET_CONNECTION_INFO = 11,
	SM_AIDL_REGISTER_CLIENT_CALLBACK = 12,
	SM_AIDL_TRY_UNREGISTER_SERVICE = 13,
	SM_AIDL_GET_SERVICE_DEBUG_INFO = 14,
};

/* The client sends one code whatever the dialect (only the header and
 * the argument layout differ), which is right only while these agree. */
_Static_assert((int)SM_LEGACY_GET == (int)SM_AIDL_GET_SERVICE && (int)SM_LEGACY_CHECK == (int)SM_AIDL_CHECK_SERVICE &&
		       (int)SM_LEGACY_ADD == (int)SM_AIDL_ADD_SERVICE &&
		       (int)SM_LEGACY_LIST == (int)SM_AIDL_LIST_SERVICES,
	       "legacy and AIDL service-manager codes 1..4 must agree");

/*
 * The AIDL IServiceManager of each release, method by method.  Codes are
 * FIRST_CALL_TRANSACTION (1) + the method's place in the .aidl file, so
 * the releases differ wherever a method was inserted.  Sources: the AIDL
 * stubs generated for each release (TRANSACTION_* constants) and
 * libgbinder's aidl5/aidl6 service managers for Android 15 and 16.
 *
 *   11  get check add list reg unreg isDeclared registerClientCallback
 *       tryUnregister
 *   12  ... isDeclared getDeclaredInstances updatableViaApex
 *       registerClientCallback tryUnregister getServiceDebugInfo
 *   13  ... updatableViaApex getConnectionInfo registerClientCallback ...
 *   14  ... updatableViaApex getUpdatableNames getConnectionInfo ...
 *   15  get getService2 check add list ... (14's order from add on)
 *   16  get getService2 check checkService2 add list ... (likewise)
 *
 * getService2/checkService2 answer a Service union (see handler.c).
 */
enum sm_release {
	SM_ANDROID_11 = 11,
	SM_ANDROID_12 = 12,
	SM_ANDROID_13 = 13,
	SM_ANDROID_14 = 14,
	SM_ANDROID_15 = 15,
	SM_ANDROID_16 = 16,
};
#define SM_RELEASE_FIRST SM_ANDROID_11
#define SM_RELEASE_LAST SM_ANDROID_16
/** The numbering of enum sm_aidl_code, and the default of both ends. */
#define SM_RELEASE_DEFAULT SM_ANDROID_14

/** The methods of IServiceManager, whatever their code. */
enum sm_method {
	SM_M_NONE = 0,
	SM_M_GET_SERVICE,
	SM_M_GET_SERVICE2,
	SM_M_CHECK_SERVICE,
	SM_M_CHECK_SERVICE2,
	SM_M_ADD_SERVICE,
	SM_M_LIST_SERVICES,
	SM_M_REGISTER_FOR_NOTIFICATIONS,
	SM_M_UNREGISTER_FOR_NOTIFICATIONS,
	SM_M_IS_DECLARED,
	SM_M_GET_DECLARED_INSTANCES,
	SM_M_UPDATABLE_VIA_APEX,
	SM_M_GET_UPDATABLE_NAMES,
	SM_M_GET_CONNECTION_INFO,
	SM_M_REGISTER_CLIENT_CALLBACK,
	SM_M_TRY_UNREGISTER_SERVICE,
	SM_M_GET_SERVICE_DEBUG_INFO,
	SM_M_COUNT
};

#define SM_MAX_CODE 16

/* [release - 11][code - 1]: the method, SM_M_NONE past the end. */
static const unsigned char sm_release_methods[SM_RELEASE_LAST - SM_RELEASE_FIRST + 1][SM_MAX_CODE] = {
	[SM_ANDROID_11 - SM_RELEASE_FIRST] = { SM_M_GET_SERVICE, SM_M_CHECK_SERVICE, SM_M_ADD_SERVICE, SM_M_LIST_SERVICES,
					       SM_M_REGISTER_FOR_NOTIFICATIONS, SM_M_UNREGISTER_FOR_NOTIFICATIONS,
					       SM_M_IS_DECLARED, SM_M_REGISTER_CLIENT_CALLBACK,
					       SM_M_TRY_UNREGISTER_SERVICE },
	[SM_ANDROID_12 - SM_RELEASE_FIRST] = { SM_M_GET_SERVICE, SM_M_CHECK_SERVICE, SM_M_ADD_SERVICE, SM_M_LIST_SERVICES,
					       SM_M_REGISTER_FOR_NOTIFICATIONS, SM_M_UNREGISTER_FOR_NOTIFICATIONS,
					       SM_M_IS_DECLARED, SM_M_GET_DECLARED_INSTANCES, SM_M_UPDATABLE_VIA_APEX,
					       SM_M_REGISTER_CLIENT_CALLBACK, SM_M_TRY_UNREGISTER_SERVICE,
					       SM_M_GET_SERVICE_DEBUG_INFO },
	[SM_ANDROID_13 - SM_RELEASE_FIRST] = { SM_M_GET_SERVICE, SM_M_CHECK_SERVICE, SM_M_ADD_SERVICE, SM_M_LIST_SERVICES,
					       SM_M_REGISTER_FOR_NOTIFICATIONS, SM_M_UNREGISTER_FOR_NOTIFICATIONS,
					       SM_M_IS_DECLARED, SM_M_GET_DECLARED_INSTANCES, SM_M_UPDATABLE_VIA_APEX,
					       SM_M_GET_CONNECTION_INFO, SM_M_REGISTER_CLIENT_CALLBACK,
					       SM_M_TRY_UNREGISTER_SERVICE, SM_M_GET_SERVICE_DEBUG_INFO },
	[SM_ANDROID_14 - SM_RELEASE_FIRST] = { SM_M_GET_SERVICE, SM_M_CHECK_SERVICE, SM_M_ADD_SERVICE, SM_M_LIST_SERVICES,
					       SM_M_REGISTER_FOR_NOTIFICATIONS, SM_M_UNREGISTER_FOR_NOTIFICATIONS,
					       SM_M_IS_DECLARED, SM_M_GET_DECLARED_INSTANCES, SM_M_UPDATABLE_VIA_APEX,
					       SM_M_GET_UPDATABLE_NAMES, SM_M_GET_CONNECTION_INFO,
					       SM_M_REGISTER_CLIENT_CALLBACK, SM_M_TRY_UNREGISTER_SERVICE,
					       SM_M_GET_SERVICE_DEBUG_INFO },
	[SM_ANDROID_15 - SM_RELEASE_FIRST] = { SM_M_GET_SERVICE, SM_M_GET_SERVICE2, SM_M_CHECK_SERVICE, SM_M_ADD_SERVICE,
					       SM_M_LIST_SERVICES, SM_M_REGISTER_FOR_NOTIFICATIONS,
					       SM_M_UNREGISTER_FOR_NOTIFICATIONS, SM_M_IS_DECLARED,
					       SM_M_GET_DECLARED_INSTANCES, SM_M_UPDATABLE_VIA_APEX,
					       SM_M_GET_UPDATABLE_NAMES, SM_M_GET_CONNECTION_INFO,
					       SM_M_REGISTER_CLIENT_CALLBACK, SM_M_TRY_UNREGISTER_SERVICE,
					       SM_M_GET_SERVICE_DEBUG_INFO },
	[SM_ANDROID_16 - SM_RELEASE_FIRST] = { SM_M_GET_SERVICE, SM_M_GET_SERVICE2, SM_M_CHECK_SERVICE,
					       SM_M_CHECK_SERVICE2, SM_M_ADD_SERVICE, SM_M_LIST_SERVICES,
					       SM_M_REGISTER_FOR_NOTIFICATIONS, SM_M_UNREGISTER_FOR_NOTIFICATIONS,
					       SM_M_IS_DECLARED, SM_M_GET_DECLARED_INSTANCES, SM_M_UPDATABLE_VIA_APEX,
					       SM_M_GET_UPDATABLE_NAMES, SM_M_GET_CONNECTION_INFO,
					       SM_M_REGISTER_CLIENT_CALLBACK, SM_M_TRY_UNREGISTER_SERVICE,
					       SM_M_GET_SERVICE_DEBUG_INFO },
};

static inline int sm_release_is_valid(int release)
{
	return release >= SM_RELEASE_FIRST && release <= SM_RELEASE_LAST;
}

/** The method @code means in @release (SM_M_NONE when none). */
static inline int sm_method_of(int release, uint32_t code)
{
	if (!sm_release_is_valid(release) || code < 1 || code > SM_MAX_CODE)
		return SM_M_NONE;
	return sm_release_methods[release - SM_RELEASE_FIRST][code - 1];
}

/** The code of @method in @release (0 when that release lacks it). */
static inline uint32_t sm_code_of(int release, int method)
{
	if (!sm_release_is_valid(release) || method <= SM_M_NONE)
		return 0;
	for (uint32_t c = 1; c <= SM_MAX_CODE; c++)
		if (sm_release_methods[release - SM_RELEASE_FIRST][c - 1] == method)
			return c;
	return 0;
}

/* The legacy dialect's codes as methods, for the table below. */
static const unsigned char sm_legacy_methods[SM_MAX_CODE] = {
	[SM_LEGACY_GET - 1] = SM_M_GET_SERVICE,
	[SM_LEGACY_CHECK - 1] = SM_M_CHECK_SERVICE,
	[SM_LEGACY_ADD - 1] = SM_M_ADD_SERVICE,
	[SM_LEGACY_LIST - 1] = SM_M_LIST_SERVICES,
};

/*
 * Each dialect of the service manager, described (as libgbinder describes
 * its service managers by table): both ends read what differs from here
 * instead of branching on the dialect.  A method whose code is 0 in a
 * dialect is not in it (the client answers -EOPNOTSUPP).
 */
struct sm_dialect {
	int dialect;          /* enum bc_sm_dialect that names it */
	const char *name;     /* in $BINDERC_SM_DIALECT and the daemon's log */
	int release;          /* enum sm_release of its AIDL codes; 0: legacy */
	const unsigned char *methods; /* [code - 1]: the method */
	int wire;             /* enum bc_wire of requests and of their replies */
	bool status_reply;    /* replies open with a binder::Status */
	bool list_by_index;   /* listServices: one name a call, by index */
	bool miss_is_bare_int; /* an absent service: int32 0, not a null binder */
};

#define SM_DIALECT_AIDL_(n, w)                                                                                    \
	{ BINDERC_SM_DIALECT_ANDROID_##n, "android-" #n, SM_ANDROID_##n, sm_release_methods[SM_ANDROID_##n - SM_RELEASE_FIRST], \
	  w, true, false, false }

static const struct sm_dialect sm_dialects[] = {
	{ BINDERC_SM_DIALECT_LEGACY, "legacy", 0, sm_legacy_methods, BINDERC_WIRE_ANDROID_9, false, true, true },
	SM_DIALECT_AIDL_(11, BINDERC_WIRE_ANDROID_11),
	SM_DIALECT_AIDL_(12, BINDERC_WIRE_ANDROID_12),
	SM_DIALECT_AIDL_(13, BINDERC_WIRE_ANDROID_13),
	SM_DIALECT_AIDL_(14, BINDERC_WIRE_ANDROID_13),
	SM_DIALECT_AIDL_(15, BINDERC_WIRE_ANDROID_13),
	SM_DIALECT_AIDL_(16, BINDERC_WIRE_ANDROID_13),
};
#undef SM_DIALECT_AIDL_

/** The description of @dialect (BINDERC_SM_DIALECT_AIDL is Android
 * 14's); NULL for none. */
static inline const struct sm_dialect *sm_dialect_of(int dialect)
{
	if (dialect == BINDERC_SM_DIALECT_AIDL)
		dialect = SM_RELEASE_DEFAULT;
	for (size_t i = 0; i < sizeof(sm_dialects) / sizeof(sm_dialects[0]); i++)
		if (sm_dialects[i].dialect == dialect)
			return &sm_dialects[i];
	return NULL;
}

/** The dialect named @name ("aidl" too); NULL for none. */
static inline const struct sm_dialect *sm_dialect_named(const char *name)
{
	if (strcmp(name, "aidl") == 0)
		return sm_dialect_of(BINDERC_SM_DIALECT_AIDL);
	for (size_t i = 0; i < sizeof(sm_dialects) / sizeof(sm_dialects[0]); i++)
		if (strcmp(sm_dialects[i].name, name) == 0)
			return &sm_dialects[i];
	return NULL;
}

/** The code of @method in @d (0 when @d lacks it). */
static inline uint32_t sm_dialect_code(const struct sm_dialect *d, int method)
{
	for (uint32_t c = 1; method > SM_M_NONE && c <= SM_MAX_CODE; c++)
		if (d->methods[c - 1] == method)
			return c;
	return 0;
}

/** The method @code means in @d (SM_M_NONE when none). */
static inline int sm_dialect_method(const struct sm_dialect *d, uint32_t code)
{
	return code >= 1 && code <= SM_MAX_CODE ? d->methods[code - 1] : SM_M_NONE;
}

/** The client's reading of a reply in @d (libbinder-c/servicemanager.c):
 * in @d's wire, past the status if @d has one; -errno for an error status. */
int bc__sm_open_reply(const struct sm_dialect *d, bc_parcel *reply);

/** IServiceCallback.onRegistration (oneway). */
#define SM_CALLBACK_ON_REGISTRATION 1u

/** IClientCallback.onClients(IBinder registered, boolean hasClients)
 * (oneway): how the service manager tells a lazy service whether anyone
 * but itself holds it. */
#define SM_CLIENT_CALLBACK_DESCRIPTOR "android.os.IClientCallback"
#define SM_CLIENT_CALLBACK_ON_CLIENTS 1u

#endif
