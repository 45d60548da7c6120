/* SPDX-License-Identifier: MIT */
/*
 * binderc/common.h - types and constants shared by every libbinder-c header.
 *
 * Conventions: every function that can fail returns 0 (or a non-negative
 * value where documented) on success and a negative errno value on failure.
 * Objects are opaque and reference counted; *_unref() always returns NULL so
 * that `p = bc_parcel_unref(p);` clears the caller's pointer.
 */
#ifndef BINDERC_COMMON_H
#define BINDERC_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A parcel: the data (and objects) of one transaction or reply. */
typedef struct bc_parcel bc_parcel;
/** A binder: a local object served by this process, or a proxy (handle). */
typedef struct bc_binder bc_binder;
/** A weak reference to a binder. */
typedef struct bc_weak bc_weak;
/** A class of local objects: interface descriptor plus callbacks. */
typedef struct bc_class bc_class;
/** One opened binder device (process state, threads, proxies). */
typedef struct bc_process bc_process;
/** An incoming transaction being served by a local object. */
typedef struct bc_txn bc_txn;
/** One registration of a callback (binderc/slot.h). */
typedef struct bc_slot bc_slot;

/**
 * Wire dialects of the Android parcel format.  They differ in the
 * interface-token request header and in the stability word written after
 * every binder object.
 *
 *  - BINDERC_WIRE_ANDROID_9:  header = int32 policy 0x40<<16, String16
 *                             descriptor; no stability word.
 *  - BINDERC_WIRE_ANDROID_10: header = policy, int32 work source (-1),
 *                             String16 descriptor; no stability word.
 *  - BINDERC_WIRE_ANDROID_11: header = policy, work source, int32
 *                             'SYST'/'VNDR', String16 descriptor;
 *                             stability word = raw level.
 *  - BINDERC_WIRE_ANDROID_12: as 11, but the policy word is 1<<31 and the
 *                             stability word is the 4-byte Category
 *                             {u8 version=1, u8 reserved[2], u8 level}.
 *  - BINDERC_WIRE_ANDROID_13: as 12 with the raw-level stability word of 11
 *                             (Android 13 and later).
 */
enum bc_wire {
	BINDERC_WIRE_ANDROID_9 = 9,
	BINDERC_WIRE_ANDROID_10 = 10,
	BINDERC_WIRE_ANDROID_11 = 11,
	BINDERC_WIRE_ANDROID_12 = 12,
	BINDERC_WIRE_ANDROID_13 = 13,
};

/** The dialect used by parcels unless told otherwise. */
#define BINDERC_WIRE_DEFAULT BINDERC_WIRE_ANDROID_13

/** Which copy of libbinder the peer is: selects the 'SYST'/'VNDR' word. */
enum bc_partition {
	BINDERC_PARTITION_SYSTEM = 0,
	BINDERC_PARTITION_VENDOR = 1,
};

/** Header words of the Android 11+ interface token. */
#define BINDERC_HEADER_SYST 0x53595354u
#define BINDERC_HEADER_VNDR 0x564e4452u

/** Stability levels carried after binder objects (Android 11+). */
enum bc_stability {
	BINDERC_STABILITY_UNDECLARED = 0x00,
	BINDERC_STABILITY_VENDOR = 0x03,
	BINDERC_STABILITY_SYSTEM = 0x0c,
	BINDERC_STABILITY_VINTF = 0x3f,
};

/** Transaction codes. */
#define BINDERC_FIRST_CALL_TRANSACTION 0x00000001u
#define BINDERC_LAST_CALL_TRANSACTION 0x00ffffffu
#define BINDERC_PING_TRANSACTION 0x5f504e47u	     /* '_PNG' */
#define BINDERC_INTERFACE_TRANSACTION 0x5f4e5446u /* '_NTF' */

/** Transaction flag: one-way call, no reply. */
#define BINDERC_FLAG_ONEWAY 0x01u
/**
 * Transaction flag, with BINDERC_FLAG_ONEWAY: return BINDERC_QUEUED_FROZEN
 * instead of 0 when the target's process is frozen and the driver queued
 * the call until it thaws (BR_TRANSACTION_PENDING_FROZEN: binderc, and
 * mainline from Linux 6.3; older drivers queue it silently and 0 comes
 * back).  Without the flag the return stays 0/-errno.
 */
#define BINDERC_FLAG_TELL_FROZEN 0x02u
/**
 * Transaction flag: the call carries sensitive data (AIDL's
 * @SensitiveData; Android's FLAG_CLEAR_BUF).  The driver zeroes the
 * transaction's buffer when the receiver frees it (TF_CLEAR_BUF), the
 * receiver's reply is sent the same way, and the request and reply
 * parcels the library holds for the call are zeroed when freed (see
 * bc_parcel_mark_sensitive()).  Over RPC binder the flag travels in the
 * transaction's flags word, as Android's RpcState sends it.
 */
#define BINDERC_FLAG_CLEAR_BUF 0x20u
/** bc_binder_transact(): a oneway call queued to a frozen process. */
#define BINDERC_QUEUED_FROZEN 1

#ifdef __cplusplus
}
#endif

#endif
