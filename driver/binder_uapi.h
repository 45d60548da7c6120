/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binderc: the binder user interface this driver implements, as Linux 7.3
 * defines it (protocol 8, 64-bit binder_uintptr_t), kept here so that an
 * older kernel's <linux/android/binder.h> never limits the driver.  Every
 * name, value and layout matches mainline's include/uapi/linux/android/
 * binder.h; the ioctl numbers are macros rather than 7.3's enum (same
 * values), so they also work in #if.
 *
 * The kernel's header is guarded by _UAPI_LINUX_BINDER_H; defining that
 * guard here makes any later #include of it a no-op, so the two sets of
 * definitions can never meet.  If the kernel's copy came first, this file
 * refuses to build rather than silently using the older definitions.
 */
#ifndef BINDERC_BINDER_UAPI_H
#define BINDERC_BINDER_UAPI_H

#ifdef _UAPI_LINUX_BINDER_H
#error "<linux/android/binder.h> was included before binder_uapi.h"
#endif
#define _UAPI_LINUX_BINDER_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* Object types: four characters, the last one B_TYPE_LARGE. */
#define B_PACK_CHARS(c1, c2, c3, c4) \
	(((c1) << 24) | ((c2) << 16) | ((c3) << 8) | (c4))
#define B_TYPE_LARGE 0x85

enum {
	BINDER_TYPE_BINDER	= B_PACK_CHARS('s', 'b', '*', B_TYPE_LARGE),
	BINDER_TYPE_WEAK_BINDER	= B_PACK_CHARS('w', 'b', '*', B_TYPE_LARGE),
	BINDER_TYPE_HANDLE	= B_PACK_CHARS('s', 'h', '*', B_TYPE_LARGE),
	BINDER_TYPE_WEAK_HANDLE	= B_PACK_CHARS('w', 'h', '*', B_TYPE_LARGE),
	BINDER_TYPE_FD		= B_PACK_CHARS('f', 'd', '*', B_TYPE_LARGE),
	BINDER_TYPE_FDA		= B_PACK_CHARS('f', 'd', 'a', B_TYPE_LARGE),
	BINDER_TYPE_PTR		= B_PACK_CHARS('p', 't', '*', B_TYPE_LARGE),
};

/* flat_binder_object.flags */
enum flat_binder_object_flags {
	FLAT_BINDER_FLAG_PRIORITY_MASK		= 0xff,
	FLAT_BINDER_FLAG_ACCEPTS_FDS		= 0x100,
	/* Android's real-time extension; mainline ignores these bits. */
	FLAT_BINDER_FLAG_SCHED_POLICY_SHIFT	= 9,
	FLAT_BINDER_FLAG_SCHED_POLICY_MASK	= 3U << 9,
	FLAT_BINDER_FLAG_INHERIT_RT		= 0x800,
	FLAT_BINDER_FLAG_TXN_SECURITY_CTX	= 0x1000,
};

typedef __u64 binder_size_t;
typedef __u64 binder_uintptr_t;

struct binder_object_header {
	__u32 type;
};

/* BINDER_TYPE_(WEAK_)BINDER carries binder, (WEAK_)HANDLE carries handle. */
struct flat_binder_object {
	struct binder_object_header hdr;
	__u32 flags;
	union {
		binder_uintptr_t binder;
		__u32 handle;
	};
	binder_uintptr_t cookie;
};

struct binder_fd_object {
	struct binder_object_header hdr;
	__u32 pad_flags;
	union {
		binder_uintptr_t pad_binder;
		__u32 fd;
	};
	binder_uintptr_t cookie;
};

/* BINDER_TYPE_PTR: a buffer copied along, optionally inside a parent. */
struct binder_buffer_object {
	struct binder_object_header hdr;
	__u32 flags;
	binder_uintptr_t buffer;
	binder_size_t length;
	binder_size_t parent;
	binder_size_t parent_offset;
};

enum {
	BINDER_BUFFER_FLAG_HAS_PARENT = 0x01,
};

/* BINDER_TYPE_FDA: num_fds fds inside the parent buffer object. */
struct binder_fd_array_object {
	struct binder_object_header hdr;
	__u32 pad;
	binder_size_t num_fds;
	binder_size_t parent;
	binder_size_t parent_offset;
};

struct binder_write_read {
	binder_size_t write_size;
	binder_size_t write_consumed;
	binder_uintptr_t write_buffer;
	binder_size_t read_size;
	binder_size_t read_consumed;
	binder_uintptr_t read_buffer;
};

struct binder_version {
	__s32 protocol_version;
};

#define BINDER_CURRENT_PROTOCOL_VERSION 8

struct binder_node_debug_info {
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
	__u32 has_strong_ref;
	__u32 has_weak_ref;
};

struct binder_node_info_for_ref {
	__u32 handle;
	__u32 strong_count;
	__u32 weak_count;
	__u32 reserved1;
	__u32 reserved2;
	__u32 reserved3;
};

struct binder_freeze_info {
	__u32 pid;
	__u32 enable;
	__u32 timeout_ms;
};

struct binder_frozen_status_info {
	__u32 pid;
	__u32 sync_recv;	/* bit 0: received while frozen, bit 1: pending */
	__u32 async_recv;
};

/* BR_FROZEN_BINDER (added after Linux 6.1) */
struct binder_frozen_state_info {
	binder_uintptr_t cookie;
	__u32 is_frozen;
	__u32 reserved;
};

/* BINDER_GET_EXTENDED_ERROR (Linux 6.0) */
struct binder_extended_error {
	__u32 id;
	__u32 command;
	__s32 param;
};

#define BINDER_WRITE_READ		_IOWR('b', 1, struct binder_write_read)
#define BINDER_SET_IDLE_TIMEOUT		_IOW('b', 3, __s64)
#define BINDER_SET_MAX_THREADS		_IOW('b', 5, __u32)
#define BINDER_SET_IDLE_PRIORITY	_IOW('b', 6, __s32)
#define BINDER_SET_CONTEXT_MGR		_IOW('b', 7, __s32)
#define BINDER_THREAD_EXIT		_IOW('b', 8, __s32)
#define BINDER_VERSION			_IOWR('b', 9, struct binder_version)
#define BINDER_GET_NODE_DEBUG_INFO \
	_IOWR('b', 11, struct binder_node_debug_info)
#define BINDER_GET_NODE_INFO_FOR_REF \
	_IOWR('b', 12, struct binder_node_info_for_ref)
#define BINDER_SET_CONTEXT_MGR_EXT	_IOW('b', 13, struct flat_binder_object)
#define BINDER_FREEZE			_IOW('b', 14, struct binder_freeze_info)
#define BINDER_GET_FROZEN_INFO \
	_IOWR('b', 15, struct binder_frozen_status_info)
#define BINDER_ENABLE_ONEWAY_SPAM_DETECTION _IOW('b', 16, __u32)
#define BINDER_GET_EXTENDED_ERROR \
	_IOWR('b', 17, struct binder_extended_error)

enum transaction_flags {
	TF_ONE_WAY	= 0x01,	/* asynchronous: no reply */
	TF_ROOT_OBJECT	= 0x04,
	TF_STATUS_CODE	= 0x08,	/* the data is a 32-bit status code */
	TF_ACCEPT_FDS	= 0x10,	/* the caller accepts fds in the reply */
	TF_CLEAR_BUF	= 0x20,	/* zero the buffer when it is freed */
	TF_UPDATE_TXN	= 0x40,	/* replace an outdated pending oneway */
};

struct binder_transaction_data {
	union {
		__u32 handle;		/* BC_TRANSACTION: the target handle */
		binder_uintptr_t ptr;	/* BR_TRANSACTION: the target node */
	} target;
	binder_uintptr_t cookie;
	__u32 code;
	__u32 flags;
	__kernel_pid_t sender_pid;
	__kernel_uid32_t sender_euid;
	binder_size_t data_size;
	binder_size_t offsets_size;
	union {
		struct {
			binder_uintptr_t buffer;
			binder_uintptr_t offsets;
		} ptr;
		__u8 buf[8];
	} data;
};

struct binder_transaction_data_secctx {
	struct binder_transaction_data transaction_data;
	binder_uintptr_t secctx;
};

struct binder_transaction_data_sg {
	struct binder_transaction_data transaction_data;
	binder_size_t buffers_size;
};

struct binder_ptr_cookie {
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
};

struct binder_handle_cookie {
	__u32 handle;
	binder_uintptr_t cookie;
} __packed;

struct binder_pri_desc {
	__s32 priority;
	__u32 desc;
};

struct binder_pri_ptr_cookie {
	__s32 priority;
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
};

/* Driver to user space, in the read buffer. */
enum binder_driver_return_protocol {
	BR_ERROR = _IOR('r', 0, __s32),
	BR_OK = _IO('r', 1),
	BR_TRANSACTION_SEC_CTX = _IOR('r', 2,
				      struct binder_transaction_data_secctx),
	BR_TRANSACTION = _IOR('r', 2, struct binder_transaction_data),
	BR_REPLY = _IOR('r', 3, struct binder_transaction_data),
	BR_ACQUIRE_RESULT = _IOR('r', 4, __s32),
	BR_DEAD_REPLY = _IO('r', 5),
	BR_TRANSACTION_COMPLETE = _IO('r', 6),
	BR_INCREFS = _IOR('r', 7, struct binder_ptr_cookie),
	BR_ACQUIRE = _IOR('r', 8, struct binder_ptr_cookie),
	BR_RELEASE = _IOR('r', 9, struct binder_ptr_cookie),
	BR_DECREFS = _IOR('r', 10, struct binder_ptr_cookie),
	BR_ATTEMPT_ACQUIRE = _IOR('r', 11, struct binder_pri_ptr_cookie),
	BR_NOOP = _IO('r', 12),
	BR_SPAWN_LOOPER = _IO('r', 13),
	BR_FINISHED = _IO('r', 14),
	BR_DEAD_BINDER = _IOR('r', 15, binder_uintptr_t),
	BR_CLEAR_DEATH_NOTIFICATION_DONE = _IOR('r', 16, binder_uintptr_t),
	BR_FAILED_REPLY = _IO('r', 17),
	BR_FROZEN_REPLY = _IO('r', 18),
	BR_ONEWAY_SPAM_SUSPECT = _IO('r', 19),
	/* added after Linux 6.1 */
	BR_TRANSACTION_PENDING_FROZEN = _IO('r', 20),
	BR_FROZEN_BINDER = _IOR('r', 21, struct binder_frozen_state_info),
	BR_CLEAR_FREEZE_NOTIFICATION_DONE = _IOR('r', 22, binder_uintptr_t),
};

/* User space to driver, in the write buffer. */
enum binder_driver_command_protocol {
	BC_TRANSACTION = _IOW('c', 0, struct binder_transaction_data),
	BC_REPLY = _IOW('c', 1, struct binder_transaction_data),
	BC_ACQUIRE_RESULT = _IOW('c', 2, __s32),
	BC_FREE_BUFFER = _IOW('c', 3, binder_uintptr_t),
	BC_INCREFS = _IOW('c', 4, __u32),
	BC_ACQUIRE = _IOW('c', 5, __u32),
	BC_RELEASE = _IOW('c', 6, __u32),
	BC_DECREFS = _IOW('c', 7, __u32),
	BC_INCREFS_DONE = _IOW('c', 8, struct binder_ptr_cookie),
	BC_ACQUIRE_DONE = _IOW('c', 9, struct binder_ptr_cookie),
	BC_ATTEMPT_ACQUIRE = _IOW('c', 10, struct binder_pri_desc),
	BC_REGISTER_LOOPER = _IO('c', 11),
	BC_ENTER_LOOPER = _IO('c', 12),
	BC_EXIT_LOOPER = _IO('c', 13),
	BC_REQUEST_DEATH_NOTIFICATION = _IOW('c', 14,
					     struct binder_handle_cookie),
	BC_CLEAR_DEATH_NOTIFICATION = _IOW('c', 15,
					   struct binder_handle_cookie),
	BC_DEAD_BINDER_DONE = _IOW('c', 16, binder_uintptr_t),
	BC_TRANSACTION_SG = _IOW('c', 17, struct binder_transaction_data_sg),
	BC_REPLY_SG = _IOW('c', 18, struct binder_transaction_data_sg),
	/* added after Linux 6.1 */
	BC_REQUEST_FREEZE_NOTIFICATION = _IOW('c', 19,
					      struct binder_handle_cookie),
	BC_CLEAR_FREEZE_NOTIFICATION = _IOW('c', 20,
					    struct binder_handle_cookie),
	BC_FREEZE_NOTIFICATION_DONE = _IOW('c', 21, binder_uintptr_t),
};

#endif /* BINDERC_BINDER_UAPI_H */
