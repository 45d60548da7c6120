/* SPDX-License-Identifier: MIT */
/*
 * Stability: the level each binder carries in the word after its object
 * (parcel_objects.c writes and reads the word, in each dialect's form),
 * and the check a proxy makes before a user transaction.
 *
 * As Android's libbinder (Stability.cpp, Android 11 to 14): a level is a
 * bit set, UNDECLARED 0, VENDOR 0b000011, SYSTEM 0b001100, VINTF
 * 0b111111, so that VINTF includes both partitions and a binder is stable
 * enough for @required when every bit of @required is set in its level
 * (Stability::check).  A binder never marked is written with the local
 * level of the partition it goes out from (Parcel::finishFlattenBinder's
 * tryMarkCompilationUnit), and so is the context object (handle 0), which
 * Android marks the same way in ProcessState::getContextObject.
 *
 * Android's BpBinder::transact refuses every user transaction on a proxy
 * less stable than the process's own level, with BAD_TYPE.  binderc does
 * not impose that on every proxy, since peers that are not Android (older
 * binderc, libgbinder without per-object levels) send other words; a
 * caller asks for it per proxy with bc_binder_require_stability(), and
 * the refusal is -EPROTOTYPE (BAD_TYPE has no errno of its own).
 */
#include <errno.h>

#include "internal.h"

static bool is_declared(int level)
{
	return level == BINDERC_STABILITY_VENDOR || level == BINDERC_STABILITY_SYSTEM || level == BINDERC_STABILITY_VINTF;
}

/* Stability::check: an unknown level is never stable enough. */
static bool includes(int provided, int required)
{
	if (provided != BINDERC_STABILITY_UNDECLARED && !is_declared(provided))
		return false;
	return (provided & required) == required;
}

static const char *level_name(int level)
{
	switch (level) {
	case BINDERC_STABILITY_UNDECLARED:
		return "undeclared";
	case BINDERC_STABILITY_VENDOR:
		return "vendor";
	case BINDERC_STABILITY_SYSTEM:
		return "system";
	case BINDERC_STABILITY_VINTF:
		return "vintf";
	}
	return "unknown";
}

int bc__binder_wire_stability(const bc_binder *b, int partition)
{
	return b->stability ? b->stability : b->ops->default_stability(b, partition);
}

void bc__binder_set_stability_raw(bc_binder *b, int level)
{
	if (b->ops->received_stability)
		b->ops->received_stability(b, level);
}

/* The level @b is known by here: what came with it, what it was set to,
 * or else the level it would be sent with from its process's partition. */
static int effective(const bc_binder *b)
{
	bc_process *proc = b->proc;

	return bc__binder_wire_stability(b, proc ? proc->partition : BINDERC_PARTITION_SYSTEM);
}

int bc_binder_set_stability(bc_binder *b, int level)
{
	if (!bc__as_local(b))
		return -EINVAL;
	if (level != BINDERC_STABILITY_UNDECLARED && !is_declared(level))
		return -EINVAL;
	/* Peers keep the level that came first with an object and refuse
	 * another one later (Stability::setRepr, BAD_TYPE): once it went
	 * out through a driver, the level stays what it was sent with. */
	if (atomic_load(&b->proc)) {
		int now = effective(b);
		int then = level ? level : b->ops->default_stability(b, b->proc->partition);

		if (then != now)
			return -EBUSY;
	}
	b->stability = level;
	return 0;
}

int bc_binder_get_stability(const bc_binder *b)
{
	return b ? b->stability : -EINVAL;
}

int bc_binder_require_stability(bc_binder *b, int level)
{
	int have;

	if (!b || !is_declared(level))
		return -EINVAL;
	/* Calls to a local object run here and are never checked (nor are
	 * Android's BBinder's). */
	if (bc__as_local(b))
		return 0;
	atomic_fetch_or(&b->required, level);
	have = effective(b);
	if (!includes(have, level)) {
		bc__log("proxy of %s stability where %s is required", level_name(have), level_name(level));
		return -EPROTOTYPE;
	}
	return 0;
}

int bc__binder_check_call(const bc_binder *b, uint32_t code)
{
	int required = atomic_load(&b->required);
	int have;

	if (!required || code < BINDERC_FIRST_CALL_TRANSACTION || code > BINDERC_LAST_CALL_TRANSACTION)
		return 0;
	have = effective(b);
	if (includes(have, required))
		return 0;
	bc__log("cannot do a user transaction (code %u) on a %s stability binder where %s is required", code,
		level_name(have), level_name(required));
	return -EPROTOTYPE;
}
