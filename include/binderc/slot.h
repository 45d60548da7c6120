/* SPDX-License-Identifier: MIT */
/*
 * binderc/slot.h - registrations of callbacks.
 *
 * Every callback the library holds on the caller's behalf -- a death
 * recipient (bc_binder_link_to_death()), a frozen-state watch
 * (bc_binder_watch_frozen()), a service-manager notification
 * (bc_sm_watch()), a lazy service's client callback
 * (bc_sm_register_client_callback()) -- is one bc_slot, as sd-bus's
 * sd_bus_slot: the registering call hands back the first reference, and
 * dropping the last reference ends the registration.  The pointer given
 * with the callback is its @userdata, passed back unchanged.
 *
 * The rule for dropping:
 *  - From any thread but the callback's own: when the last bc_slot_unref()
 *    returns, the callback is not running and will not be called again
 *    (so @userdata may be freed then).  Do not drop it while holding a
 *    lock the callback takes: the drop waits for a running call.
 *  - From inside the slot's own callback: allowed.  The callback is not
 *    called again; the call in progress finishes normally (the slot's
 *    memory stays valid until it returns).
 *
 * A registration may also end on its own (a death recipient after it was
 * called, any of them when the remote process dies); the slot then stays
 * valid, doing nothing, until it is dropped.
 */
#ifndef BINDERC_SLOT_H
#define BINDERC_SLOT_H

#include <binderc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Take a reference.  Returns @s. */
bc_slot *bc_slot_ref(bc_slot *s);
/** Drop a reference; the last one ends the registration (see above).
 * Returns NULL. */
bc_slot *bc_slot_unref(bc_slot *s);
/** The @userdata given when the callback was registered. */
void *bc_slot_get_userdata(const bc_slot *s);

#ifdef __cplusplus
}
#endif

#endif
