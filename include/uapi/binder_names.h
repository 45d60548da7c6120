/* SPDX-License-Identifier: MIT */
/*
 * uapi/binder_names.h - the names of the BC and BR codes, made from the
 * lists in uapi/binder.h so that a code added there is named everywhere
 * (libbinder-c's reports, the tools, the driver tests).  The driver names
 * them from its own list (driver/debugfs.c, for the licence; see
 * uapi/binder.h), which scripts/check-style holds to this one.
 */
#ifndef BINDERC_UAPI_BINDER_NAMES_H
#define BINDERC_UAPI_BINDER_NAMES_H

#include <stdint.h>

#include <uapi/binder.h>

/* entries of a table indexed by the code's number */
#define BINDER_CODE_NAME_(name, value) [_IOC_NR(value)] = #name,
#define BINDER_CODE_VALUE_(name, value) [_IOC_NR(value)] = name,

/* "BR_..." for a BR code of this protocol, NULL for anything else. */
static inline const char *binder_br_name(uint32_t cmd)
{
	static const char *const names[] = { BINDER_BR_CODES(BINDER_CODE_NAME_) };
	static const uint32_t codes[] = { BINDER_BR_CODES(BINDER_CODE_VALUE_) };

	/* the one code not in the list: it shares BR_TRANSACTION's number */
	if (cmd == BR_TRANSACTION_SEC_CTX)
		return "BR_TRANSACTION_SEC_CTX";
	if (_IOC_NR(cmd) >= sizeof(names) / sizeof(names[0]) || codes[_IOC_NR(cmd)] != cmd)
		return NULL;
	return names[_IOC_NR(cmd)];
}

/* "BC_..." for a BC code of this protocol, NULL for anything else. */
static inline const char *binder_bc_name(uint32_t cmd)
{
	static const char *const names[] = { BINDER_BC_CODES(BINDER_CODE_NAME_) };
	static const uint32_t codes[] = { BINDER_BC_CODES(BINDER_CODE_VALUE_) };

	if (_IOC_NR(cmd) >= sizeof(names) / sizeof(names[0]) || codes[_IOC_NR(cmd)] != cmd)
		return NULL;
	return names[_IOC_NR(cmd)];
}

#undef BINDER_CODE_VALUE_
#undef BINDER_CODE_NAME_

#endif /* BINDERC_UAPI_BINDER_NAMES_H */
