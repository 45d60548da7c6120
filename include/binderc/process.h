/* SPDX-License-Identifier: MIT */
/*
 * binderc/process.h - one opened binder device: the mapping, the thread
 * pool or polling mode, and access to handles.
 */
#ifndef BINDERC_PROCESS_H
#define BINDERC_PROCESS_H

#include <binderc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Size of the receive mapping: 1 MiB minus two pages, as libbinder. */
#define BINDERC_PROCESS_MAP_SIZE(pagesz) ((size_t)(1u << 20) - 2 * (size_t)(pagesz))
/** Default BINDER_SET_MAX_THREADS value. */
#define BINDERC_PROCESS_DEFAULT_MAX_THREADS 15u

/**
 * Open @device (NULL: $BINDER_DEVICE, else /dev/binderc if it exists, else
 * /dev/binder), check the protocol version, map the receive buffer and set
 * the maximum number of pool threads to the default.
 */
int bc_process_open(const char *device, bc_process **ret);
/** Take a reference. */
bc_process *bc_process_ref(bc_process *p);
/** Drop a reference; the last one stops the pool, releases everything the
 * kernel held on our objects, unmaps and closes.  Returns NULL. */
bc_process *bc_process_unref(bc_process *p);
/** Path of the opened device. */
const char *bc_process_get_device(const bc_process *p);
/** The device file descriptor (owned by the process). */
int bc_process_get_fd(const bc_process *p);

/** Set the dialect of parcels made for and received on this device. */
int bc_process_set_wire(bc_process *p, int wire, int partition);
/** Create an empty parcel in this device's dialect. */
int bc_process_new_parcel(bc_process *p, bc_parcel **ret);

/** BINDER_SET_MAX_THREADS: how many extra threads the kernel may ask the
 * pool to spawn (BR_SPAWN_LOOPER). */
int bc_process_set_max_threads(bc_process *p, uint32_t n);
/** Start the thread pool: one looper now, more when the kernel asks.
 * -EALREADY if started. */
int bc_process_start_thread_pool(bc_process *p);
/** Make the calling thread serve transactions until bc_process_stop(). */
int bc_process_join(bc_process *p);
/** Stop the pool threads and joined threads (waits for pool threads). */
int bc_process_stop(bc_process *p);

/**
 * Polling mode: make the calling thread a looper and return the fd to wait
 * on for POLLIN.  Only this thread may then call
 * bc_process_handle_polled().
 */
int bc_process_setup_polling(bc_process *p, int *ret_fd);
/** Handle everything the driver has for the polling thread, without
 * blocking when there is nothing. */
int bc_process_handle_polled(bc_process *p);

/** A proxy for @handle (0 = the context manager); new strong reference. */
int bc_process_get_handle(bc_process *p, uint32_t handle, bc_binder **ret);
/** Make this process the context manager (handle 0) with local object
 * @obj.  -EBUSY if the device already has one. */
int bc_process_become_context_manager(bc_process *p, bc_binder *obj);

#ifdef __cplusplus
}
#endif

#endif
