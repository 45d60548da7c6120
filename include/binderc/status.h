/* SPDX-License-Identifier: MIT */
/*
 * binderc/status.h - where a call's error came from, AIDL exception codes
 * and the status value type.
 *
 * Transport errors (what the kernel or the remote library reports) are
 * negative errno values returned by the functions themselves:
 *   -EPIPE    dead object (BR_DEAD_REPLY),
 *   -ECOMM    failed transaction (BR_FAILED_REPLY),
 *   -EAGAIN   the target is frozen (BR_FROZEN_REPLY),
 *   -EBADMSG  unknown transaction (also what a handler returns for a code
 *             it does not know),
 *   -EPROTOTYPE  (from this process) the proxy is less stable than
 *             bc_binder_require_stability() asked: Android's BAD_TYPE,
 *   any other negative value a remote handler returned (sent back with
 *   TF_STATUS_CODE).
 * The same value can come from this process (-EPERM, -EINVAL...) or from
 * the remote handler: bc_binder_transact() says which in a bc_error.
 * Application-level AIDL exceptions travel inside the reply parcel as a
 * status header; this header describes them.
 */
#ifndef BINDERC_STATUS_H
#define BINDERC_STATUS_H

#include <binderc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Where a call's error came from (bc_error.origin). */
enum bc_error_origin {
	/** No error: the call succeeded. */
	BINDERC_ERROR_NONE = 0,
	/** This process: a bad argument, no memory, a parcel that cannot go
	 * to that process, a failed system call. */
	BINDERC_ERROR_LOCAL = 1,
	/** The driver: the call went out but failed (dead object, failed
	 * transaction, frozen target). */
	BINDERC_ERROR_TRANSPORT = 2,
	/** The called object: its handler (or its library, e.g. a wrong
	 * interface token) returned this status. */
	BINDERC_ERROR_REMOTE = 3,
};

/**
 * The detail of a call's outcome, filled by bc_binder_transact() when it
 * is given one (like sd-bus's sd_bus_error, but nothing to free): @origin
 * is an enum bc_error_origin, @error the negative errno value the call
 * returned (0 with BINDERC_ERROR_NONE).
 */
typedef struct bc_error {
	int origin;
	int error;
} bc_error;

/** Initializer for "no error". */
#define BINDERC_ERROR_INIT { BINDERC_ERROR_NONE, 0 }

/** True when @e says the called object returned the error. */
bool bc_error_is_remote(const bc_error *e);
/** Name of an origin ("none", "local", "transport", "remote"; "unknown"). */
const char *bc_error_origin_name(int origin);

/** AIDL exception codes (the first int32 of a reply). */
enum bc_exception {
	BINDERC_EX_NONE = 0,
	BINDERC_EX_SECURITY = -1,
	BINDERC_EX_BAD_PARCELABLE = -2,
	BINDERC_EX_ILLEGAL_ARGUMENT = -3,
	BINDERC_EX_NULL_POINTER = -4,
	BINDERC_EX_ILLEGAL_STATE = -5,
	BINDERC_EX_NETWORK_MAIN_THREAD = -6,
	BINDERC_EX_UNSUPPORTED_OPERATION = -7,
	BINDERC_EX_SERVICE_SPECIFIC = -8,
	BINDERC_EX_PARCELABLE = -9,
	BINDERC_EX_HAS_NOTED_APPOPS_REPLY_HEADER = -127,
	BINDERC_EX_HAS_REPLY_HEADER = -128,
	BINDERC_EX_TRANSACTION_FAILED = -129,
};

/**
 * A status value (not reference counted; clear it with bc_status_clear()).
 * @exception is an enum bc_exception, @service_error is meaningful for
 * BINDERC_EX_SERVICE_SPECIFIC, @message is malloc'd UTF-8 or NULL.
 */
typedef struct bc_status {
	int32_t exception;
	int32_t service_error;
	char *message;
} bc_status;

/** Initializer for an OK status. */
#define BINDERC_STATUS_INIT { BINDERC_EX_NONE, 0, NULL }

/** Free the message and reset to EX_NONE. */
void bc_status_clear(bc_status *st);
/** Set an exception with an optional message (copied).  0 or -ENOMEM. */
int bc_status_set_exception(bc_status *st, int32_t exception, const char *message);
/** Set EX_SERVICE_SPECIFIC with @error and an optional message. */
int bc_status_set_service_error(bc_status *st, int32_t error, const char *message);
/** True when the status is EX_NONE. */
bool bc_status_is_ok(const bc_status *st);
/** Name of an exception code ("EX_NONE", ...; "EX_UNKNOWN" otherwise). */
const char *bc_exception_name(int32_t exception);

#ifdef __cplusplus
}
#endif

#endif
