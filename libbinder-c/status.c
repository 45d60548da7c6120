/* SPDX-License-Identifier: MIT */
/* The AIDL status value type, and where a call's error came from. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void bc_status_clear(bc_status *st)
{
	if (!st)
		return;
	free(st->message);
	st->message = NULL;
	st->exception = BINDERC_EX_NONE;
	st->service_error = 0;
}

int bc_status_set_exception(bc_status *st, int32_t exception, const char *message)
{
	char *m = NULL;

	if (!st)
		return -EINVAL;
	if (message && !(m = strdup(message)))
		return -ENOMEM;
	free(st->message);
	st->message = m;
	st->exception = exception;
	st->service_error = 0;
	return 0;
}

int bc_status_set_service_error(bc_status *st, int32_t error, const char *message)
{
	int r = bc_status_set_exception(st, BINDERC_EX_SERVICE_SPECIFIC, message);

	if (r == 0)
		st->service_error = error;
	return r;
}

bool bc_status_is_ok(const bc_status *st)
{
	return !st || st->exception == BINDERC_EX_NONE;
}

const char *bc_exception_name(int32_t ex)
{
	switch (ex) {
	case BINDERC_EX_NONE: return "EX_NONE";
	case BINDERC_EX_SECURITY: return "EX_SECURITY";
	case BINDERC_EX_BAD_PARCELABLE: return "EX_BAD_PARCELABLE";
	case BINDERC_EX_ILLEGAL_ARGUMENT: return "EX_ILLEGAL_ARGUMENT";
	case BINDERC_EX_NULL_POINTER: return "EX_NULL_POINTER";
	case BINDERC_EX_ILLEGAL_STATE: return "EX_ILLEGAL_STATE";
	case BINDERC_EX_NETWORK_MAIN_THREAD: return "EX_NETWORK_MAIN_THREAD";
	case BINDERC_EX_UNSUPPORTED_OPERATION: return "EX_UNSUPPORTED_OPERATION";
	case BINDERC_EX_SERVICE_SPECIFIC: return "EX_SERVICE_SPECIFIC";
	case BINDERC_EX_PARCELABLE: return "EX_PARCELABLE";
	case BINDERC_EX_HAS_NOTED_APPOPS_REPLY_HEADER: return "EX_HAS_NOTED_APPOPS_REPLY_HEADER";
	case BINDERC_EX_HAS_REPLY_HEADER: return "EX_HAS_REPLY_HEADER";
	case BINDERC_EX_TRANSACTION_FAILED: return "EX_TRANSACTION_FAILED";
	default: return "EX_UNKNOWN";
	}
}

bool bc_error_is_remote(const bc_error *e)
{
	return e && e->origin == BINDERC_ERROR_REMOTE;
}

const char *bc_error_origin_name(int origin)
{
	switch (origin) {
	case BINDERC_ERROR_NONE:
		return "none";
	case BINDERC_ERROR_LOCAL:
		return "local";
	case BINDERC_ERROR_TRANSPORT:
		return "transport";
	case BINDERC_ERROR_REMOTE:
		return "remote";
	default:
		return "unknown";
	}
}
