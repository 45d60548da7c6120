/* SPDX-License-Identifier: MIT */
/*
 * binderc/iface.h - interfaces described by signatures: one description,
 * both sides at run time.
 *
 * An interface is a descriptor string and a table of methods, each with a
 * name, a transaction code, an input signature, an output signature and
 * flags.  From that table libbinder-c builds
 *   - a stub: a local object that decodes incoming calls by signature and
 *     calls a plain C function through libffi (ffi_call);
 *   - a proxy: a struct of typed C function pointers made of libffi
 *     closures that marshal, transact and unmarshal; and bc_call(), a
 *     varargs entry point for quick scripts.
 *
 * =========================================================================
 * THE SIGNATURE MINI-LANGUAGE
 * =========================================================================
 * A signature is a string of items, one item per AIDL argument.  Each item
 * maps one-to-one to a parcel type, so an interface described here is
 * wire-compatible with the AIDL interface with the same descriptor,
 * methods (in the same order / with the same codes) and types.
 *
 *  char  AIDL type          wire (binderc/parcel.h)     C input      C output
 *  ----  -----------------  --------------------------  -----------  ------------
 *  i     int                int32                       int32_t      int32_t *
 *  u     int (unsigned)     int32 (as uint32)           uint32_t     uint32_t *
 *  x     long               int64                       int64_t      int64_t *
 *  t     long (unsigned)    int64 (as uint64)           uint64_t     uint64_t *
 *  b     boolean            int32 0/1                   bool         bool *
 *  y     byte               int32 (sign-extended)       int8_t       int8_t *
 *  c     char               int32 (one UTF-16 unit)     uint16_t     uint16_t *
 *  f     float              float                       float        float *
 *  d     double             double                      double       double *
 *  s     String             String16 (UTF-8 in C)       const char * char **
 *  o     IBinder            binder object (+stability)  bc_binder *  bc_binder **
 *  h     FileDescriptor     fd object                   int          int *
 *  H     ParcelFileDescriptor  int32 1, int32 0 (no    int          int *
 *                           comm fd), fd object;        (-1: null)
 *                           null: int32 0
 *  [E    E[] (E one of      int32 count + elements;     const E *,   E **,
 *        i u x t b y c f    [y is byte[]: int32 length  size_t       size_t *
 *        d s)               + packed bytes
 *
 *  ?     prefix: nullable (@nullable).  Allowed before s, o, H and [E.
 *        NULL (fd -1 for H) is written as the null value (-1 length,
 *        null binder, int32 0).  Without '?' a NULL string, binder or fd
 *        is refused when sending (-EINVAL) and a null on the wire is a
 *        malformed call (BAD_VALUE) or reply (-EBADMSG).  A non-nullable
 *        array may be given as (NULL, 0): an empty array.
 *
 *  The C types of arrays: [y is (const void *data, size_t len) - a byte
 *  buffer; [b is (const bool *, size_t); [c (const uint16_t *, size_t);
 *  [s (const char *const *, size_t); the others the obvious fixed-width
 *  integer or floating type.  An array takes two C parameters.
 *
 *  The input signature lists the in parameters.  The output signature is
 *  what the reply carries after the AIDL status header: the return value
 *  (if not void) followed by the out parameters, in AIDL declaration order
 *  (an AIDL inout parameter appears in both signatures; for an AIDL
 *  "out T[]" parameter AIDL also sends the caller's array size in the
 *  request: describe it as an i input at the parameter's position).
 *  Nothing else is accepted: no spaces, no nested arrays, no
 *  parcelables.  A method may not take more than BINDERC_IFACE_MAX_PARAMS C
 *  parameters in all (self not counted).
 *
 * C function type of a method (both sides):
 *
 *     int fn(void *self, <C inputs...>, <C outputs...>);
 *
 * e.g. in "ii", out "i":  int add(void *self, int32_t a, int32_t b,
 *                                 int32_t *sum);
 *
 * OWNERSHIP.  Inputs are borrowed for the duration of the call (a stub's
 * implementation must copy, bc_binder_ref() or dup() what it keeps).
 * Outputs belong to whoever receives them: strings and arrays are
 * malloc()ed (free()), binders are new references (bc_binder_unref()),
 * fds are new descriptors (close()).  An implementation hands outputs to
 * the stub the same way: the stub frees/unrefs/closes them after writing
 * the reply.  Proxy output pointers may be NULL to discard a value.
 *
 * ERROR CONVENTION (the same for implementations and proxies, so a local
 * C implementation and a proxy are interchangeable):
 *    0        success; outputs are set.
 *    > 0      a service-specific error (AIDL EX_SERVICE_SPECIFIC with this
 *             code); outputs are not set.
 *    -EREMOTEIO  an AIDL exception other than a positive service-specific
 *             error; bc_iface_last_status() tells which (proxy side);
 *             implementations raise one with bc_iface_throw().
 *    < 0      any other negative errno: a transport or local error.  An
 *             implementation returning one makes the stub answer with that
 *             status code (e.g. -EINVAL = BAD_VALUE); the proxy returns the
 *             status code it received, or its own error (-ENOMEM, -EINVAL
 *             for a NULL non-nullable argument, -EBADMSG for a malformed
 *             reply, -EPIPE for a dead object, ...).
 *
 * A stub answers a call it cannot decode (wrong type, truncated, null for a
 * non-nullable) with BAD_VALUE (-EINVAL), a wrong interface token with
 * PERMISSION_DENIED (-EPERM) and an unknown code, or a method whose
 * implementation pointer is NULL, with UNKNOWN_TRANSACTION (-EBADMSG).
 * One-way methods (BINDERC_IFACE_ONEWAY) have an empty output signature; their
 * return value is dropped by the stub, and the proxy returns the send
 * status.
 */
#ifndef BINDERC_IFACE_H
#define BINDERC_IFACE_H

#include <stdarg.h>

#include <binderc/common.h>
#include <binderc/status.h>
#include <binderc/parcel.h>
#include <binderc/binder.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most C parameters a method may take (self excluded). */
#define BINDERC_IFACE_MAX_PARAMS 32
/** Method flag: one-way call (no reply). */
#define BINDERC_IFACE_ONEWAY 0x1u

/**
 * Transaction a binder-c stub answers with its own description (see
 * bc_iface_fetch()): '_SIG'.  Outside the user range, like '_NTF'.
 */
#define BINDERC_IFACE_DESCRIBE_TRANSACTION 0x5f534947u

/** One method of an interface description. */
struct bc_iface_method {
	const char *name;    /** unique within the interface */
	uint32_t code;	     /** 0: BINDERC_FIRST_CALL_TRANSACTION + index */
	const char *in_sig;  /** input signature (NULL = "") */
	const char *out_sig; /** output signature (NULL = "") */
	unsigned flags;	     /** BINDERC_IFACE_ONEWAY */
};

/** An interface description, usually static const. */
struct bc_iface_def {
	const char *descriptor; /** e.g. "org.example.ICalculator" */
	const struct bc_iface_method *methods;
	size_t n_methods;
};

/** A validated, compiled interface description (refcounted). */
typedef struct bc_iface bc_iface;
/** A proxy built from a description: typed function pointers. */
typedef struct bc_iface_proxy bc_iface_proxy;

/* ---- signatures ------------------------------------------------------- */

/**
 * Check one signature.  Returns the number of C parameters it takes, or
 * -EINVAL; then *@ret_bad (optional) gets the offset of the offending
 * character (the string length when the signature ends too early).
 */
int bc_iface_sig_check(const char *sig, size_t *ret_bad);

/* ---- descriptions ----------------------------------------------------- */

/**
 * Validate and compile @def (everything is copied: @def may go away).
 * -EINVAL for a bad description; then *@ret_error (optional) gets a
 * malloc()ed message naming the method and the bad character, e.g.
 *   method "add" input signature "iq": unknown type: 'q' at offset 1
 * Duplicate names or codes, codes outside the user range, outputs on a
 * one-way method and too many parameters are refused the same way.
 */
int bc_iface_new(const struct bc_iface_def *def, bc_iface **ret, char **ret_error);
/** Take a reference. */
bc_iface *bc_iface_ref(bc_iface *iface);
/** Drop a reference.  Returns NULL. */
bc_iface *bc_iface_unref(bc_iface *iface);
/** The interface descriptor. */
const char *bc_iface_get_descriptor(const bc_iface *iface);
/** Number of methods. */
size_t bc_iface_get_n_methods(const bc_iface *iface);
/** Index of the method called @name, or -ENOENT. */
int bc_iface_find_method(const bc_iface *iface, const char *name);
/** Index of the method with transaction @code, or -ENOENT. */
int bc_iface_find_code(const bc_iface *iface, uint32_t code);
/** The (normalised) description of method @index: code filled in,
 * signatures never NULL.  NULL when out of range.  Valid while @iface
 * lives. */
const struct bc_iface_method *bc_iface_get_method(const bc_iface *iface, size_t index);

/**
 * Description sharing.  bc_iface_register() makes @iface findable by its
 * descriptor in this process (a later registration of the same descriptor
 * replaces the earlier one; -EEXIST if it differs and @replace is false).
 * bc_iface_lookup() gives a new reference (-ENOENT).  Registrations hold a
 * reference until bc_iface_unregister() (or process exit).
 */
int bc_iface_register(bc_iface *iface, bool replace);
int bc_iface_unregister(const char *descriptor);
int bc_iface_lookup(const char *descriptor, bc_iface **ret);

/**
 * Ask a binder-c stub for its description (BINDERC_IFACE_DESCRIBE_TRANSACTION)
 * and compile it: a client can then call a service it has no header for.
 * -EBADMSG when the object does not answer with a description.
 */
int bc_iface_fetch(bc_binder *b, bc_iface **ret);

/**
 * The description of whatever @b is: ask its interface descriptor
 * (INTERFACE_TRANSACTION), take the registered description of that name
 * (bc_iface_register()) if there is one, else fetch it from the object and
 * check that it carries the same descriptor (-EBADMSG if not).
 */
int bc_iface_resolve(bc_binder *b, bc_iface **ret);

/* ---- stub side -------------------------------------------------------- */

/**
 * Create a local object serving @iface.  @impl points at n_methods C
 * function pointers in method order (a struct of typed function pointers,
 * see BINDERC_IFACE_DECLARE; copied); each is called as described above with
 * @userdata as self.  NULL entries answer UNKNOWN_TRANSACTION.
 * @destroy(@userdata) (may be NULL) runs when the object dies.
 */
int bc_iface_stub_new(bc_iface *iface, const void *impl, void *userdata, bc_destroy_fn destroy, bc_binder **ret);

/**
 * The stub's whole work for one transaction, usable without a binder (the
 * seam for tests and custom transports): check the interface token of
 * @in (read from its current position), decode the inputs, call @impl's
 * method for @code with @userdata, write status and outputs to @reply.
 * Returns 0 (reply written) or the negative status to send instead:
 * -EINVAL malformed, -EPERM wrong token, -EBADMSG unknown code, or what the
 * implementation returned.  Answers BINDERC_IFACE_DESCRIBE_TRANSACTION too.
 */
int bc_iface_dispatch(bc_iface *iface, const void *impl, void *userdata, uint32_t code, bc_parcel *in,
		      bc_parcel *reply);

/**
 * Inside an implementation: make the stub reply with AIDL exception
 * @exception (an enum bc_exception, not BINDERC_EX_NONE) and @message (may be
 * NULL; copied).  Returns what the implementation should return:
 * -EREMOTEIO, or for BINDERC_EX_SERVICE_SPECIFIC see bc_iface_throw_service().
 */
int bc_iface_throw(int32_t exception, const char *message);
/** Like bc_iface_throw() for EX_SERVICE_SPECIFIC with @error.  Returns
 * @error when it is positive, else -EREMOTEIO. */
int bc_iface_throw_service(int32_t error, const char *message);

/* ---- proxy side ------------------------------------------------------- */

/**
 * A transport: send @data as transaction @code and get the reply, with the
 * contract of bc_binder_transact().  The proxy's seam: the default one is
 * bc_binder_transact() on the remote binder; tests wire it to
 * bc_iface_dispatch() to loop back without a driver.
 */
typedef int (*bc_iface_transport_fn)(void *ctx, uint32_t code, bc_parcel *data, bc_parcel **ret_reply,
				     uint32_t flags);

/** Create a proxy calling @iface on @remote (a proxy or a local object;
 * a reference is taken). */
int bc_iface_proxy_new(bc_iface *iface, bc_binder *remote, bc_iface_proxy **ret);
/** Create a proxy sending through @fn(@ctx, ...) instead of a binder.
 * Request parcels are created with bc_parcel_new(). */
int bc_iface_proxy_new_transport(bc_iface *iface, bc_iface_transport_fn fn, void *ctx, bc_iface_proxy **ret);
/** Take a reference. */
bc_iface_proxy *bc_iface_proxy_ref(bc_iface_proxy *p);
/** Drop a reference; the last one frees the closures.  Returns NULL. */
bc_iface_proxy *bc_iface_proxy_unref(bc_iface_proxy *p);
/** The description. */
bc_iface *bc_iface_proxy_get_iface(const bc_iface_proxy *p);
/** The remote binder (NULL for a transport proxy). */
bc_binder *bc_iface_proxy_get_binder(const bc_iface_proxy *p);

/**
 * The proxy's methods: n_methods C function pointers (libffi closures)
 * in method order, laid out like the struct BINDERC_IFACE_DECLARE makes; cast
 * to that struct.  Valid while the proxy lives.  The closures are bound to
 * this proxy: their self argument is not used (pass the proxy).
 * Any thread may call them concurrently.
 */
const void *bc_iface_proxy_methods(const bc_iface_proxy *p);

/**
 * Call @method by name with the C arguments of its signature (inputs then
 * output pointers), default argument promotions applied: pass bool, int8_t,
 * uint16_t as int, float as double, array lengths as size_t.  Returns as a
 * proxy method does; -ENOENT for an unknown method.  x and t arguments
 * are read as int64_t/uint64_t: cast literals, e.g. (int64_t)5.
 */
int bc_call(bc_iface_proxy *p, const char *method, ...);
/** va_list form of bc_call(). */
int bc_vcall(bc_iface_proxy *p, const char *method, va_list ap);

/**
 * The AIDL status of the calling thread's last proxy call that returned
 * -EREMOTEIO or a positive service error (EX_NONE otherwise).  Valid until
 * the thread's next proxy call.
 */
const bc_status *bc_iface_last_status(void);

/* =========================================================================
 * BINDERC_IFACE_DECLARE: write the description once, use it on both sides.
 * =========================================================================
 * In a header shared by the service and its clients:
 *
 *   #define CALC_METHODS(METHOD, ONEWAY, IN, OUT) \
 *           METHOD(add, IN(i32, a) IN(i32, b), OUT(i32, sum)) \
 *           METHOD(name, , OUT(string, name)) \
 *           ONEWAY(reset, IN(i32, value))
 *   BINDERC_IFACE_DECLARE(calc, "org.example.ICalculator", CALC_METHODS)
 *
 * declares
 *   struct calc { int (*add)(void *self, int32_t a, int32_t b,
 *                            int32_t *sum);
 *                 int (*name)(void *self, char **name);
 *                 int (*reset)(void *self, int32_t value); };
 *   static const struct bc_iface_method calc_methods[];
 *   static const struct bc_iface_def calc_def;
 * The service fills a struct calc with its functions and passes it to
 * bc_iface_stub_new(); a client casts bc_iface_proxy_methods() to
 * const struct calc *.  Signatures and C types come from the same list,
 * so they cannot disagree.  BINDERC_IFACE_INDEX(calc, add) and
 * BINDERC_IFACE_CODE(calc, add) are the method's index and transaction code.
 *
 * Type tokens for IN/OUT (signature char in brackets):
 *   i32 [i]  u32 [u]  i64 [x]  u64 [t]  bool [b]  byte [y]  char16 [c]
 *   f32 [f]  f64 [d]  string [s]  nstring [?s]  binder [o]  nbinder [?o]
 *   fd [h]   pfd [H]  npfd [?H]  bytes [[y]  nbytes [?[y]  i32s [[i]  u32s [[u]  i64s [[x]
 *   u64s [[t]  bools [[b]  char16s [[c]  f32s [[f]  f64s [[d]
 *   strings [[s]  nstrings [?[s]
 * An array parameter NAME takes two C parameters: NAME and NAME_len.
 * Methods get codes in list order (ONEWAY ones included).
 */

/* signature of each token */
#define BINDERC__S_i32 "i"
#define BINDERC__S_u32 "u"
#define BINDERC__S_i64 "x"
#define BINDERC__S_u64 "t"
#define BINDERC__S_bool "b"
#define BINDERC__S_byte "y"
#define BINDERC__S_char16 "c"
#define BINDERC__S_f32 "f"
#define BINDERC__S_f64 "d"
#define BINDERC__S_string "s"
#define BINDERC__S_nstring "?s"
#define BINDERC__S_binder "o"
#define BINDERC__S_nbinder "?o"
#define BINDERC__S_fd "h"
#define BINDERC__S_pfd "H"
#define BINDERC__S_npfd "?H"
#define BINDERC__S_bytes "[y"
#define BINDERC__S_nbytes "?[y"
#define BINDERC__S_i32s "[i"
#define BINDERC__S_u32s "[u"
#define BINDERC__S_i64s "[x"
#define BINDERC__S_u64s "[t"
#define BINDERC__S_bools "[b"
#define BINDERC__S_char16s "[c"
#define BINDERC__S_f32s "[f"
#define BINDERC__S_f64s "[d"
#define BINDERC__S_strings "[s"
#define BINDERC__S_nstrings "?[s"

/* C input parameters of each token (with a leading comma) */
#define BINDERC__I_i32(n) , int32_t n
#define BINDERC__I_u32(n) , uint32_t n
#define BINDERC__I_i64(n) , int64_t n
#define BINDERC__I_u64(n) , uint64_t n
#define BINDERC__I_bool(n) , bool n
#define BINDERC__I_byte(n) , int8_t n
#define BINDERC__I_char16(n) , uint16_t n
#define BINDERC__I_f32(n) , float n
#define BINDERC__I_f64(n) , double n
#define BINDERC__I_string(n) , const char *n
#define BINDERC__I_nstring(n) , const char *n
#define BINDERC__I_binder(n) , bc_binder *n
#define BINDERC__I_nbinder(n) , bc_binder *n
#define BINDERC__I_fd(n) , int n
#define BINDERC__I_pfd(n) , int n
#define BINDERC__I_npfd(n) , int n
#define BINDERC__I_bytes(n) , const void *n, size_t n##_len
#define BINDERC__I_nbytes(n) , const void *n, size_t n##_len
#define BINDERC__I_i32s(n) , const int32_t *n, size_t n##_len
#define BINDERC__I_u32s(n) , const uint32_t *n, size_t n##_len
#define BINDERC__I_i64s(n) , const int64_t *n, size_t n##_len
#define BINDERC__I_u64s(n) , const uint64_t *n, size_t n##_len
#define BINDERC__I_bools(n) , const bool *n, size_t n##_len
#define BINDERC__I_char16s(n) , const uint16_t *n, size_t n##_len
#define BINDERC__I_f32s(n) , const float *n, size_t n##_len
#define BINDERC__I_f64s(n) , const double *n, size_t n##_len
#define BINDERC__I_strings(n) , const char *const *n, size_t n##_len
#define BINDERC__I_nstrings(n) , const char *const *n, size_t n##_len

/* C output parameters of each token */
#define BINDERC__O_i32(n) , int32_t *n
#define BINDERC__O_u32(n) , uint32_t *n
#define BINDERC__O_i64(n) , int64_t *n
#define BINDERC__O_u64(n) , uint64_t *n
#define BINDERC__O_bool(n) , bool *n
#define BINDERC__O_byte(n) , int8_t *n
#define BINDERC__O_char16(n) , uint16_t *n
#define BINDERC__O_f32(n) , float *n
#define BINDERC__O_f64(n) , double *n
#define BINDERC__O_string(n) , char **n
#define BINDERC__O_nstring(n) , char **n
#define BINDERC__O_binder(n) , bc_binder **n
#define BINDERC__O_nbinder(n) , bc_binder **n
#define BINDERC__O_fd(n) , int *n
#define BINDERC__O_pfd(n) , int *n
#define BINDERC__O_npfd(n) , int *n
#define BINDERC__O_bytes(n) , void **n, size_t *n##_len
#define BINDERC__O_nbytes(n) , void **n, size_t *n##_len
#define BINDERC__O_i32s(n) , int32_t **n, size_t *n##_len
#define BINDERC__O_u32s(n) , uint32_t **n, size_t *n##_len
#define BINDERC__O_i64s(n) , int64_t **n, size_t *n##_len
#define BINDERC__O_u64s(n) , uint64_t **n, size_t *n##_len
#define BINDERC__O_bools(n) , bool **n, size_t *n##_len
#define BINDERC__O_char16s(n) , uint16_t **n, size_t *n##_len
#define BINDERC__O_f32s(n) , float **n, size_t *n##_len
#define BINDERC__O_f64s(n) , double **n, size_t *n##_len
#define BINDERC__O_strings(n) , char ***n, size_t *n##_len
#define BINDERC__O_nstrings(n) , char ***n, size_t *n##_len

/* The tokens are pasted at the first expansion, so 'bool' is never
 * macro-expanded. */
#define BINDERC__SIG(t, n) BINDERC__S_##t
#define BINDERC__CIN(t, n) BINDERC__I_##t(n)
#define BINDERC__COUT(t, n) BINDERC__O_##t(n)

#define BINDERC__MEMBER(m, in, out) int (*m)(void *self in out);
#define BINDERC__ENTRY(m, in, out) { #m, 0, "" in, "" out, 0 },

/* (not forwarded to the above: @in is expanded already and has commas) */
#define BINDERC__ONEWAY_MEMBER(m, in) int (*m)(void *self in);
#define BINDERC__ONEWAY_ENTRY(m, in) { #m, 0, "" in, "", BINDERC_IFACE_ONEWAY },

/**
 * Declare the typed struct, method indices/codes, method table and
 * description of an interface.  @LIST(METHOD, ONEWAY, IN, OUT) expands to
 * METHOD(name, INs, OUTs) and ONEWAY(name, INs) entries.
 */
#define BINDERC_IFACE_DECLARE(prefix, descriptor, LIST)                                              \
	struct prefix {                                                                              \
		LIST(BINDERC__MEMBER, BINDERC__ONEWAY_MEMBER, BINDERC__CIN, BINDERC__COUT)           \
	};                                                                                           \
	static const struct bc_iface_method prefix##_methods[] __attribute__((unused)) = {           \
		LIST(BINDERC__ENTRY, BINDERC__ONEWAY_ENTRY, BINDERC__SIG, BINDERC__SIG)              \
	};                                                                                           \
	static const struct bc_iface_def prefix##_def __attribute__((unused)) = {                    \
		descriptor, prefix##_methods, sizeof(prefix##_methods) / sizeof(prefix##_methods[0]) \
	}

/** Index of method @m of interface @prefix declared with BINDERC_IFACE_DECLARE
 * (an integer constant expression). */
#define BINDERC_IFACE_INDEX(prefix, m) (offsetof(struct prefix, m) / sizeof(int (*)(void)))
/** Transaction code of method @m (methods get codes in list order). */
#define BINDERC_IFACE_CODE(prefix, m) (BINDERC_FIRST_CALL_TRANSACTION + (uint32_t)BINDERC_IFACE_INDEX(prefix, m))

#ifdef __cplusplus
}
#endif

#endif
