/* SPDX-License-Identifier: MIT */
/*
 * binderc/parcel.h - parcels in Android's binder wire format.
 *
 * Layout: little-endian, every item padded to 4 bytes.  int32, uint32,
 * float take 4 bytes; int64, uint64, double 8 bytes (4-byte aligned only);
 * bool, char (UTF-16 unit) and byte are widened to int32.  Strings,
 * arrays and nullable values use an int32 length prefix where -1 means
 * null.  Binder objects and file descriptors are 24-byte flat objects whose
 * positions are listed in the parcel's offsets array (a null binder is
 * written without an offsets entry).
 *
 * Writing always appends at the end of the data.  Reading starts at
 * position 0 and advances; every read is bounds-checked:
 *   -ENODATA  the parcel ends before the item does,
 *   -EBADMSG  malformed item (bad length, an object where plain data was
 *             expected or the reverse, an object not in the offsets array),
 *   -EILSEQ   a string that is not valid UTF-8/UTF-16,
 *   -ENOMEM   allocation failure.
 * A failed read leaves the position unchanged.
 *
 * Returned in-place pointers (const) stay valid while the parcel lives.
 * Returned allocated memory (non-const) belongs to the caller: free().
 */
#ifndef BINDERC_PARCEL_H
#define BINDERC_PARCEL_H

#include <binderc/common.h>
#include <binderc/status.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- life cycle ------------------------------------------------------- */

/** Create an empty parcel (dialect BINDERC_WIRE_DEFAULT, system partition). */
int bc_parcel_new(bc_parcel **ret);

/**
 * Create a read-only parcel holding a copy of @data (@size bytes) with the
 * object offsets @offsets (@n_offsets entries, may be NULL when 0).  The
 * offsets must be increasing, 4-aligned, non-overlapping and inside the
 * data, and each must point at a BINDER/HANDLE/FD object (else -EINVAL).
 * Binder objects in such a parcel cannot be resolved (reads give
 * -EBADMSG); file descriptors are returned as the stored numbers and never
 * closed by the parcel.  Meant for tests and for unmarshalling.
 */
int bc_parcel_new_from_data(const void *data, size_t size, const uint64_t *offsets, size_t n_offsets,
			    bc_parcel **ret);

/** Take a reference.  Returns @p. */
bc_parcel *bc_parcel_ref(bc_parcel *p);
/** Drop a reference; the last one frees the parcel, its objects' references
 * and owned fds (and gives a received buffer back to the driver).  NULL. */
bc_parcel *bc_parcel_unref(bc_parcel *p);

/**
 * Mark @p as holding sensitive data (Android's Parcel::markSensitive):
 * its data buffer is zeroed when it is freed and when it grows, and it is
 * never kept for reuse with its contents.  Call it before writing.  A
 * buffer received from the driver is the driver's: it is zeroed there, if
 * the call was made with BINDERC_FLAG_CLEAR_BUF.  NULL is ignored.
 */
void bc_parcel_mark_sensitive(bc_parcel *p);

/** Select the wire dialect (enum bc_wire) and partition (enum
 * bc_partition) used by later writes and reads of this parcel. */
int bc_parcel_set_wire(bc_parcel *p, int wire, int partition);
/** The parcel's wire dialect (enum bc_wire). */
int bc_parcel_get_wire(const bc_parcel *p);

/** Raw data of the parcel. */
const void *bc_parcel_data(const bc_parcel *p);
/** Size of the data in bytes. */
size_t bc_parcel_size(const bc_parcel *p);
/** The offsets array; its length is stored in *@ret_n. */
const uint64_t *bc_parcel_offsets(const bc_parcel *p, size_t *ret_n);
/** Current read position. */
size_t bc_parcel_get_position(const bc_parcel *p);
/** Move the read position (must be <= size and 4-aligned, else -EINVAL). */
int bc_parcel_set_position(bc_parcel *p, size_t pos);
/** Bytes left to read. */
size_t bc_parcel_remaining(const bc_parcel *p);

/* ---- writing ---------------------------------------------------------- */
/* All writers return 0, -ENOMEM, -EROFS (received/read-only parcel),
 * -EINVAL (bad argument) or -EILSEQ (bad UTF-8). */

/** Append an int32. */
int bc_parcel_write_int32(bc_parcel *p, int32_t v);
/** Append a uint32. */
int bc_parcel_write_uint32(bc_parcel *p, uint32_t v);
/** Append an int64 (8 bytes, 4-byte aligned). */
int bc_parcel_write_int64(bc_parcel *p, int64_t v);
/** Append a uint64. */
int bc_parcel_write_uint64(bc_parcel *p, uint64_t v);
/** Append a bool (as int32 0/1). */
int bc_parcel_write_bool(bc_parcel *p, bool v);
/** Append a char16 (as int32). */
int bc_parcel_write_char(bc_parcel *p, uint16_t v);
/** Append a byte (as int32, sign-extended). */
int bc_parcel_write_byte(bc_parcel *p, int8_t v);
/** Append a float. */
int bc_parcel_write_float(bc_parcel *p, float v);
/** Append a double. */
int bc_parcel_write_double(bc_parcel *p, double v);
/** Append @len raw bytes, zero-padded to 4. */
int bc_parcel_write_raw(bc_parcel *p, const void *data, size_t len);

/** Append a String16 converted from NUL-terminated UTF-8; NULL = null. */
int bc_parcel_write_string16(bc_parcel *p, const char *utf8);
/** Append a String16 converted from @len bytes of UTF-8 (may hold NULs). */
int bc_parcel_write_string16_len(bc_parcel *p, const char *utf8, size_t len);
/** Append a String16 from @len UTF-16 units; NULL = null. */
int bc_parcel_write_string16_utf16(bc_parcel *p, const uint16_t *s, size_t len);
/** Append a String8 (int32 byte length, bytes, NUL, pad); NULL = null. */
int bc_parcel_write_string8(bc_parcel *p, const char *s);
/** Append a String8 of @len bytes. */
int bc_parcel_write_string8_len(bc_parcel *p, const char *s, size_t len);

/** Append a byte array (int32 length, packed bytes, pad); NULL = null. */
int bc_parcel_write_byte_array(bc_parcel *p, const void *data, size_t len);
/** Typed arrays: int32 count, then every element in its own encoding
 * (bool and char elements widened to int32).  @v NULL = null array. */
int bc_parcel_write_int32_array(bc_parcel *p, const int32_t *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_uint32_array(bc_parcel *p, const uint32_t *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_int64_array(bc_parcel *p, const int64_t *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_uint64_array(bc_parcel *p, const uint64_t *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_float_array(bc_parcel *p, const float *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_double_array(bc_parcel *p, const double *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_bool_array(bc_parcel *p, const bool *v, size_t n);
/** See bc_parcel_write_int32_array(). */
int bc_parcel_write_char_array(bc_parcel *p, const uint16_t *v, size_t n);
/** Array of String16 (from UTF-8); @v NULL = null array, NULL elements are
 * null strings. */
int bc_parcel_write_string16_array(bc_parcel *p, const char *const *v, size_t n);

/**
 * Append a strong binder object.  A local object is written as
 * BINDER_TYPE_BINDER, a proxy as BINDER_TYPE_HANDLE, NULL as a null
 * binder (type BINDER, zero pointer and cookie, no offsets entry).  As
 * Android's libbinder, the proxy of handle 0 (the context manager) gets
 * no offsets entry either: it crosses untranslated and names the
 * receiver's own handle 0.  In the Android 11+ dialects an int32
 * stability word follows.  The parcel keeps a reference on @b until it is
 * freed.
 */
int bc_parcel_write_binder(bc_parcel *p, bc_binder *b);
/** Like bc_parcel_write_binder() but a weak object (WEAK_BINDER/HANDLE). */
int bc_parcel_write_weak_binder(bc_parcel *p, bc_binder *b);
/**
 * Append a file descriptor object.  With @take_ownership the parcel closes
 * @fd when freed; otherwise the caller keeps it open for the parcel's life.
 */
int bc_parcel_write_fd(bc_parcel *p, int fd, bool take_ownership);

/**
 * Start a structured parcelable: writes a size placeholder and stores a
 * token in *@ret_token for bc_parcel_end_parcelable(), which patches the
 * size (which counts itself).  (The nullable marker int32 1/0 that precedes
 * a nullable parcelable is the caller's to write.)
 */
int bc_parcel_begin_parcelable(bc_parcel *p, size_t *ret_token);
/** Finish the parcelable started with @token. */
int bc_parcel_end_parcelable(bc_parcel *p, size_t token);

/** Write the interface-token request header for @descriptor in the
 * parcel's dialect. */
int bc_parcel_write_interface_token(bc_parcel *p, const char *descriptor);

/**
 * Write an AIDL status header: int32 exception; when not EX_NONE, String16
 * message, int32 0 (stack trace size) and, for EX_SERVICE_SPECIFIC, the
 * int32 service error.  @st NULL means EX_NONE.
 */
int bc_parcel_write_status(bc_parcel *p, const bc_status *st);

/* ---- reading ---------------------------------------------------------- */
/* Output pointers may be NULL to skip a value. */

/** Read an int32. */
int bc_parcel_read_int32(bc_parcel *p, int32_t *ret);
/** Read a uint32. */
int bc_parcel_read_uint32(bc_parcel *p, uint32_t *ret);
/** Read an int64. */
int bc_parcel_read_int64(bc_parcel *p, int64_t *ret);
/** Read a uint64. */
int bc_parcel_read_uint64(bc_parcel *p, uint64_t *ret);
/** Read a bool (any non-zero int32 is true). */
int bc_parcel_read_bool(bc_parcel *p, bool *ret);
/** Read a char16 (low 16 bits of an int32). */
int bc_parcel_read_char(bc_parcel *p, uint16_t *ret);
/** Read a byte (low 8 bits of an int32). */
int bc_parcel_read_byte(bc_parcel *p, int8_t *ret);
/** Read a float. */
int bc_parcel_read_float(bc_parcel *p, float *ret);
/** Read a double. */
int bc_parcel_read_double(bc_parcel *p, double *ret);
/** Read @len raw bytes (plus padding) in place. */
int bc_parcel_read_raw(bc_parcel *p, size_t len, const void **ret);

/** Read a String16 as newly allocated UTF-8 (*@ret NULL for null);
 * *@ret_len (optional) gets its byte length. */
int bc_parcel_read_string16(bc_parcel *p, char **ret, size_t *ret_len);
/** Read a String16 in place: *@ret points at @*ret_len UTF-16 units
 * followed by a NUL unit (NULL for a null string). */
int bc_parcel_read_string16_utf16(bc_parcel *p, const uint16_t **ret, size_t *ret_len);
/** Read a String8 in place (NUL-terminated; NULL for null). */
int bc_parcel_read_string8(bc_parcel *p, const char **ret, size_t *ret_len);

/** Read a byte array in place; *@ret NULL for a null array. */
int bc_parcel_read_byte_array(bc_parcel *p, const void **ret, size_t *ret_len);
/** Typed arrays, newly allocated (*@ret NULL for a null array; an empty
 * array gives a non-NULL pointer and *@ret_n 0). */
int bc_parcel_read_int32_array(bc_parcel *p, int32_t **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_uint32_array(bc_parcel *p, uint32_t **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_int64_array(bc_parcel *p, int64_t **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_uint64_array(bc_parcel *p, uint64_t **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_float_array(bc_parcel *p, float **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_double_array(bc_parcel *p, double **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_bool_array(bc_parcel *p, bool **ret, size_t *ret_n);
/** See bc_parcel_read_int32_array(). */
int bc_parcel_read_char_array(bc_parcel *p, uint16_t **ret, size_t *ret_n);
/** Read a String16 array as a newly allocated array of newly allocated
 * UTF-8 strings (free each, then the array; use bc_strv_free()). */
int bc_parcel_read_string16_array(bc_parcel *p, char ***ret, size_t *ret_n);
/** Free an array returned by bc_parcel_read_string16_array(). */
void bc_strv_free(char **v, size_t n);

/**
 * Read a strong binder object; *@ret gets a new reference (NULL for a null
 * binder).  The object must be at a position listed in the offsets array
 * (except the null binder and handle 0, which Android does not list;
 * handle 0 read by the context manager's own process is its context
 * object).  -ENODEV when the parcel has no process to resolve a handle.
 */
int bc_parcel_read_binder(bc_parcel *p, bc_binder **ret);
/** Read a strong or weak binder object as a new weak reference (NULL for a
 * null binder). */
int bc_parcel_read_weak_binder(bc_parcel *p, bc_weak **ret);
/** Read a file descriptor object.  The fd stays owned by the parcel. */
int bc_parcel_read_fd(bc_parcel *p, int *ret);
/** Read a file descriptor object and return a duplicate (O_CLOEXEC) that
 * the caller owns. */
int bc_parcel_read_dup_fd(bc_parcel *p, int *ret);

/** Enter a structured parcelable: reads its size and stores the end
 * position in *@ret_end. */
int bc_parcel_enter_parcelable(bc_parcel *p, size_t *ret_end);
/** Leave a parcelable: skip to @end (unread trailing fields are skipped;
 * -EBADMSG if already read past it). */
int bc_parcel_exit_parcelable(bc_parcel *p, size_t end);

/**
 * Read the interface-token header in the parcel's dialect and return the
 * descriptor as newly allocated UTF-8.  -EPROTO when the Android 11+ header
 * word does not match the parcel's partition.
 */
int bc_parcel_read_interface_token(bc_parcel *p, char **ret_descriptor);
/** Read the interface token and check that it names @descriptor (-EPERM if
 * not). */
int bc_parcel_enforce_interface(bc_parcel *p, const char *descriptor);

/**
 * Read an AIDL status header into @ret (which the caller clears with
 * bc_status_clear()).  EX_HAS_REPLY_HEADER headers are skipped and read as
 * EX_NONE; the remote stack trace and EX_PARCELABLE blobs are skipped.
 */
int bc_parcel_read_status(bc_parcel *p, bc_status *ret);

#ifdef __cplusplus
}
#endif

#endif
