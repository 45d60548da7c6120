/* SPDX-License-Identifier: MIT */
/*
 * uapi/binder.h - the binder user interface (Linux 7.3: protocol 8,
 * 64-bit binder_uintptr_t) for everything of this tree that runs in user
 * space: libbinder-c, servicemanager, tools, tests and bench.
 *
 * Why a copy at all: the <linux/android/binder.h> of the systems we build
 * on is older than the interface we speak (Debian 12's is 6.1's: no
 * BR_TRANSACTION_PENDING_FROZEN, no frozen-binder notifications), and
 * each program used to patch in what it lacked under names of its own.
 * Why not driver/binder_uapi.h: that copy is the module's, GPL-2.0-only
 * (without the syscall note the kernel's own UAPI headers carry), and
 * user space here is MIT.  So there are two copies, one a side; the
 * protocol codes of both are compared by scripts/check-style ('uapi').
 *
 * Names, values and layouts are those of mainline's
 * include/uapi/linux/android/binder.h, except that the ioctl numbers are
 * macros (usable in #if) and the BC and BR codes are generated from the
 * lists BINDER_BC_CODES and BINDER_BR_CODES, which also give the names
 * (uapi/binder_names.h).
 *
 * It defines the system header's guards, so a later
 * #include <linux/android/binder.h> (<linux/android/binderfs.h> has one)
 * is a no-op; included after the system header it refuses to build.
 */
#ifndef BINDERC_UAPI_BINDER_H
#define BINDERC_UAPI_BINDER_H

#if defined(_LINUX_BINDER_H) || defined(_UAPI_LINUX_BINDER_H)
#error "<linux/android/binder.h> was included before <uapi/binder.h>"
#endif
#define _LINUX_BINDER_H
#define _UAPI_LINUX_BINDER_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define B_PACK_CHARS(c1, c2, c3, c4) (((c1) << 24) | ((c2) << 16) | ((c3) << 8) | (c4))
#define B_TYPE_LARGE 0x85

/* The type word that opens every object in a transaction's data. */
enum {
	BINDER_TYPE_BINDER = B_PACK_CHARS('s', 'b', '*', B_TYPE_LARGE),
	BINDER_TYPE_WEAK_BINDER = B_PACK_CHARS('w', 'b', '*', B_TYPE_LARGE),
	BINDER_TYPE_HANDLE = B_PACK_CHARS('s', 'h', '*', B_TYPE_LARGE),
	BINDER_TYPE_WEAK_HANDLE = B_PACK_CHARS('w', 'h', '*', B_TYPE_LARGE),
	BINDER_TYPE_FD = B_PACK_CHARS('f', 'd', '*', B_TYPE_LARGE),
	BINDER_TYPE_FDA = B_PACK_CHARS('f', 'd', 'a', B_TYPE_LARGE),
	BINDER_TYPE_PTR = B_PACK_CHARS('p', 't', '*', B_TYPE_LARGE),
};

enum flat_binder_object_flags {
	FLAT_BINDER_FLAG_PRIORITY_MASK = 0xff,
	FLAT_BINDER_FLAG_ACCEPTS_FDS = 0x100,
	/* Android's real-time extension: mainline ignores these bits. */
	FLAT_BINDER_FLAG_SCHED_POLICY_SHIFT = 9,
	FLAT_BINDER_FLAG_SCHED_POLICY_MASK = 3U << 9,
	FLAT_BINDER_FLAG_INHERIT_RT = 0x800,
	FLAT_BINDER_FLAG_TXN_SECURITY_CTX = 0x1000,
};

typedef __u64 binder_size_t;
typedef __u64 binder_uintptr_t;

struct binder_object_header {
	__u32 type;
};

/* (WEAK_)BINDER: binder and cookie are the sender's; (WEAK_)HANDLE: handle. */
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

/* BINDER_TYPE_PTR: a buffer copied along, perhaps inside a parent one. */
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

/* BINDER_TYPE_FDA: num_fds descriptors inside a parent buffer object. */
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
	__u32 sync_recv; /* bit 0: a call came while frozen; bit 1: still pending */
	__u32 async_recv;
};

/* BR_FROZEN_BINDER's payload (Linux 6.12). */
struct binder_frozen_state_info {
	binder_uintptr_t cookie;
	__u32 is_frozen;
	__u32 reserved;
};

/* BINDER_GET_EXTENDED_ERROR (Linux 6.0). */
struct binder_extended_error {
	__u32 id;
	__u32 command;
	__s32 param;
};

#define BINDER_WRITE_READ _IOWR('b', 1, struct binder_write_read)
#define BINDER_SET_IDLE_TIMEOUT _IOW('b', 3, __s64)
#define BINDER_SET_MAX_THREADS _IOW('b', 5, __u32)
#define BINDER_SET_IDLE_PRIORITY _IOW('b', 6, __s32)
#define BINDER_SET_CONTEXT_MGR _IOW('b', 7, __s32)
#define BINDER_THREAD_EXIT _IOW('b', 8, __s32)
#define BINDER_VERSION _IOWR('b', 9, struct binder_version)
#define BINDER_GET_NODE_DEBUG_INFO _IOWR('b', 11, struct binder_node_debug_info)
#define BINDER_GET_NODE_INFO_FOR_REF _IOWR('b', 12, struct binder_node_info_for_ref)
#define BINDER_SET_CONTEXT_MGR_EXT _IOW('b', 13, struct flat_binder_object)
#define BINDER_FREEZE _IOW('b', 14, struct binder_freeze_info)
#define BINDER_GET_FROZEN_INFO _IOWR('b', 15, struct binder_frozen_status_info)
#define BINDER_ENABLE_ONEWAY_SPAM_DETECTION _IOW('b', 16, __u32)
#define BINDER_GET_EXTENDED_ERROR _IOWR('b', 17, struct binder_extended_error)

enum transaction_flags {
	TF_ONE_WAY = 0x01,    /* no reply */
	TF_ROOT_OBJECT = 0x04,
	TF_STATUS_CODE = 0x08, /* the data is a 32-bit status code */
	TF_ACCEPT_FDS = 0x10,  /* the caller takes fds in the reply */
	TF_CLEAR_BUF = 0x20,   /* zero the buffer when it is freed */
	TF_UPDATE_TXN = 0x40,  /* replace an outdated pending oneway */
};

struct binder_transaction_data {
	union {
		__u32 handle;         /* BC_TRANSACTION: the target's handle */
		binder_uintptr_t ptr; /* BR_TRANSACTION: the target node's */
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
} __attribute__((packed));

struct binder_pri_desc {
	__s32 priority;
	__u32 desc;
};

struct binder_pri_ptr_cookie {
	__s32 priority;
	binder_uintptr_t ptr;
	binder_uintptr_t cookie;
};

/*
 * The BR codes (driver to user space, in the read buffer), in number
 * order, with their values.  BR_TRANSACTION_SEC_CTX is left out: it
 * shares its number with BR_TRANSACTION (the payload size tells them
 * apart), so a table indexed by number cannot hold both.
 */
#define BINDER_BR_CODES(X)                                                          \
	X(BR_ERROR, _IOR('r', 0, __s32))                                            \
	X(BR_OK, _IO('r', 1))                                                       \
	X(BR_TRANSACTION, _IOR('r', 2, struct binder_transaction_data))             \
	X(BR_REPLY, _IOR('r', 3, struct binder_transaction_data))                   \
	X(BR_ACQUIRE_RESULT, _IOR('r', 4, __s32))                                   \
	X(BR_DEAD_REPLY, _IO('r', 5))                                               \
	X(BR_TRANSACTION_COMPLETE, _IO('r', 6))                                     \
	X(BR_INCREFS, _IOR('r', 7, struct binder_ptr_cookie))                       \
	X(BR_ACQUIRE, _IOR('r', 8, struct binder_ptr_cookie))                       \
	X(BR_RELEASE, _IOR('r', 9, struct binder_ptr_cookie))                       \
	X(BR_DECREFS, _IOR('r', 10, struct binder_ptr_cookie))                      \
	X(BR_ATTEMPT_ACQUIRE, _IOR('r', 11, struct binder_pri_ptr_cookie))          \
	X(BR_NOOP, _IO('r', 12))                                                    \
	X(BR_SPAWN_LOOPER, _IO('r', 13))                                            \
	X(BR_FINISHED, _IO('r', 14))                                                \
	X(BR_DEAD_BINDER, _IOR('r', 15, binder_uintptr_t))                          \
	X(BR_CLEAR_DEATH_NOTIFICATION_DONE, _IOR('r', 16, binder_uintptr_t))        \
	X(BR_FAILED_REPLY, _IO('r', 17))                                            \
	X(BR_FROZEN_REPLY, _IO('r', 18))                                            \
	X(BR_ONEWAY_SPAM_SUSPECT, _IO('r', 19))                                     \
	X(BR_TRANSACTION_PENDING_FROZEN, _IO('r', 20))                              \
	X(BR_FROZEN_BINDER, _IOR('r', 21, struct binder_frozen_state_info))         \
	X(BR_CLEAR_FREEZE_NOTIFICATION_DONE, _IOR('r', 22, binder_uintptr_t))

/* The BC codes (user space to driver, in the write buffer), likewise. */
#define BINDER_BC_CODES(X)                                                          \
	X(BC_TRANSACTION, _IOW('c', 0, struct binder_transaction_data))             \
	X(BC_REPLY, _IOW('c', 1, struct binder_transaction_data))                   \
	X(BC_ACQUIRE_RESULT, _IOW('c', 2, __s32))                                   \
	X(BC_FREE_BUFFER, _IOW('c', 3, binder_uintptr_t))                           \
	X(BC_INCREFS, _IOW('c', 4, __u32))                                          \
	X(BC_ACQUIRE, _IOW('c', 5, __u32))                                          \
	X(BC_RELEASE, _IOW('c', 6, __u32))                                          \
	X(BC_DECREFS, _IOW('c', 7, __u32))                                          \
	X(BC_INCREFS_DONE, _IOW('c', 8, struct binder_ptr_cookie))                  \
	X(BC_ACQUIRE_DONE, _IOW('c', 9, struct binder_ptr_cookie))                  \
	X(BC_ATTEMPT_ACQUIRE, _IOW('c', 10, struct binder_pri_desc))                \
	X(BC_REGISTER_LOOPER, _IO('c', 11))                                         \
	X(BC_ENTER_LOOPER, _IO('c', 12))                                            \
	X(BC_EXIT_LOOPER, _IO('c', 13))                                             \
	X(BC_REQUEST_DEATH_NOTIFICATION, _IOW('c', 14, struct binder_handle_cookie)) \
	X(BC_CLEAR_DEATH_NOTIFICATION, _IOW('c', 15, struct binder_handle_cookie))   \
	X(BC_DEAD_BINDER_DONE, _IOW('c', 16, binder_uintptr_t))                     \
	X(BC_TRANSACTION_SG, _IOW('c', 17, struct binder_transaction_data_sg))      \
	X(BC_REPLY_SG, _IOW('c', 18, struct binder_transaction_data_sg))            \
	X(BC_REQUEST_FREEZE_NOTIFICATION, _IOW('c', 19, struct binder_handle_cookie)) \
	X(BC_CLEAR_FREEZE_NOTIFICATION, _IOW('c', 20, struct binder_handle_cookie))  \
	X(BC_FREEZE_NOTIFICATION_DONE, _IOW('c', 21, binder_uintptr_t))

#define BINDER_CODE_ENUM_(name, value) name = value,

enum binder_driver_return_protocol {
	BINDER_BR_CODES(BINDER_CODE_ENUM_)
	BR_TRANSACTION_SEC_CTX = _IOR('r', 2, struct binder_transaction_data_secctx),
};

enum binder_driver_command_protocol {
	BINDER_BC_CODES(BINDER_CODE_ENUM_)
};

#undef BINDER_CODE_ENUM_

#endif /* BINDERC_UAPI_BINDER_H */
