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

/** IServiceCallback.onRegistration (oneway). */
#define SM_CALLBACK_ON_REGISTRATION 1u

#endif
