/* SPDX-License-Identifier: MIT */
/* binderc/binderc.h - umbrella header of libbinder-c. */
#ifndef BINDERC_BINDERC_H
#define BINDERC_BINDERC_H

#include <binderc/common.h>
#include <binderc/status.h>
#include <binderc/slot.h>
#include <binderc/parcel.h>
#include <binderc/binder.h>
#include <binderc/process.h>
#include <binderc/servicemanager.h>
#include <binderc/report.h>

/*
 * Signature interfaces (<binderc/iface.h>) live in a library of their own,
 * libbinder-c-iface, because they need libffi; include that header by name.
 */

#endif
